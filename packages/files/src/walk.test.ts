import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listFiles, walkFiles } from './index.js';

let root: string;

async function tree(files: Record<string, string>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
  }
}

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'acp-kit-files-')));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** A project as people have them: dependencies, build output, a virtualenv, logs, nested rules. */
const PROJECT: Record<string, string> = {
  '.git/HEAD': 'ref: refs/heads/main\n',
  '.git/config': '[core]\n',
  '.git/info/exclude': 'local-only.txt\n',
  '.gitignore': 'node_modules/\nbuild/\n.venv/\n*.log\n!keep.log\n/docs/*.md\n',
  '.ignore': '!docs/wanted.md\nscratch/\n',
  '.github/workflows/ci.yml': 'on: push\n',
  'README.md': '# p\n',
  'keep.log': 'kept by a negation\n',
  'app.log': 'ignored\n',
  'local-only.txt': 'excluded by .git/info/exclude\n',
  'node_modules/dep/index.js': 'module.exports = 1;\n',
  'build/out.js': 'built\n',
  '.venv/lib/site.py': 'x = 1\n',
  'scratch/notes.txt': 'ignored by .ignore\n',
  'docs/guide.md': 'ignored by an anchored rule\n',
  'docs/wanted.md': 'unignored by .ignore\n',
  'docs/img/logo.svg': '<svg/>\n',
  'src/index.ts': 'export {};\n',
  'src/debug.log': 'ignored by the root *.log\n',
  'packages/p/.gitignore': 'dist/\n!important.log\ngenerated.ts\n',
  'packages/p/important.log': 'unignored by the nested negation\n',
  'packages/p/other.log': 'ignored by the root *.log\n',
  'packages/p/dist/p.js': 'built\n',
  'packages/p/src/generated.ts': 'ignored by the nested rule\n',
  'packages/p/src/main.ts': 'export {};\n',
  'packages/q/generated.ts': 'not ignored: the rule is only in packages/p\n',
};

describe('listFiles on a real project tree', () => {
  it('honours nested .gitignore files, .ignore, negations and info/exclude, and skips .git', async () => {
    await tree(PROJECT);
    const { files, truncated } = await listFiles(root);
    expect(truncated).toBeUndefined();
    expect([...files].sort()).toEqual([
      '.github/workflows/ci.yml',
      '.gitignore',
      '.ignore',
      'README.md',
      'docs/img/logo.svg',
      'docs/wanted.md',
      'keep.log',
      'packages/p/.gitignore',
      'packages/p/important.log',
      'packages/p/src/main.ts',
      'packages/q/generated.ts',
      'src/index.ts',
    ]);
  });

  it('lists breadth first with names sorted', async () => {
    await tree({ 'b.txt': '', 'a/z.txt': '', 'a.txt': '', 'a/b/c.txt': '' });
    expect((await listFiles(root)).files).toEqual(['a.txt', 'b.txt', 'a/z.txt', 'a/b/c.txt']);
  });

  it('applies the rules of the directories above a start below the repository root', async () => {
    await tree(PROJECT);
    const { files } = await listFiles(join(root, 'packages/p'));
    expect([...files].sort()).toEqual(['.gitignore', 'important.log', 'src/main.ts']);
  });

  it('walks an ignored directory that was asked for explicitly, with its own rules', async () => {
    await tree({ ...PROJECT, 'build/sub/x.log': 'log\n', 'build/.gitignore': 'sub/\n' });
    expect((await listFiles(join(root, 'build'))).files).toEqual(['.gitignore', 'out.js']);
  });

  it('can list everything but .git when ignore files are off', async () => {
    await tree(PROJECT);
    const { files } = await listFiles(root, { ignoreFiles: false });
    expect(files).toContain('node_modules/dep/index.js');
    expect(files).toContain('app.log');
    expect(files.some((f) => f.startsWith('.git/'))).toBe(false);
  });

  it('reads info/exclude of a worktree through its .git file', async () => {
    await tree({
      'main-repo/.git/info/exclude': 'secret.txt\n',
      'main-repo/.git/worktrees/wt/commondir': '../..\n',
      'wt/.git': `gitdir: ${join(root, 'main-repo/.git/worktrees/wt')}\n`,
      'wt/secret.txt': 'x',
      'wt/code.ts': 'x',
    });
    expect((await listFiles(join(root, 'wt'))).files).toEqual(['code.ts']);
  });

  it('filters by glob', async () => {
    await tree(PROJECT);
    expect((await listFiles(root, { pattern: '**/*.ts' })).files.sort()).toEqual([
      'packages/p/src/main.ts',
      'packages/q/generated.ts',
      'src/index.ts',
    ]);
    expect((await listFiles(root, { pattern: '*.md' })).files).toEqual(['README.md']);
    expect((await listFiles(root, { pattern: ['src/*', 'docs/**'] })).files.sort()).toEqual([
      'docs/img/logo.svg',
      'docs/wanted.md',
      'src/index.ts',
    ]);
  });
});

describe('bounds', () => {
  it('stops at maxFiles and says so', async () => {
    await tree(
      Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`f${String(i).padStart(2, '0')}`, ''])),
    );
    const result = await listFiles(root, { maxFiles: 10 });
    expect(result.files).toHaveLength(10);
    expect(result.truncated).toBe('max-files');
    expect((await listFiles(root, { maxFiles: 30 })).truncated).toBeUndefined();
  });

  it('does not enter directories deeper than maxDepth', async () => {
    await tree({ 'a/b/c/deep.txt': '', 'a/shallow.txt': '' });
    const result = await listFiles(root, { maxDepth: 2 });
    expect(result.files).toEqual(['a/shallow.txt']);
    expect(result.truncated).toBe('max-depth');
  });

  it('ends on abort and on timeout with what it found, without throwing', async () => {
    await tree({ 'a.txt': '', 'd/b.txt': '' });
    const controller = new AbortController();
    controller.abort();
    expect(await listFiles(root, { signal: controller.signal })).toEqual({ files: [], truncated: 'aborted' });
    expect(await listFiles(root, { timeoutMs: -1 })).toEqual({ files: [], truncated: 'timeout' });
  });

  it('delivers batches while it walks', async () => {
    await tree(Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`d${i}/f.txt`, ''])));
    const walk = walkFiles(root, { batchSize: 8 });
    const sizes: number[] = [];
    for await (const batch of walk) sizes.push(batch.length);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(50);
    expect(sizes.length).toBeGreaterThan(5);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(8);
  });
});

describe('symbolic links', () => {
  beforeEach(async () => {
    await tree({ 'real/file.txt': '', 'outside/secret.txt': '' });
    await symlink(join(root, 'real/file.txt'), join(root, 'real/link.txt'));
    await symlink(join(root, 'outside'), join(root, 'real/linked-dir'));
    // A loop: real/loop → real.
    await symlink(join(root, 'real'), join(root, 'real/loop'));
    await symlink(join(root, 'missing'), join(root, 'real/dangling'));
  });

  it('leaves links out by default', async () => {
    expect((await listFiles(join(root, 'real'))).files).toEqual(['file.txt']);
  });

  it('lists links to files, never entering linked directories, with "files"', async () => {
    expect((await listFiles(join(root, 'real'), { symlinks: 'files' })).files).toEqual([
      'file.txt',
      'link.txt',
    ]);
  });

  it('follows linked directories once each with "follow", so a loop ends', async () => {
    const { files, truncated } = await listFiles(join(root, 'real'), { symlinks: 'follow' });
    expect(truncated).toBeUndefined();
    expect(files).toEqual(['file.txt', 'link.txt', 'linked-dir/secret.txt']);
  });
});
