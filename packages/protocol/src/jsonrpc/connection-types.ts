/** The public types of {@link JsonRpcConnection}'s API: options, handler signatures, contexts. */
import type { ParsedLine } from './partial-line.js';
import type { FrameTrace, Logger, RequestId } from './types.js';

export interface JsonRpcConnectionOptions {
  /** Diagnostics sink; off by default. Never receives frame contents (only lengths, ids, methods). */
  logger?: Logger;
  /** Called with every frame in and out, as text (see `traceParsedLine`). */
  trace?: FrameTrace;
  /**
   * Traces an inbound line of 1 MiB or more that was parsed as it arrived, in place of `trace`:
   * with its value, length and outline, not its text. `trace` alone gets every line's exact text, which
   * holds a long line's read pieces in memory until its frame is handled; with this hook (or no
   * trace at all) each piece is let go once parsed (docs/performance.md, "Large messages"). A
   * long line that cannot be parsed that way then reaches `trace` as text rebuilt from what was
   * parsed of it (the same JSON, escapes perhaps spelt differently).
   */
  traceParsedLine?: (direction: 'in', line: ParsedLine) => void;
  /** Largest inbound message in bytes (default 64 MiB); a bigger one closes the connection. */
  maxMessageBytes?: number;
  /** Accept LSP-style `Content-Length` framing when the peer starts with it, and answer in kind (default false). */
  detectContentLength?: boolean;
  /** How the peer is named in errors: `'agent'`, `'client'`, or `'peer'` (default). */
  peerName?: string;
  /** Timeout of every outgoing request unless a request sets its own (default: none). */
  requestTimeoutMs?: number;
  /** Pause reading when more inbound items than this wait for slow handlers (default 1024); resume at half. */
  maxQueuedInbound?: number;
  /**
   * Pause reading as well when the waiting inbound messages add up to more than this many bytes
   * of JSON (default 8 MiB); resume at half. With `maxQueuedInbound` this bounds what a fast peer
   * can make us hold: past it, the peer blocks in its own writes.
   */
  maxQueuedInboundBytes?: number;
  /**
   * Most inbound requests whose handlers run at the same time (default 1024); further ones wait
   * in the inbound queue (which then fills and pauses reading) until one is answered.
   */
  maxConcurrentRequests?: number;
  /**
   * Most text waiting to be sent to a peer that does not read (default 16 MiB, in UTF-16 code units
   * or bytes as the channel counts). Past it, `request()` and `notify()` fail at once with
   * `OUTBOUND_BUFFER_FULL` instead of queueing; answers to the peer's requests are always sent.
   * Needs a channel that reports `bufferedAmount`.
   */
  maxOutboundBytes?: number;
  /**
   * Whether to answer a line that is not JSON with -32700 now (checked at each such line; default:
   * always, for the first 16). A client turns it off while an agent signs in: logins print text on
   * stdout and read codes from stdin, where an error frame would be taken for the code.
   */
  answerParseErrors?: () => boolean;
  /**
   * Read pacing (default 0: off). While the peer streams notifications in small writes (two or
   * more reads in a row holding only notifications, each within this many ms of the previous),
   * reading rests this many ms after each read, so that what arrives meanwhile is read and handled
   * in one go: a few dozen wakeups a second instead of one per frame, which is most of the CPU a
   * paced stream costs. A read holding a request or a response ends the streak (a peer waiting
   * for answers is never slowed), the first frame after a pause is read at once, and a flood (a
   * read of 16 KiB or more, and the reads within this many ms after it) is read as fast as it
   * comes. Frames are delayed by at most this much; order and backpressure are unchanged. A UI
   * that draws streamed text ~10 times a second can use 100 (acp-kit's client does).
   */
  coalesceReadsMs?: number;
}

/** What a request handler learns about its request. */
export interface RequestContext {
  readonly id: RequestId;
  readonly method: string;
  /** Aborted when the peer sends `$/cancel_request` for this request (reason: `ProtocolError` -32800) or the connection ends. */
  readonly signal: AbortSignal;
}

/** Answers a request: return (or resolve) the result, or throw a `ProtocolError`. */
export type RequestHandler = (params: unknown, ctx: RequestContext) => unknown;
/** Handles a notification; a returned promise is awaited before the next inbound message. */
export type NotificationHandler = (params: unknown, ctx: { readonly method: string }) => unknown;

export interface RequestOptions {
  /** Aborting sends `$/cancel_request` to the peer and rejects with `REQUEST_ABORTED`. */
  signal?: AbortSignal;
  /** Gives up after this long: sends `$/cancel_request` and rejects with `REQUEST_TIMEOUT`. */
  timeoutMs?: number;
}
