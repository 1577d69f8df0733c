import { link, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { script, startFake, tempDir } from '../test-support/harness.js';
import { locateSnippet, placeDiffs } from './diff-placement.js';
import type { ToolCallItem } from './state.js';

const FILE = 'line one\nline two\nline three\n';

describe('locateSnippet', () => {
  it('finds a snippet at its line, and knows whether it is the whole file or reaches its end', () => {
    expect(locateSnippet(FILE, 'line two', 'line 2 (edited)')).toEqual({
      line: 2,
      wholeFile: false,
      atEnd: false,
    });
    expect(locateSnippet(FILE, FILE, 'x\n')).toEqual({ line: 1, wholeFile: true, atEnd: true });
    expect(locateSnippet('a\nb', 'b', 'c')).toEqual({ line: 2, wholeFile: false, atEnd: true });
    // Claude's hunks after the edit: the old text is gone, the new text is there.
    expect(locateSnippet('a\nline 2 (edited)\nc\n', 'a\nline two\nc', 'a\nline 2 (edited)\nc')).toEqual({
      line: 1,
      wholeFile: false,
      atEnd: false,
    });
    expect(locateSnippet('one\r\ntwo\r\nthree\r\n', 'two\nthree', '2\n3')).toMatchObject({ line: 2 });
    expect(locateSnippet(FILE, 'nowhere', 'either')).toEqual({ line: null, wholeFile: false, atEnd: false });
  });

  it('places each diff of a content list, reading each file once', async () => {
    const reads: string[] = [];
    const placements = await placeDiffs(
      [
        { type: 'content', content: { type: 'text', text: 'x' } },
        { type: 'diff', path: '/a', oldText: 'line three', newText: '3' },
        { type: 'diff', path: '/a', oldText: 'line one', newText: '1' },
        { type: 'diff', path: '/new', oldText: null, newText: 'hello' },
        { type: 'diff', path: '/gone', oldText: 'x', newText: 'y' },
        // Qwen Code names the file relative to the session's directory.
        { type: 'diff', path: 'a', oldText: 'line two', newText: '2' },
      ],
      async (path) => {
        reads.push(path);
        return path === '/a' ? FILE : undefined;
      },
      '/',
    );
    expect(placements).toEqual([
      null,
      { line: 3, wholeFile: false, atEnd: false },
      { line: 1, wholeFile: false, atEnd: false },
      null,
      { line: null, wholeFile: false, atEnd: false },
      { line: 2, wholeFile: false, atEnd: false },
    ]);
    expect(reads).toEqual(['/a', '/gone']);
  });
});

describe('snippet diffs from an agent', () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('are placed at their line in the file before the update is applied, in order', async () => {
    const { dir, cleanup } = await tempDir();
    cleanups.push(cleanup);
    await writeFile(join(dir, 'notes.txt'), FILE);
    await writeFile(join(dir, 'linked.txt'), FILE);
    await link(join(dir, 'linked.txt'), join(dir, 'linked-2.txt'));
    const { connection } = await startFake(join(dir, 'data'));
    cleanups.push(() => connection.close(200));
    const session = await connection.newSession({ cwd: dir });
    const diff = (path: string) => ({ type: 'diff', path, oldText: 'line two', newText: 'line 2 (edited)' });
    await session.prompt(
      script([
        {
          update: {
            sessionUpdate: 'tool_call',
            toolCallId: 'e1',
            title: 'Edit notes.txt',
            kind: 'edit',
            // The last one relative to the session's directory, as Qwen Code sends them.
            content: [
              diff(join(dir, 'notes.txt')),
              diff('/etc/hostname'),
              diff(join(dir, 'linked.txt')),
              diff('notes.txt'),
            ],
          },
        },
        { update: { sessionUpdate: 'tool_call_update', toolCallId: 'e1', status: 'completed' } },
      ]),
    );
    const call = session.state.items.find((item): item is ToolCallItem => item.kind === 'tool_call');
    expect(call?.status).toBe('completed');
    // Outside the roots and hard-linked files are not read for display: shown without a line.
    expect(call?.diffPlacements).toEqual([
      { line: 2, wholeFile: false, atEnd: false },
      { line: null, wholeFile: false, atEnd: false },
      { line: null, wholeFile: false, atEnd: false },
      { line: 2, wholeFile: false, atEnd: false },
    ]);
  });
});
