/** An inbound request's bookkeeping, which doubles as its handler's context. */
import type { RequestContext } from './connection-types.js';
import type { RequestId } from './types.js';

/**
 * An inbound request from its arrival until it is answered; also the handler's context, the
 * engine's ({@link RequestContext}) and the typed layer's (`requestId`, `signal`), so that a
 * request costs no second context object.
 */
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

  /** The id, under the name the typed layer's handler context gives it. */
  get requestId(): RequestId {
    return this.id;
  }

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
