/**
 * The engine's bounds on work it takes on for a peer (see `JsonRpcConnection`): how many request
 * handlers run at once, and how much may wait to be sent to a peer that does not read.
 * Runtime-neutral.
 */
import { AcpKitError, truncate } from './errors.js';

/**
 * Counts running request handlers; past `max`, {@link wait} gives the inbound queue a promise to
 * wait on until one of them ends.
 *
 * @example
 * const slots = new RequestSlots(1024);
 * slots.started();
 * const wait = slots.wait(); // undefined while under the bound
 */
export class RequestSlots {
  private running = 0;
  private release: (() => void) | undefined;

  constructor(private readonly max: number) {}

  started(): void {
    this.running++;
  }

  finished(): void {
    this.running--;
    if (this.running < this.max) this.releaseAll();
  }

  /** A promise that resolves once a handler ends, when `max` of them run; else undefined. */
  wait(): Promise<void> | undefined {
    if (this.running < this.max) return undefined;
    return new Promise<void>((resolve) => {
      this.release = resolve;
    });
  }

  /** Lets the queue go on (a handler ended, or the connection closed). */
  releaseAll(): void {
    const release = this.release;
    this.release = undefined;
    release?.();
  }
}

/**
 * The error for a message that would overfill the outbound buffer of a peer that does not read,
 * or undefined when it fits. An empty buffer always takes one message, however large.
 */
export function outboundFull(
  peerName: string,
  method: string,
  buffered: number | undefined,
  frameLength: number,
  limit: number,
): AcpKitError | undefined {
  if (buffered === undefined || buffered === 0 || buffered + frameLength <= limit) return undefined;
  return new AcpKitError(
    'OUTBOUND_BUFFER_FULL',
    `${peerName} is not reading its input: ${buffered} bytes are already waiting to be sent (limit ${limit})`,
    { method: truncate(method, 200), buffered, limit },
  );
}
