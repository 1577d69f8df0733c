import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listWorkspaceFiles } from './workspace-files.js';

let root: string;

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'acp-tui-files-')));
  const files: Record<string, string> = {
    '.git/HEAD': 'ref: refs/heads/main\n',
    '.gitignore': 'node_modules/\nbuild/\n.venv/\n*.log\n!keep.log\n',
    '.ignore': 'scratch/\n',
    'README.md': '# p\n',
    'keep.log': '',
    'debug.log': '',
    'node_modules/dep/index.js': '',
    'build/out.js': '',
    '.venv/lib/site.py': '',
    'scratch/notes.txt': '',
    // Not in .gitignore: the old hard-coded list skipped these, the project's rules keep them.
    'dist/README.md': '',
    'src/index.ts': '',
    'src/gen/.gitignore': '*\n!.gitignore\n!keep.ts\n',
    'src/gen/out.ts': '',
    'src/gen/keep.ts': '',
  };
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
  }
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('listWorkspaceFiles (the @ picker)', () => {
  it('offers what the project tracks: .gitignore, nested rules, negations and .ignore respected', async () => {
    expect(await listWorkspaceFiles(root)).toEqual([
      '.gitignore',
      '.ignore',
      'README.md',
      'keep.log',
      'dist/README.md',
      'src/index.ts',
      'src/gen/.gitignore',
      'src/gen/keep.ts',
    ]);
  });

  it('stops at the limit', async () => {
    expect(await listWorkspaceFiles(root, 3)).toEqual(['.gitignore', '.ignore', 'README.md']);
  });
});
