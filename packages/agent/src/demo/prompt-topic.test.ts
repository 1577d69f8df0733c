import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../test-support/harness.js';
import { Workspace } from '../tools/workspace.js';
import { promptTopic } from './prompt-topic.js';

let work: string;
let workspace: Workspace;
const listed = ['README.md', 'notes.md', 'docs/guide.md', 'src/parser.ts'];

beforeEach(async () => {
  work = await tempDir('ws');
  await mkdir(join(work, 'docs'));
  await mkdir(join(work, 'src'));
  await mkdir(join(work, 'deep/er'), { recursive: true });
  for (const file of [...listed, 'deep/er/unlisted.txt']) await writeFile(join(work, file), 'x\n');
  workspace = await Workspace.create(work);
});
afterEach(() => removeDir(work));

const topic = (text: string) => promptTopic([{ type: 'text', text }], listed, workspace);

describe('what a prompt names, for the demo tour', () => {
  it('reads the file the prompt names, and searches for references to it when it names no words', async () => {
    expect(await topic('Please improve notes.md.')).toEqual({
      file: 'notes.md',
      search: { pattern: 'notes\\.md', caseInsensitive: true },
    });
  });

  it('finds a named file by its path, by its name in a directory, or past the listing', async () => {
    expect((await topic('what does `docs/guide.md` say?')).file).toBe('docs/guide.md');
    expect((await topic('tidy guide.md')).file).toBe('docs/guide.md');
    expect((await topic('read ./deep/er/unlisted.txt')).file).toBe('deep/er/unlisted.txt');
  });

  it('searches for quoted terms first, else for the words that do not ask for something', async () => {
    expect((await topic('Where is "parse config" used in src/parser.ts?')).search).toEqual({
      pattern: 'parse config',
      caseInsensitive: true,
    });
    expect(await topic('explain the tokenizer and the lexer')).toEqual({
      file: 'README.md',
      search: { pattern: 'tokenizer|lexer', caseInsensitive: true },
    });
  });

  it('says which named file is missing, and searches for it', async () => {
    expect(await topic('improve missing.md')).toEqual({
      file: 'README.md',
      missing: 'missing.md',
      search: { pattern: 'missing\\.md', caseInsensitive: true },
    });
  });

  it('names nothing: a README and the first word of four letters, as the tour always did', async () => {
    expect(await topic('show me around')).toEqual({
      file: 'README.md',
      search: { pattern: 'show', caseInsensitive: false },
    });
    expect((await topic('?')).search).toEqual({ pattern: 'TODO', caseInsensitive: false });
  });

  it('prefers an attached file to a named one', async () => {
    const attached = await promptTopic(
      [
        { type: 'text', text: 'improve notes.md' },
        { type: 'resource_link', uri: `file://${join(work, 'src/parser.ts')}`, name: 'parser.ts' },
      ],
      listed,
      workspace,
    );
    expect(attached).toEqual({
      file: join(work, 'src/parser.ts'),
      search: { pattern: 'notes\\.md', caseInsensitive: true },
    });
  });
});
