/**
 * A raw ACP v2 client on a real agent process (`acp agent --demo`, `acp agent` on a stub model):
 * it negotiates v2, keeps every `session/update` in arrival order, answers permission questions by
 * a policy the case sets, and waits for updates and replies by events — never by time.
 */
import type { ChildProcess } from 'node:child_process';
import { LinePeer, type Frame } from './line-peer.js';
import { within } from './procs.js';

/** A `session/update` as received: its session and its update object. */
export interface ReceivedUpdate {
  sessionId: string;
  update: Frame & { sessionUpdate: string };
}

/** How a permission question is answered: an option kind to pick, `cancelled`, or `hold` (unanswered). */
export type PermissionPolicy = (request: Frame) => 'allow_once' | 'reject_once' | 'cancelled' | 'hold';

export class V2Peer {
  readonly updates: ReceivedUpdate[] = [];
  readonly questions: Frame[] = [];
  /** Questions held unanswered (`hold`), with their request ids. */
  readonly held: { id: unknown; params: Frame }[] = [];
  /** Request ids the agent withdrew (`$/cancel_request`). */
  readonly withdrawn: unknown[] = [];
  /** Refuses everything unless a case says otherwise. */
  policy: PermissionPolicy = () => 'reject_once';
  readonly line: LinePeer;
  private readonly waiters: { test: (u: ReceivedUpdate) => boolean; done: (u: ReceivedUpdate) => void }[] =
    [];
  private nextId = 0;
  private heldWaiters: (() => boolean)[] = [];

  constructor(readonly child: ChildProcess) {
    this.line = new LinePeer(child, (_line, frame) => this.take(frame));
  }

  private take(frame: Frame): boolean {
    if (frame.method === 'session/update' && frame.id === undefined) {
      const received = frame.params as ReceivedUpdate;
      this.updates.push(received);
      for (const waiter of this.waiters.splice(0)) {
        if (waiter.test(received)) waiter.done(received);
        else this.waiters.push(waiter);
      }
      return true;
    }
    if (frame.method === '$/cancel_request' && frame.id === undefined) {
      this.withdrawn.push((frame.params as Frame | undefined)?.requestId);
      return true;
    }
    if (frame.method === 'session/request_permission' && frame.id !== undefined) {
      const params = frame.params as Frame;
      this.questions.push(params);
      const choice = this.policy(params);
      if (choice === 'hold') {
        this.held.push({ id: frame.id, params });
        this.heldWaiters = this.heldWaiters.filter((waiter) => !waiter());
        return true;
      }
      const options = (params.options ?? []) as { optionId: string; kind: string }[];
      const option = options.find((o) => o.kind === choice);
      const outcome = option ? { outcome: 'selected', optionId: option.optionId } : { outcome: 'cancelled' };
      void this.line.write(JSON.stringify({ jsonrpc: '2.0', id: frame.id, result: { outcome } }) + '\n');
      return true;
    }
    return false;
  }

  /** Sends a request; resolves with the whole reply frame (result or error). */
  request(method: string, params: unknown, ms = 60_000): Promise<Frame> {
    const id = `v2-${++this.nextId}`;
    return within(this.line.request(id, method, params), ms, `the reply to ${method}`);
  }

  /** Sends a request and resolves with its result; rejects with the error it got. */
  async call<T = Frame>(method: string, params: unknown, ms?: number): Promise<T> {
    const reply = await this.request(method, params, ms);
    if (reply.error) throw new Error(`${method} failed: ${JSON.stringify(reply.error)}`);
    return reply.result as T;
  }

  notify(method: string, params: unknown): Promise<void> {
    return this.line.write(JSON.stringify({ jsonrpc: '2.0', method, params }) + '\n');
  }

  /** `initialize` asking for v2; throws unless the agent answered 2. */
  async initialize(): Promise<Frame> {
    const result = await this.call(
      'initialize',
      { protocolVersion: 2, info: { name: 'battery-v2', version: '1' }, capabilities: {} },
      120_000,
    );
    if (result.protocolVersion !== 2) throw new Error(`expected v2, got ${JSON.stringify(result)}`);
    return result;
  }

  async newSession(cwd: string): Promise<string> {
    return (await this.call<{ sessionId: string }>('session/new', { cwd })).sessionId;
  }

  /** The first update since index `from` that passes `test`, now or when it arrives. */
  next(
    test: (u: ReceivedUpdate) => boolean,
    from = 0,
    ms = 60_000,
    what = 'an update',
  ): Promise<ReceivedUpdate> {
    const seen = this.updates.slice(from).find(test);
    if (seen) return Promise.resolve(seen);
    return within(new Promise((done) => this.waiters.push({ test, done })), ms, what);
  }

  /** The `idle` state of `sessionId` after index `from`: the end of the turn. */
  idle(sessionId: string, from: number, ms = 60_000): Promise<ReceivedUpdate> {
    return this.next(
      (u) =>
        u.sessionId === sessionId && u.update.sessionUpdate === 'state_update' && u.update.state === 'idle',
      from,
      ms,
      'the end of the turn',
    );
  }

  /** Starts a turn; resolves with its end (the idle state) once the prompt was inserted. */
  async turn(
    sessionId: string,
    text: string,
    ms = 60_000,
  ): Promise<{ from: number; end: Promise<ReceivedUpdate> }> {
    const from = this.updates.length;
    const end = this.idle(sessionId, from, ms);
    end.catch(() => undefined);
    await this.call('session/prompt', { sessionId, prompt: [{ type: 'text', text }] });
    return { from, end };
  }

  /** The first tool call of `sessionId` since `from` that advertises `capabilities.cancel`. */
  async cancellableCall(sessionId: string, from: number): Promise<{ toolCallId: string }> {
    const found = await this.next(
      (u) =>
        u.sessionId === sessionId &&
        u.update.sessionUpdate === 'tool_call_update' &&
        Boolean((u.update.capabilities as { cancel?: unknown } | null | undefined)?.cancel),
      from,
      60_000,
      'a cancellable tool call',
    );
    return { toolCallId: String(found.update.toolCallId) };
  }

  /** Resolves with the `index`th question held unanswered (policy `hold`), now or when it comes. */
  heldQuestion(index: number): Promise<{ id: unknown; params: Frame }> {
    const known = this.held[index];
    if (known) return Promise.resolve(known);
    return within(
      new Promise((done) =>
        this.heldWaiters.push(() => this.held[index] !== undefined && (done(this.held[index]!), true)),
      ),
      60_000,
      'a question',
    );
  }

  /** Updates of `sessionId` since `from`. */
  since(sessionId: string, from: number): ReceivedUpdate['update'][] {
    return this.updates
      .slice(from)
      .filter((u) => u.sessionId === sessionId)
      .map((u) => u.update);
  }
}
