import { describe, expect, it } from 'vitest';
import type { PermissionAsk, TraceFrame, WriteReview } from '@acp-kit/client';
import { applyHunkDecisions, computeReviewHunks, summarizeHunkDecisions } from '../../diff/review-hunks.js';
import { AppStore } from '../state/app-store.js';
import { PermissionQueue } from './permission-queue.js';
import { commandEntry } from './tab-runtime.js';
import { describeFrame, trafficEntry } from './traffic.js';
import { WriteReviewService } from './write-review.js';

describe('WriteReviewService', () => {
  const OLD = 'a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\n';
  const NEW = 'a\nB\nc\nd\ne\nf\ng\nh\ni\nj\nK\nl\n';
  const path = '/w/f.txt';
  const write = (signal: AbortSignal, over: Partial<WriteReview> = {}): WriteReview => ({
    localId: 's2',
    agentId: 'a',
    path,
    oldText: OLD,
    newText: NEW,
    signal,
    ...over,
  });
  const reviewed = (decisions: readonly ('accept' | 'reject')[]) => ({
    kind: 'reviewed' as const,
    result: {
      decisions,
      content: applyHunkDecisions(OLD, NEW, decisions),
      summary: summarizeHunkDecisions(path, computeReviewHunks(OLD, NEW), decisions),
    },
  });

  it('accepts without asking when nothing changes', async () => {
    const store = new AppStore();
    const signal = new AbortController().signal;
    const service = new WriteReviewService({ store, tabFor: () => 't' });
    expect(await service.reviewWrite(write(signal, { newText: OLD }))).toEqual({ decision: 'accept' });
    expect(store.getSnapshot().reviews).toEqual([]);
  });

  it('queues the write in its session’s tab and answers with the user’s decisions', async () => {
    const store = new AppStore();
    const service = new WriteReviewService({
      store,
      tabFor: (localId) => (localId === 's2' ? 't2' : undefined),
    });
    const signal = new AbortController().signal;
    let answer = service.reviewWrite(write(signal));
    const review = store.getSnapshot().reviews[0];
    expect(review).toMatchObject({ tabId: 't2', path, oldText: OLD, newText: NEW });
    service.answer(review?.id as string, reviewed(['reject', 'accept']));
    expect(await answer).toEqual({
      decision: 'partial',
      content: OLD.replace('k\n', 'K\n'),
      message: expect.stringMatching(/accepted 1 of 2 changes .* rejected the changes at line 2/),
    });
    expect(store.getSnapshot().reviews).toEqual([]);

    answer = service.reviewWrite(write(signal));
    service.answer(store.getSnapshot().reviews[0]?.id as string, reviewed(['accept', 'accept']));
    expect(await answer).toEqual({ decision: 'accept' });
    answer = service.reviewWrite(write(signal));
    service.answer(store.getSnapshot().reviews[0]?.id as string, reviewed(['reject', 'reject']));
    expect(await answer).toEqual({ decision: 'reject', reason: 'the user rejected every change' });
    answer = service.reviewWrite(write(signal));
    service.rejectTab('t2', 'the tab was closed');
    expect(await answer).toEqual({ decision: 'reject', reason: 'the tab was closed' });
  });

  it('drops a review the engine withdraws', async () => {
    const store = new AppStore();
    const service = new WriteReviewService({ store, tabFor: () => 't1' });
    const controller = new AbortController();
    const answer = service.reviewWrite(write(controller.signal));
    expect(store.getSnapshot().reviews).toHaveLength(1);
    controller.abort();
    expect(await answer).toEqual({ decision: 'reject', reason: 'the review was withdrawn' });
    expect(store.getSnapshot().reviews).toEqual([]);
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
      subject: {
        source: 'permission_request',
        agentId: 'a',
        kind: 'edit',
        paths: [],
        cwd: '/w',
        outsideRoots: false,
        secret: false,
      },
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
    // Not after the launcher: `env` names no agent.
    expect(commandEntry(['env', '-u', 'X', 'API_BASE=http://x', 'codex-acp'])).toMatchObject({
      name: 'codex-acp',
      command: 'env',
    });
    expect(commandEntry(['env', 'A=1', 'node', '/x/agent.mjs'])).toMatchObject({ name: 'agent.mjs' });
  });

  it('describes frames: requests, responses, errors, notifications with their update kind', () => {
    const frames: TraceFrame[] = [
      { t: 1, dir: 'out', frame: { jsonrpc: '2.0', id: 3, method: 'session/prompt', params: {} } },
      {
        t: 2,
        dir: 'in',
        frame: { jsonrpc: '2.0', method: 'session/update', params: { update: { sessionUpdate: 'plan' } } },
      },
      { t: 3, dir: 'in', frame: { jsonrpc: '2.0', id: 3, error: { code: -32000, message: 'auth' } } },
      { t: 4, dir: 'in', frame: { raw: 'Starting agent…' } },
    ];
    const entries = frames.map(trafficEntry);
    expect(entries.map((e) => [e.at, e.direction, e.kind, e.summary])).toEqual([
      [1, 'out', 'request', 'session/prompt #3'],
      [2, 'in', 'notification', 'session/update plan'],
      [3, 'in', 'error', 'error #3 -32000 auth'],
      [4, 'in', 'other', 'not JSON'],
    ]);
    expect(trafficEntry(frames[0] as TraceFrame)).toBe(entries[0]);
    expect(describeFrame('in', 5, { jsonrpc: '2.0', id: 'a', result: {} }).summary).toBe('result #a');
  });
});
