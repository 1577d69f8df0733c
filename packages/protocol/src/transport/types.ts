/**
 * The byte-level transport the JSON-RPC engine runs on. Runtime-neutral: Node adapters live in
 * `@acp-kit/protocol/node`, an in-memory pair in `./memory.ts`.
 */
import type { CloseDetails } from '../jsonrpc/errors.js';

/** Where a {@link ByteChannel} delivers inbound bytes. */
export interface ByteSink {
  /** A chunk of inbound bytes (any size; UTF-8 sequences and lines may be split across chunks). */
  data(chunk: Uint8Array): void;
  /** The inbound side ended; called at most once, with exit details when the peer is a process. */
  end(details?: CloseDetails): void;
}

/**
 * A bidirectional byte stream to the peer.
 *
 * Contract: `write` after `close` (or after the peer went away) is a silent no-op returning `true`;
 * errors are never thrown from `write` but reported through `sink.end(details)`. After `close()` the
 * sink may still receive the data already in flight and then `end`.
 *
 * @example
 * const [left, right] = createChannelPair();
 * left.start({ data: (chunk) => decoder.feed(chunk), end: (details) => onClosed(details) });
 * right.write('{"jsonrpc":"2.0","method":"ping"}\n');
 */
export interface ByteChannel {
  /** Begins delivering inbound bytes to `sink`. Called once. */
  start(sink: ByteSink): void;
  /** Queues UTF-8 text for the peer. Returns false when the caller should await `drain()` before writing more. */
  write(text: string): boolean;
  /** Resolves when the channel accepts more writes (at once if it already does, or when it is closed). */
  drain(): Promise<void>;
  /** Stops inbound delivery until `resume()` (flow control). */
  pause(): void;
  /** Restarts inbound delivery after `pause()`. */
  resume(): void;
  /** Ends our outbound side and releases resources. Idempotent. */
  close(): void;
  /**
   * Text written but not yet taken by the peer or the OS (UTF-16 code units or bytes, whichever
   * the channel counts). Optional: the engine bounds its outbound buffer only when it is known.
   */
  readonly bufferedAmount?: number;
}
