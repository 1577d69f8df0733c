/**
 * One decision per change: a write the user allowed with its diff — in the agent's permission
 * request or in the engine's own question about the write — is not reviewed again (unless the
 * host's mode says `always`), hunks rejected in the question are not written, and reading back a
 * file the agent wrote is not asked again while nobody changed it.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AgentConnection } from '../agent/agent-connection.js';
import type { ClientHost, PermissionAnswer, PermissionAsk, WriteReview } from '../agent/host.js';
import { PermissionPolicy } from '../permissions/policy.js';
import { fakeAgent, reportedResults, script, tempDir } from '../test-support/harness.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

type Result = { result?: unknown; error?: { message: string } };

/** A host that allows every question (answering with `answer`) and records questions and reviews. */
async function start(
  options: { answer?: (ask: PermissionAsk) => Partial<PermissionAnswer> } & ClientHost = {},
) {
  const { dir, cleanup } = await tempDir();
  cleanups.push(cleanup);
  const asked: PermissionAsk[] = [];
  const reviewed: WriteReview[] = [];
  const { answer, ...rest } = options;
  const host: ClientHost = {
    askPermission: async (ask) => {
      asked.push(ask);
      return { decision: 'allow', ...answer?.(ask) };
    },
    reviewWrite: async (write) => {
      reviewed.push(write);
      return { decision: 'accept' };
    },
    ...rest,
  };
  const connection = await AgentConnection.start({
    agent: fakeAgent(),
    policy: new PermissionPolicy({ mode: 'ask' }),
    host,
  });
  cleanups.push(() => connection.close(200));
  const session = await connection.newSession({ cwd: dir });
  return { dir, session, asked, reviewed };
}

const options = [
  { optionId: 'ok', name: 'Allow', kind: 'allow_once' },
  { optionId: 'no', name: 'Reject', kind: 'reject_once' },
];
const editRequest = (path: string, oldText: string | null, newText: string) => ({
  request: 'session/request_permission',
  params: {
    toolCall: {
      toolCallId: 'e1',
      kind: 'edit',
      title: 'Edit',
      locations: [{ path }],
      content: [{ type: 'diff', path, oldText, newText }],
    },
    options,
  },
});
const write = (path: string, content: string) => ({
  request: 'fs/write_text_file',
  params: { path, content },
});
const read = (path: string) => ({ request: 'fs/read_text_file', params: { path } });

describe('a write allowed with its diff', () => {
  it('is not reviewed again when it writes exactly that diff (whole file or a part of it)', async () => {
    const { dir, session, asked, reviewed } = await start();
    const file = join(dir, 'f.txt');
    await writeFile(file, 'one\ntwo\nthree\n');
    await session.prompt(
      script([
        editRequest(file, 'one\ntwo\nthree\n', 'one\nTWO\nthree\n'),
        write(file, 'one\nTWO\nthree\n'),
        // An edit of part of the file (as Claude's Edit tool shows it), carried out by a whole write.
        editRequest(file, 'three', 'THREE'),
        write(file, 'one\nTWO\nTHREE\n'),
      ]),
    );
    // Each with its place in the file, the one every view of the question numbers its lines from.
    expect(asked.map((a) => a.diffs)).toEqual([
      [
        {
          path: file,
          oldText: 'one\ntwo\nthree\n',
          newText: 'one\nTWO\nthree\n',
          placement: { line: 1, wholeFile: true, atEnd: true },
        },
      ],
      [
        {
          path: file,
          oldText: 'three',
          newText: 'THREE',
          placement: { line: 3, wholeFile: false, atEnd: false },
        },
      ],
    ]);
    expect(reviewed).toEqual([]);
    expect(await readFile(file, 'utf8')).toBe('one\nTWO\nTHREE\n');
    expect((reportedResults(session.state) as Result[]).filter((r) => r.error)).toEqual([]);
  });

  it('writes only the hunks accepted in the question, and tells the agent', async () => {
    const { dir, session, reviewed } = await start({
      answer: () => ({ acceptedTexts: ['A\nb\n'] }),
    });
    const file = join(dir, 'f.txt');
    await writeFile(file, 'a\nb\n');
    await session.prompt(script([editRequest(file, 'a\nb\n', 'A\nB\n'), write(file, 'A\nB\n')]));
    expect(reviewed).toEqual([]);
    expect(await readFile(file, 'utf8')).toBe('A\nb\n');
    const results = reportedResults(session.state) as Result[];
    expect(results[1]?.error?.message).toMatch(/Only part of the write to .*f\.txt was accepted/);
  });

  it('is reviewed when it differs from the approved diff, or when the mode is always', async () => {
    const differs = await start();
    const file = join(differs.dir, 'f.txt');
    await writeFile(file, 'a\n');
    await differs.session.prompt(script([editRequest(file, 'a\n', 'b\n'), write(file, 'c\n')]));
    expect(differs.reviewed.map((r) => r.newText)).toEqual(['c\n']);

    const always = await start({ writeReviewMode: () => 'always' });
    const other = join(always.dir, 'f.txt');
    await writeFile(other, 'a\n');
    await always.session.prompt(script([editRequest(other, 'a\n', 'b\n'), write(other, 'b\n')]));
    expect(always.reviewed.map((r) => r.newText)).toEqual(['b\n']);
  });

  it('without a diff in the question, is reviewed, unless the mode is never', async () => {
    const request = (path: string) => ({
      request: 'session/request_permission',
      params: { toolCall: { toolCallId: 'e', kind: 'edit', locations: [{ path }] }, options },
    });
    const changed = await start();
    const file = join(changed.dir, 'f.txt');
    await changed.session.prompt(script([request(file), write(file, 'x\n')]));
    expect(changed.reviewed.map((r) => r.newText)).toEqual(['x\n']);

    const never = await start({ writeReviewMode: () => 'never' });
    const other = join(never.dir, 'f.txt');
    await never.session.prompt(script([request(other), write(other, 'x\n')]));
    expect(never.reviewed).toEqual([]);
    expect(await readFile(other, 'utf8')).toBe('x\n');
  });
});

describe("the engine's own question about a write", () => {
  it('shows the change, and allowing it is the review (all hunks or some)', async () => {
    const { dir, session, asked, reviewed } = await start({
      // The second time, the user keeps the first hunk and rejects the added line.
      answer: (ask) => (ask.diffs?.[0]?.oldText === 'a\nB\n' ? { acceptedTexts: ['A\nB\n'] } : {}),
    });
    const file = join(dir, 'f.txt');
    await writeFile(file, 'a\nb\n');
    // No permission request first: an agent in an auto-edit mode just writes.
    await session.prompt(script([write(file, 'a\nB\n')]));
    expect(await readFile(file, 'utf8')).toBe('a\nB\n');
    await session.prompt(script([write(file, 'A\nB\nc\n')]));
    expect(asked.map((a) => [a.source, a.diffs])).toEqual([
      ['fs_write', [{ path: file, oldText: 'a\nb\n', newText: 'a\nB\n' }]],
      ['fs_write', [{ path: file, oldText: 'a\nB\n', newText: 'A\nB\nc\n' }]],
    ]);
    expect(reviewed).toEqual([]);
    expect(await readFile(file, 'utf8')).toBe('A\nB\n');
    const results = reportedResults(session.state) as Result[];
    expect(results.map((r) => r.error?.message)).toEqual([
      undefined,
      expect.stringMatching(/Only part of the write to .*f\.txt was accepted/),
    ]);
  });

  it('shows no content for a secret file (the review still does)', async () => {
    const { dir, session, asked, reviewed } = await start();
    await session.prompt(script([write(join(dir, '.env'), 'KEY=1\n')]));
    expect(asked).toHaveLength(1);
    expect(asked[0]?.diffs).toBeUndefined();
    expect(reviewed.map((r) => r.newText)).toEqual(['KEY=1\n']);
  });
});

describe('reading back what the agent wrote', () => {
  it('is not asked while the file is as the agent left it', async () => {
    const { dir, session, asked } = await start();
    const env = join(dir, '.env');
    await session.prompt(script([write(env, 'KEY=1\n'), read(env)]));
    // Asked once: for the write. The read of the secret the agent itself just wrote is not asked.
    expect(asked.map((a) => a.source)).toEqual(['fs_write']);
    expect((reportedResults(session.state) as Result[])[1]).toEqual({ result: { content: 'KEY=1\n' } });
    // Someone changed it since: reading it is asked again.
    await writeFile(env, 'KEY=secret\n');
    await session.prompt(script([read(env)]));
    expect(asked.map((a) => a.source)).toEqual(['fs_write', 'fs_read']);
  });
});
