/**
 * Bookkeeping for outgoing requests awaiting an answer: timeouts, abort signals, and settling
 * everything at once when the connection ends. Runtime-neutral.
 */
import { AcpKitError } from './errors.js';
import { IdTable } from './id-table.js';

/** An outgoing request still waiting for its response. */
export interface PendingRequest {
  readonly id: number;
  readonly method: string;
  resolve(value: unknown): void;
  reject(error: Error): void;
  /** Applied to the result before `resolve` (what it throws rejects instead); see `request()`. */
  readonly parse: ((result: unknown) => unknown) | undefined;
  timer: ReturnType<typeof setTimeout> | undefined;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
}

/** What to do when a request gives up locally (abort or timeout): tell the peer. */
export type GiveUp = (request: PendingRequest) => void;

/**
 * The table of outgoing requests, keyed by id.
 *
 * @example
 * const table = new PendingRequests((request) => sendCancel(request.id));
 * const answer = new Promise((resolve, reject) => table.add(1, 'session/new', resolve, reject, undefined, undefined));
 * table.take(1)?.resolve({ sessionId: 's1' });
 */
export class PendingRequests {
  private readonly entries = new IdTable<PendingRequest>();
  private readonly giveUp: GiveUp;

  constructor(giveUp: GiveUp) {
    this.giveUp = giveUp;
  }

  get size(): number {
    return this.entries.size;
  }

  has(id: unknown): boolean {
    return this.entries.has(id);
  }

  /** Registers a request; arms its timeout and abort listener. The signal must not be aborted yet. */
  add(
    id: number,
    method: string,
    resolve: (value: unknown) => void,
    reject: (error: Error) => void,
    signal: AbortSignal | undefined,
    timeoutMs: number | undefined,
    parse?: (result: unknown) => unknown,
  ): void {
    const entry: PendingRequest = {
      id,
      method,
      resolve,
      reject,
      parse,
      timer: undefined,
      signal: undefined,
      onAbort: undefined,
    };
    if (timeoutMs !== undefined && timeoutMs > 0 && Number.isFinite(timeoutMs)) {
      entry.timer = setTimeout(() => {
        if (this.take(id) !== entry) return;
        reject(
          new AcpKitError('REQUEST_TIMEOUT', `request ${method} timed out after ${timeoutMs} ms`, {
            method,
            id,
            timeoutMs,
          }),
        );
        this.giveUp(entry);
      }, timeoutMs);
    }
    if (signal) {
      entry.signal = signal;
      entry.onAbort = () => {
        if (this.take(id) !== entry) return;
        reject(abortedError(method, id, signal.reason));
        this.giveUp(entry);
      };
      signal.addEventListener('abort', entry.onAbort, { once: true });
    }
    this.entries.set(id, entry);
  }

  /** Removes and returns the request with this id, disarming its timer and listener. */
  take(id: unknown): PendingRequest | undefined {
    const entry = this.entries.get(id);
    if (entry === undefined) return undefined;
    this.entries.delete(entry.id);
    disarm(entry);
    return entry;
  }

  /** Rejects every request except those whose id is in `keep`. */
  rejectAll(error: Error, keep?: ReadonlySet<unknown>): void {
    for (const entry of this.entries.values()) {
      if (keep?.has(entry.id)) continue;
      this.entries.delete(entry.id);
      disarm(entry);
      entry.reject(error);
    }
  }
}

/** The error an outgoing request rejects with when its signal aborts. */
export function abortedError(method: string, id: number | undefined, reason: unknown): AcpKitError {
  return new AcpKitError('REQUEST_ABORTED', `request ${method} was aborted`, { method, id }, reason);
}

function disarm(entry: PendingRequest): void {
  if (entry.timer !== undefined) clearTimeout(entry.timer);
  if (entry.signal && entry.onAbort) entry.signal.removeEventListener('abort', entry.onAbort);
  entry.timer = undefined;
  entry.onAbort = undefined;
}
