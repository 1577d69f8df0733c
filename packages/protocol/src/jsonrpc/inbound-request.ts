/** An inbound request's bookkeeping, which doubles as its handler's context. */
import type { RequestContext } from './connection-types.js';
import type { RequestId } from './types.js';

/** An inbound request from its arrival until it is answered; also the handler's context. */
export class InboundRequest implements RequestContext {
  private controller: AbortController | undefined;
  /** Its handler is running (counted against the engine's concurrency bound). */
  running = false;

  constructor(
    readonly id: RequestId,
    readonly method: string,
    readonly params: unknown,
    /** The id as the peer wrote it when `id` is a rounded number (exact-id.ts); echoed in the answer. */
    readonly idText?: string,
  ) {}

  // Created on first use: most handlers never look at their signal.
  get signal(): AbortSignal {
    this.controller ??= new AbortController();
    return this.controller.signal;
  }

  get aborted(): boolean {
    return this.controller?.signal.aborted ?? false;
  }

  abort(reason: unknown): void {
    this.controller ??= new AbortController();
    this.controller.abort(reason);
  }
}
