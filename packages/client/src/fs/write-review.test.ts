/**
 * `ClientHost.reviewWrite` through the real engine: the fake agent as a child process writes with
 * `fs/write_text_file`, the host reviews each write with the session it came from.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AgentConnection } from '../agent/agent-connection.js';
import type { ClientHost, WriteReview, WriteReviewAnswer } from '../agent/host.js';
import { PermissionPolicy } from '../permissions/policy.js';
import { fakeAgent, reportedResults, script, tempDir } from '../test-support/harness.js';
import type { FsServiceOptions } from './fs-service.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function start(host: ClientHost, fs?: FsServiceOptions) {
  const { dir, cleanup } = await tempDir();
  cleanups.push(cleanup);
  const connection = await AgentConnection.start({
    agent: fakeAgent(),
    policy: new PermissionPolicy({ mode: 'all' }),
    host,
    ...(fs ? { fs } : {}),
  });
  cleanups.push(() => connection.close(200));
  return { dir, connection };
}

const writeStep = (path: string, content: string) => ({
  request: 'fs/write_text_file',
  params: { path, content },
});

type Result = { result?: unknown; error?: { code: number; message: string } };

describe('write review', () => {
  it('is attributed to the session that writes, when two sessions share a directory', async () => {
    const reviews: WriteReview[] = [];
    const { dir, connection } = await start({
      reviewWrite: async (write) => {
        reviews.push(write);
        return { decision: 'accept' };
      },
    });
    const first = await connection.newSession({ cwd: dir });
    const second = await connection.newSession({ cwd: dir });
    await Promise.all([
      first.prompt(script([writeStep(join(dir, 'one.txt'), 'from the first\n')])),
      second.prompt(script([writeStep(join(dir, 'two.txt'), 'from the second\n')])),
    ]);
    const byPath = Object.fromEntries(reviews.map((r) => [r.path, r.localId]));
    expect(byPath).toEqual({ [join(dir, 'one.txt')]: first.localId, [join(dir, 'two.txt')]: second.localId });
    expect(reviews.every((r) => r.agentId === 'fake' && r.oldText === null)).toBe(true);
    expect(reportedResults(second.state)).toEqual([{ result: {} }]);
    expect(await readFile(join(dir, 'two.txt'), 'utf8')).toBe('from the second\n');
  });

  it('writes exactly a partial answer and tells the agent; a rejection writes nothing', async () => {
    const answers: WriteReviewAnswer[] = [
      { decision: 'partial', content: 'a\nB\nc\n', message: 'The user kept only the change at line 2.' },
      { decision: 'reject', reason: 'rejected by the user' },
      { decision: 'reject', reason: 'not now' },
    ];
    const seen: (string | null)[] = [];
    const { dir, connection } = await start({
      reviewWrite: async (write) => {
        seen.push(write.oldText);
        return answers.shift() as WriteReviewAnswer;
      },
    });
    const file = join(dir, 'f.txt');
    await writeFile(file, 'a\nb\nc\n');
    const session = await connection.newSession({ cwd: dir });
    await session.prompt(
      script([
        writeStep(file, 'a\nB\nC\n'),
        writeStep(file, 'something else\n'),
        writeStep(join(dir, 'new.txt'), 'new\n'),
        // Unchanged content is not reviewed.
        writeStep(file, 'a\nB\nc\n'),
      ]),
    );
    const results = reportedResults(session.state) as Result[];
    expect(results[0]?.error?.message).toBe('The user kept only the change at line 2.');
    expect(results[1]?.error?.message).toBe(
      `The write to ${file} was rejected (rejected by the user); the file was not changed.`,
    );
    expect(results[2]?.error?.message).toMatch(/new\.txt was rejected \(not now\)/);
    expect(results[3]).toEqual({ result: {} });
    expect(seen).toEqual(['a\nb\nc\n', 'a\nB\nc\n', null]);
    expect(await readFile(file, 'utf8')).toBe('a\nB\nc\n');
    await expect(readFile(join(dir, 'new.txt'), 'utf8')).rejects.toThrow(/ENOENT/);
  });

  it('reviews the unsaved buffer and hands the accepted content to the overlay', async () => {
    const taken: string[] = [];
    const { dir, connection } = await start(
      {
        reviewWrite: async (write) => {
          expect(write.oldText).toBe('buffer\n');
          return { decision: 'partial', content: 'buffer\nkept\n' };
        },
      },
      {
        overlay: {
          read: () => 'buffer\n',
          write: (_path, content) => {
            taken.push(content);
            return true;
          },
        },
      },
    );
    const file = join(dir, 'open.txt');
    await writeFile(file, 'on disk\n');
    const session = await connection.newSession({ cwd: dir });
    await session.prompt(script([writeStep(file, 'buffer\nkept\nand more\n')]));
    expect(taken).toEqual(['buffer\nkept\n']);
    expect(await readFile(file, 'utf8')).toBe('on disk\n');
    const [result] = reportedResults(session.state) as Result[];
    expect(result?.error?.message).toMatch(/Only part of the write to .*open\.txt was accepted/);
  });

  it('aborts the review when the turn is cancelled, and the write is rejected', async () => {
    let signal: AbortSignal | undefined;
    const { dir, connection } = await start({
      reviewWrite: (write) => {
        signal = write.signal;
        void session.cancel();
        // Answers only once withdrawn: the engine must not wait for it, nor write it.
        return new Promise((resolve) =>
          write.signal.addEventListener('abort', () => resolve({ decision: 'accept' })),
        );
      },
    });
    const file = join(dir, 'f.txt');
    await writeFile(file, 'before\n');
    const session = await connection.newSession({ cwd: dir });
    const { stopReason } = await session.prompt(
      script([writeStep(file, 'after\n'), { waitForCancel: true }]),
    );
    expect(stopReason).toBe('cancelled');
    expect(signal?.aborted).toBe(true);
    const [result] = reportedResults(session.state) as Result[];
    expect(result?.error?.message).toMatch(
      /was rejected \(the turn was cancelled\); the file was not changed/,
    );
    expect(await readFile(file, 'utf8')).toBe('before\n');
  });

  it('runs after the path checks and the policy: a refused write is never reviewed', async () => {
    const reviews: WriteReview[] = [];
    const { dir, connection } = await start({
      reviewWrite: async (write) => {
        reviews.push(write);
        return { decision: 'accept' };
      },
    });
    const session = await connection.newSession({ cwd: join(dir) });
    await session.prompt(
      script([writeStep('/etc/acp-kit-review-test', 'x'), writeStep(join(dir, '.env'), 'K=v')]),
    );
    const results = reportedResults(session.state) as Result[];
    expect(results.map((r) => r.error?.message)).toEqual([
      expect.stringMatching(/outside the session roots/),
      expect.stringMatching(/looks like a secret/),
    ]);
    expect(reviews).toEqual([]);
  });
});
