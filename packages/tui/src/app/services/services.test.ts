import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ClientError, type PermissionAsk } from '@acp-kit/client';
import { applyHunkDecisions, computeReviewHunks, summarizeHunkDecisions } from '../../diff/review-hunks.js';
import { AppStore } from '../state/app-store.js';
import { PermissionQueue } from './permission-queue.js';
import { commandEntry } from './tab-runtime.js';
import { describeFrame, parseTrace } from './traffic.js';
import { WriteReviewService } from './write-review.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'acp-tui-services-'));
  dirs.push(dir);
  return dir;
}

describe('WriteReviewService', () => {
  const OLD = 'a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\n';
  const NEW = 'a\nB\nc\nd\ne\nf\ng\nh\ni\nj\nK\nl\n';

  async function queued(service: WriteReviewService, store: AppStore, path: string, content: string) {
    const result = service.overlay.write?.(path, content) as Promise<boolean>;
    // The review is queued once the current file has been read.
    await new Promise<void>((resolve) => {
      const off = store.subscribe(() => {
        off();
        resolve();
      });
    });
    const review = store.getSnapshot().reviews[0];
    if (!review) throw new Error('no review queued');
    return { result, review };
  }

  it('lets the engine write when writes are not reviewed or nothing changes', async () => {
    const store = new AppStore();
    const path = join(tempDir(), 'f.txt');
    writeFileSync(path, OLD);
    expect(
      await new WriteReviewService({ store, tabFor: () => 't', enabled: () => false }).overlay.write?.(
        path,
        NEW,
      ),
    ).toBe(false);
    expect(
      await new WriteReviewService({ store, tabFor: () => 't', enabled: () => true }).overlay.write?.(
        path,
        OLD,
      ),
    ).toBe(false);
  });

  it('writes exactly the accepted hunks, keeps the mode, and tells the agent what was rejected', async () => {
    const store = new AppStore();
    const service = new WriteReviewService({ store, tabFor: () => 't1', enabled: () => true });
    const path = join(tempDir(), 'f.txt');
    writeFileSync(path, OLD);
    chmodSync(path, 0o640);
    const { result, review } = await queued(service, store, path, NEW);
    expect(review).toMatchObject({ tabId: 't1', path, oldText: OLD, newText: NEW });
    const hunks = computeReviewHunks(OLD, NEW);
    const decisions = ['reject', 'accept'] as const;
    service.answer(review.id, {
      kind: 'reviewed',
      result: {
        decisions,
        content: applyHunkDecisions(OLD, NEW, decisions),
        summary: summarizeHunkDecisions(path, hunks, decisions),
      },
    });
    const error = await result.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClientError);
    expect((error as ClientError).message).toMatch(
      /accepted 1 of 2 changes .* rejected the changes at line 2/,
    );
    expect(readFileSync(path, 'utf8')).toBe(OLD.replace('k\n', 'K\n'));
    expect(statSync(path).mode & 0o777).toBe(0o640);
    expect(store.getSnapshot().reviews).toEqual([]);
  });

  it('leaves the write to the engine when everything is accepted, and refuses it when rejected', async () => {
    const store = new AppStore();
    const service = new WriteReviewService({ store, tabFor: () => 't1', enabled: () => true });
    const path = join(tempDir(), 'f.txt');
    writeFileSync(path, OLD);
    let pending = await queued(service, store, path, NEW);
    const hunks = computeReviewHunks(OLD, NEW);
    const all = ['accept', 'accept'] as const;
    service.answer(pending.review.id, {
      kind: 'reviewed',
      result: { decisions: all, content: NEW, summary: summarizeHunkDecisions(path, hunks, all) },
    });
    expect(await pending.result).toBe(false);
    pending = await queued(service, store, path, NEW);
    service.rejectTab('t1', 'the turn was cancelled');
    await expect(pending.result).rejects.toThrow(
      /rejected \(the turn was cancelled\); the file was not changed/,
    );
    expect(readFileSync(path, 'utf8')).toBe(OLD);
  });
});

describe('PermissionQueue', () => {
  const ask = (signal: AbortSignal): PermissionAsk =>
    ({
      key: '1',
      source: 'permission_request',
      kind: 'edit',
      paths: [],
      outsideRoots: false,
      secret: false,
      reason: 'r',
      localId: 's1',
      agentId: 'a',
      signal,
    }) as PermissionAsk;

  it('queues a question for its tab until answered', async () => {
    const store = new AppStore();
    const queue = new PermissionQueue(store, (localId) => (localId === 's1' ? 't1' : undefined));
    const answer = queue.ask(ask(new AbortController().signal));
    const pending = store.getSnapshot().permissions[0];
    expect(pending?.tabId).toBe('t1');
    queue.answer(pending?.id as string, { decision: 'allow', scope: 'project' });
    expect(await answer).toEqual({ decision: 'allow', scope: 'project' });
    expect(store.getSnapshot().permissions).toEqual([]);
  });

  it('drops a question the engine withdraws, and denies a closing tab’s questions', async () => {
    const store = new AppStore();
    const queue = new PermissionQueue(store, () => 't1');
    const controller = new AbortController();
    const withdrawn = queue.ask(ask(controller.signal));
    controller.abort();
    expect(await withdrawn).toEqual({ decision: 'deny' });
    expect(store.getSnapshot().permissions).toEqual([]);
    const closing = queue.ask(ask(new AbortController().signal));
    queue.denyTab('t1');
    expect(await closing).toEqual({ decision: 'deny' });
  });
});

describe('small services', () => {
  it('names agents given as commands after their script', () => {
    expect(commandEntry(['node', '--no-warnings', '/x/my-agent.mjs', '--acp'])).toMatchObject({
      id: 'my-agent.mjs',
      name: 'my-agent.mjs',
      command: 'node',
      args: ['--no-warnings', '/x/my-agent.mjs', '--acp'],
    });
    expect(commandEntry(['/usr/bin/gemini', '--acp'])).toMatchObject({ id: 'gemini', name: 'gemini' });
  });

  it('reads traces: requests, responses, errors, notifications with their update kind', () => {
    const entries = parseTrace(
      [
        JSON.stringify({
          t: 1,
          dir: 'out',
          frame: { jsonrpc: '2.0', id: 3, method: 'session/prompt', params: {} },
        }),
        JSON.stringify({
          t: 2,
          dir: 'in',
          frame: { jsonrpc: '2.0', method: 'session/update', params: { update: { sessionUpdate: 'plan' } } },
        }),
        '{ torn',
        JSON.stringify({
          t: 3,
          dir: 'in',
          frame: { jsonrpc: '2.0', id: 3, error: { code: -32000, message: 'auth' } },
        }),
        JSON.stringify({ t: 4, note: 'trace size limit reached' }),
      ].join('\n'),
    );
    expect(entries.map((e) => [e.direction, e.kind, e.summary])).toEqual([
      ['out', 'request', 'session/prompt #3'],
      ['in', 'notification', 'session/update plan'],
      ['in', 'error', 'error #3 -32000 auth'],
      ['in', 'other', 'trace size limit reached'],
    ]);
    expect(describeFrame('in', 5, { jsonrpc: '2.0', id: 'a', result: {} }).summary).toBe('result #a');
  });
});
