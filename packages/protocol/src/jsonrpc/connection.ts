/**
 * The JSON-RPC 2.0 engine: requests, notifications and responses over a {@link ByteChannel}.
 * Runtime-neutral (browsers, Deno, Node): no Node APIs here.
 */
import type { ByteChannel, ByteSink } from '../transport/types.js';
import type {
  JsonRpcConnectionOptions,
  NotificationHandler,
  RequestHandler,
  RequestOptions,
} from './connection-types.js';
import {
  AcpKitError,
  ErrorCodes,
  ProtocolError,
  describeSystemError,
  truncate,
  type CloseDetails,
} from './errors.js';
import { outboundFull, RequestSlots } from './flow-control.js';
import {
  FrameDecoder,
  encodeFrame,
  utf8ByteLength,
  type FrameDecoderSink,
  type ParsedLine,
} from './framing.js';
import { exactIdText, needsExactText } from './exact-id.js';
import { IdTable } from './id-table.js';
import { InboundQueue } from './inbound-queue.js';
import { InboundRequest } from './inbound-request.js';
import { PendingRequests, abortedError, type PendingRequest } from './pending-requests.js';
import { ReadPacer } from './read-pacing.js';
import type { FrameTrace, LogLevel, Logger, RequestId } from './types.js';
import {
  badMethod,
  closeError,
  encodeError,
  encodeNotification,
  encodeRequest,
  encodeResult,
  invalidRequest,
  isParams,
  isRequestId,
  loggableId,
  isThenable,
  responseError,
} from './wire.js';

export type {
  JsonRpcConnectionOptions,
  NotificationHandler,
  RequestContext,
  RequestHandler,
  RequestOptions,
} from './connection-types.js';

/** The notification either side sends to cancel one of its requests; handled by the engine itself. */
export const CANCEL_REQUEST_METHOD = '$/cancel_request';

const DEFAULT_MAX_QUEUED_INBOUND = 1024;
const DEFAULT_MAX_QUEUED_INBOUND_BYTES = 8 * 1024 * 1024;
const DEFAULT_MAX_CONCURRENT_REQUESTS = 1024;
const DEFAULT_MAX_OUTBOUND_BYTES = 16 * 1024 * 1024;
const RESOLVED: Promise<void> = Promise.resolve();

/** How many unparseable lines get a -32700 answer; later ones are only counted. */
export const MAX_PARSE_ERROR_REPLIES = 16;

/** Queued after the last inbound frame when the peer ends its output but may still read ours. */
const END_OF_INPUT: Record<string, unknown> = Object.freeze({});
type InboundItem = InboundRequest | Record<string, unknown>;

interface NotificationEntry {
  handler: NotificationHandler;
  context: { readonly method: string };
}

/**
 * A JSON-RPC 2.0 connection over a byte channel, symmetric: both sides send and handle requests.
 *
 * Ordering: inbound messages go through one queue. A notification handler's promise is awaited
 * before the next message; a request handler is started in order but not awaited; a response
 * settles its request only after the handlers of earlier notifications finished. Consequence: a
 * notification handler must not await a response from the peer (it would wait behind itself).
 *
 * @example
 * const connection = new JsonRpcConnection(channel, { peerName: 'agent' });
 * connection.onNotification('session/update', (params) => render(params));
 * connection.start();
 * const result = await connection.request('initialize', { protocolVersion: 1 }, { timeoutMs: 10_000 });
 */
export class JsonRpcConnection {
  /** Resolves (never rejects) with the reason once the connection has ended. */
  readonly closed: Promise<AcpKitError>;

  private readonly channel: ByteChannel;
  private readonly logger: Logger | undefined;
  private readonly trace: FrameTrace | undefined;
  private readonly traceParsedLine: JsonRpcConnectionOptions['traceParsedLine'];
  private readonly peerName: string;
  private readonly requestTimeoutMs: number | undefined;
  private readonly maxOutboundBytes: number;
  /** Inbound requests whose handler is running, bounded. */
  private readonly requestSlots: RequestSlots;
  private readonly decoder: FrameDecoder;
  private readonly queue: InboundQueue<InboundItem>;
  private readonly pending: PendingRequests;
  private readonly requestHandlers = new Map<string, RequestHandler>();
  private readonly notificationHandlers = new Map<string, NotificationEntry>();
  /** Inbound requests from arrival (queued or running) until answered, to spot duplicate ids. */
  private readonly inFlight = new IdTable<InboundRequest>();
  private unhandledRequest: RequestHandler | undefined;
  private unhandledNotification: NotificationHandler | undefined;
  private nextId = 1;
  private started = false;
  private closeReason: AcpKitError | undefined;
  /** Unparseable lines received so far. */
  private parseErrors = 0;
  private readonly answerParseErrors: (() => boolean) | undefined;
  /** True while the decoder delivers what was left when the input ended. */
  private endingInput = false;
  /** Size of a last frame cut off by the end of the input. */
  private truncatedFrameBytes: number | undefined;
  /** Set when the peer stopped sending but may still read: answers to its requests still go out. */
  private inputEnded: AcpKitError | undefined;
  /** True once every frame before the end of input was processed. */
  private inputDrained = false;
  private resolveClosed!: (reason: AcpKitError) => void;
  private drainWait: Promise<void> | undefined;
  /** Method of the notification whose handler the queue is awaiting (for error logs). */
  private awaitedMethod = '';
  /** Reading is paused while the inbound queue is full (`queue.isPaused`) or while it rests (read pacing). */
  private restTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly pacer: ReadPacer | undefined;
  /** The chunk being read held something other than notifications (pacing never delays those). */
  private readHadOther = false;

  constructor(channel: ByteChannel, options: JsonRpcConnectionOptions = {}) {
    this.channel = channel;
    this.logger = options.logger;
    this.trace = options.trace;
    this.traceParsedLine = options.traceParsedLine;
    this.peerName = options.peerName ?? 'peer';
    this.requestTimeoutMs = options.requestTimeoutMs;
    this.answerParseErrors = options.answerParseErrors;
    this.requestSlots = new RequestSlots(
      Math.max(1, options.maxConcurrentRequests ?? DEFAULT_MAX_CONCURRENT_REQUESTS),
    );
    this.maxOutboundBytes = options.maxOutboundBytes ?? DEFAULT_MAX_OUTBOUND_BYTES;
    this.closed = new Promise((resolve) => {
      this.resolveClosed = resolve;
    });
    const decoderSink: FrameDecoderSink = {
      frame: (text, parsed) => this.onFrame(text, parsed),
      parsedLine: (line) => this.onParsedLine(line),
      fatal: (error) => {
        this.log('error', 'inbound message too large, closing the connection', { ...error.details });
        this.terminate(error, false);
      },
    };
    this.decoder = new FrameDecoder(decoderSink, {
      maxMessageBytes: options.maxMessageBytes,
      detectContentLength: options.detectContentLength,
      // A long line's text is kept only for a trace that wants it: else its pieces go as parsed.
      parseLongLines: this.trace && !this.traceParsedLine ? 'text' : 'value',
    });
    this.queue = new InboundQueue<InboundItem>((item) => this.dispatch(item), {
      highWater: options.maxQueuedInbound ?? DEFAULT_MAX_QUEUED_INBOUND,
      highWaterWeight: options.maxQueuedInboundBytes ?? DEFAULT_MAX_QUEUED_INBOUND_BYTES,
      onPause: () => {
        this.log('debug', 'inbound queue full, pausing reads', {
          queued: this.queue.size,
          bytes: this.queue.queuedWeight,
        });
        if (this.restTimer === undefined) this.channel.pause();
      },
      onResume: () => {
        if (this.restTimer === undefined) this.channel.resume();
      },
      onAsyncError: (error) => this.notificationFailed(this.awaitedMethod, error),
    });
    this.pending = new PendingRequests((request) => this.sendCancel(request));
    const restMs = options.coalesceReadsMs ?? 0;
    if (restMs > 0) this.pacer = new ReadPacer(restMs);
  }

  /** True once the connection has ended (locally or because the peer went away). */
  get isClosed(): boolean {
    return this.closeReason !== undefined;
  }

  /** Handles requests for `method` (replaces any previous handler). */
  onRequest(method: string, handler: RequestHandler): void {
    this.requestHandlers.set(method, handler);
  }

  /** Handles notifications for `method` (replaces any previous handler). `$/cancel_request` is handled by the engine. */
  onNotification(method: string, handler: NotificationHandler): void {
    this.notificationHandlers.set(method, { handler, context: Object.freeze({ method }) });
  }

  /** Fallback for requests without a handler; by default they are answered -32601. */
  onUnhandledRequest(handler: RequestHandler | undefined): void {
    this.unhandledRequest = handler;
  }

  /** Fallback for notifications without a handler; by default they are ignored. */
  onUnhandledNotification(handler: NotificationHandler | undefined): void {
    this.unhandledNotification = handler;
  }

  /** Starts reading from the channel. Register handlers first. */
  start(): void {
    if (this.started) return;
    this.started = true;
    const sink: ByteSink = {
      data: (chunk) => {
        if (this.closeReason !== undefined) return;
        this.readHadOther = false;
        this.decoder.feed(chunk);
        if (this.pacer && this.closeReason === undefined) this.pace(this.pacer, chunk.length);
      },
      end: (details) => this.onChannelEnd(details),
    };
    this.channel.start(sink);
  }

  /**
   * Sends a request and resolves with the peer's result. Rejects with a `ProtocolError` when the
   * peer answers with an error, or an `AcpKitError` (`REQUEST_ABORTED`, `REQUEST_TIMEOUT`,
   * `PEER_EXITED`, `CONNECTION_CLOSED`, `INVALID_RESPONSE`, `INVALID_ARGUMENT`). `parseResult`, if
   * given, turns the result into what the promise resolves with (what it throws, it rejects with):
   * cheaper than a `.then` of the caller, one promise and one turn fewer.
   */
  request(
    method: string,
    params?: unknown,
    options?: RequestOptions,
    parseResult?: (result: unknown) => unknown,
  ): Promise<unknown> {
    if (this.closeReason) return Promise.reject(this.closeReason);
    // The peer can no longer answer.
    if (this.inputEnded) return Promise.reject(this.inputEnded);
    if (typeof method !== 'string') return Promise.reject(badMethod());
    const signal = options?.signal;
    // Nothing was sent yet, so there is nothing to cancel on the peer.
    if (signal?.aborted) return Promise.reject(abortedError(method, undefined, signal.reason));
    const id = this.nextId++;
    let frame: string;
    try {
      frame = encodeRequest(id, method, params);
    } catch (error) {
      return Promise.reject(error);
    }
    const full = this.outboundFull(frame, method);
    if (full) return Promise.reject(full);
    const timeoutMs = options?.timeoutMs ?? this.requestTimeoutMs;
    return new Promise((resolve, reject) => {
      this.pending.add(id, method, resolve, reject, signal, timeoutMs, parseResult);
      this.writeFrame(frame);
    });
  }

  /** Sends a notification; resolves once the channel accepted it (waiting for drain under backpressure). */
  notify(method: string, params?: unknown): Promise<void> {
    if (this.closeReason) return Promise.reject(this.closeReason);
    if (typeof method !== 'string') return Promise.reject(badMethod());
    let frame: string;
    try {
      frame = encodeNotification(method, params);
    } catch (error) {
      return Promise.reject(error);
    }
    const full = this.outboundFull(frame, method);
    if (full) return Promise.reject(full);
    return this.writeFrame(frame) ? RESOLVED : this.waitForDrain();
  }

  /** Closes locally: pending requests reject with `CONNECTION_CLOSED`, handlers' signals abort. */
  close(): Promise<void> {
    this.terminate(new AcpKitError('CONNECTION_CLOSED', `connection to ${this.peerName} was closed`), true);
    return RESOLVED;
  }

  // ---- inbound ----

  /** One inbound line; `parsed`: its value when the decoder parsed it already (a long line). */
  private onFrame(text: string, parsed?: { value: unknown }): void {
    if (this.closeReason) return;
    let message: unknown;
    try {
      message = parsed ? parsed.value : JSON.parse(text);
    } catch {
      this.readHadOther = true;
      // A frame written right after text that did not end its line (a log line without a newline)
      // is still the frame: read it from where it starts, and report the text before it.
      const at = text.indexOf('{"jsonrpc"');
      if (at > 0 && !this.endingInput) {
        const frame = text.slice(at);
        try {
          JSON.parse(frame);
          this.onFrame(text.slice(0, at));
          this.onFrame(frame);
          return;
        } catch {
          // Not a frame after all: the whole line is noise.
        }
      }
      if (this.trace) this.trace('in', text);
      if (this.endingInput) {
        // The peer's output ended inside this frame: the close reason says so.
        this.truncatedFrameBytes = utf8ByteLength(text);
        return;
      }
      this.parseErrors++;
      if (this.answerParseErrors?.() === false) return;
      // A peer that logs to stdout would get one error per log line: answer the first few only.
      if (this.parseErrors <= MAX_PARSE_ERROR_REPLIES) {
        this.log('debug', 'unparseable frame', { length: text.length });
        this.replyError(null, ProtocolError.parseError());
      } else if (this.parseErrors === MAX_PARSE_ERROR_REPLIES + 1) {
        this.log('warn', `peer keeps sending non-JSON lines; not answering them any more`, {
          count: this.parseErrors,
        });
      }
      return;
    }
    if (this.trace) this.trace('in', text, message);
    this.onMessage(message, text, text.length);
  }

  /** A long line parsed as it arrived, without its text (`parseLongLines: 'value'`). */
  private onParsedLine(line: ParsedLine): void {
    if (this.closeReason) return;
    this.traceParsedLine?.('in', line);
    // The outline has every member but the long string values as written (a big id's digits).
    this.onMessage(line.value, line.outline, line.length);
  }

  /** A parsed inbound message; `text`: its line (or outline), `size`: the line's length. */
  private onMessage(message: unknown, text: string, size: number): void {
    if (typeof message !== 'object' || message === null) {
      this.replyError(null, invalidRequest('a message must be a JSON object'));
      return;
    }
    if (Array.isArray(message)) {
      this.replyError(null, invalidRequest('batches are not supported'));
      return;
    }
    const frame = message as Record<string, unknown>;
    const method = frame.method;
    if (typeof method !== 'string' || frame.id !== undefined) this.readHadOther = true;
    if (typeof method === 'string') {
      if (frame.id === undefined) this.onNotificationFrame(frame, method, size);
      else this.onRequestFrame(frame, method, text, size);
    } else if (method !== undefined) {
      this.replyError(isRequestId(frame.id) ? frame.id : null, invalidRequest('method must be a string'));
    } else if (frame.id !== undefined || 'result' in frame || 'error' in frame) {
      // Response-shaped frames are never answered, so two peers cannot ping-pong errors.
      this.queue.push(frame, size);
    } else {
      this.replyError(null, invalidRequest('not a request, notification or response'));
    }
  }

  private onNotificationFrame(frame: Record<string, unknown>, method: string, size: number): void {
    if (frame.jsonrpc !== '2.0') return this.replyError(null, invalidRequest('jsonrpc must be "2.0"'));
    if (!isParams(frame.params))
      return this.replyError(null, invalidRequest('params must be an object or array'));
    // Bypasses the queue: the request it targets may be running while the queue waits.
    if (method === CANCEL_REQUEST_METHOD) return this.onCancelRequest(frame.params);
    this.queue.push(frame, size);
  }

  private onRequestFrame(frame: Record<string, unknown>, method: string, text: string, size: number): void {
    const id = frame.id;
    // A number the parse rounded: answered with the digits the peer wrote (its key here stays
    // the rounded number, which is also what a `$/cancel_request` for it parses to).
    const idText = typeof id === 'number' && needsExactText(id) ? exactIdText(text) : undefined;
    if (!isRequestId(id) && idText === undefined)
      return this.replyError(null, invalidRequest('id must be a string or a number'));
    const requestId = id as RequestId;
    if (frame.jsonrpc !== '2.0')
      return this.replyError(requestId, invalidRequest('jsonrpc must be "2.0"'), idText);
    if (!isParams(frame.params))
      return this.replyError(requestId, invalidRequest('params must be an object or array'), idText);
    if (this.inFlight.has(requestId)) {
      this.log('warn', 'duplicate request id from peer', {
        id: loggableId(requestId),
        method: truncate(method, 200),
      });
      return this.replyError(requestId, invalidRequest('duplicate request id'), idText);
    }
    const request = new InboundRequest(requestId, method, frame.params, idText);
    this.inFlight.set(requestId, request);
    this.queue.push(request, size);
  }

  private onCancelRequest(params: unknown): void {
    const requestId =
      typeof params === 'object' && params !== null
        ? (params as { requestId?: unknown }).requestId
        : undefined;
    const request = isRequestId(requestId) ? this.inFlight.get(requestId) : undefined;
    if (!request) {
      this.log('debug', 'cancel for an unknown or finished request', {
        requestId: loggableId(requestId),
      });
      return;
    }
    request.abort(ProtocolError.requestCancelled());
  }

  /** Processes one queued item; returns a promise only for an asynchronous notification handler. */
  private dispatch(item: InboundItem): PromiseLike<unknown> | undefined {
    if (item === END_OF_INPUT) {
      this.inputDrained = true;
      // Every answer the peer sent has been read: what is still pending will never be answered.
      if (this.inputEnded) this.pending.rejectAll(this.inputEnded);
      this.finishIfDrained();
      return undefined;
    }
    if (item instanceof InboundRequest) {
      this.startRequest(item);
      return this.closeReason ? undefined : this.requestSlots.wait();
    }
    const method = item.method;
    if (typeof method === 'string') return this.runNotification(item, method);
    this.settleResponse(item);
    return undefined;
  }

  private runNotification(frame: Record<string, unknown>, method: string): PromiseLike<unknown> | undefined {
    let result: unknown;
    try {
      const entry = this.notificationHandlers.get(method);
      if (entry) {
        result = entry.handler(frame.params, entry.context);
      } else if (this.unhandledNotification) {
        result = this.unhandledNotification(frame.params, { method });
      } else {
        this.log('debug', 'ignored notification without handler', { method: truncate(method, 200) });
        return undefined;
      }
    } catch (error) {
      this.notificationFailed(method, error);
      return undefined;
    }
    if (!isThenable(result)) return undefined;
    this.awaitedMethod = method;
    return result;
  }

  private notificationFailed(method: string, error: unknown): void {
    this.log('warn', 'notification handler failed', { method: truncate(method, 200), error });
  }

  private startRequest(request: InboundRequest): void {
    // The peer is gone: nobody could read the answer.
    if (this.closeReason) return;
    const handler = this.requestHandlers.get(request.method) ?? this.unhandledRequest;
    if (!handler) {
      this.release(request);
      this.replyError(request.id, ProtocolError.methodNotFound(request.method), request.idText);
      return;
    }
    request.running = true;
    this.requestSlots.started();
    try {
      const result = handler(request.params, request);
      if (isThenable(result)) {
        result.then(
          (value) => this.answer(request, value),
          (error: unknown) => this.fail(request, error),
        );
      } else {
        this.answer(request, result);
      }
    } catch (error) {
      this.fail(request, error);
    }
  }

  private answer(request: InboundRequest, value: unknown): void {
    if (!this.release(request)) return;
    let frame: string;
    try {
      frame = encodeResult(request.id, value, request.idText);
    } catch {
      this.log('warn', 'request handler returned a value that is not JSON-serialisable', {
        method: truncate(request.method, 200),
        id: request.id,
      });
      frame = encodeError(
        request.id,
        ProtocolError.internalError({ note: 'result is not JSON-serialisable' }),
        request.idText,
      );
    }
    this.writeFrame(frame);
  }

  private fail(request: InboundRequest, error: unknown): void {
    if (!this.release(request)) return;
    let reply: ProtocolError;
    if (request.aborted) {
      reply = ProtocolError.requestCancelled();
    } else if (error instanceof ProtocolError) {
      reply = error;
    } else {
      this.log('warn', 'request handler failed', {
        method: truncate(request.method, 200),
        id: request.id,
        error,
      });
      // The cause of a system error (EACCES…) is what the peer can act on; the rest stays here.
      const system = describeSystemError(error);
      reply = system
        ? new ProtocolError(ErrorCodes.InternalError, system, { reason: (error as { code: string }).code })
        : ProtocolError.internalError();
    }
    this.writeFrame(encodeError(request.id, reply, request.idText));
  }

  /** Forgets an answered request; false when the answer must not be sent (closed, or answered already). */
  private release(request: InboundRequest): boolean {
    if (request.running) {
      request.running = false;
      this.requestSlots.finished();
    }
    if (this.inFlight.get(request.id) !== request) return false;
    this.inFlight.delete(request.id);
    // After the caller writes this answer, the connection may be done.
    if (this.inputDrained && this.inFlight.size === 0) queueMicrotask(() => this.finishIfDrained());
    return this.closeReason === undefined;
  }

  /** Ends a half-closed connection once its last answer is written. */
  private finishIfDrained(): void {
    if (this.inputEnded && this.inputDrained && this.inFlight.size === 0)
      this.terminate(this.inputEnded, false);
  }

  private settleResponse(frame: Record<string, unknown>): void {
    const id = frame.id;
    // Ids match exactly: "2" is not 2 (JSON-RPC: the response id is the request's id).
    const entry = this.pending.take(id);
    if (entry) {
      const error = responseError(frame, entry.method);
      if (error) entry.reject(error);
      else if (entry.parse) settleParsed(entry, entry.parse, frame.result);
      else entry.resolve(frame.result);
    } else if (id === null && typeof frame.error === 'object' && frame.error !== null) {
      const code = (frame.error as { code?: unknown }).code;
      this.log('warn', 'peer reported an error about an unidentified message', { code });
    } else {
      this.log('debug', 'dropped response for an unknown request id', { id: loggableId(id) });
    }
  }

  private onChannelEnd(details: CloseDetails | undefined): void {
    if (this.closeReason || this.inputEnded) return;
    // A last line without a newline still counts; one that does not parse was cut off.
    this.endingInput = true;
    this.decoder.end();
    this.endingInput = false;
    if (this.closeReason) return;
    const truncated = this.truncatedFrameBytes;
    const reason = closeError(
      this.peerName,
      truncated === undefined ? details : { ...details, truncatedFrameBytes: truncated },
    );
    if (details?.peerReading !== true) {
      this.terminate(reason, false);
      return;
    }
    // The peer ended its output (e.g. a script piping requests into an agent) but may still read
    // ours: finish the requests it sent, answer them, then close.
    this.inputEnded = reason;
    this.queue.push(END_OF_INPUT);
  }

  // ---- outbound ----

  private writeFrame(json: string): boolean {
    if (this.trace) this.trace('out', json);
    return this.channel.write(
      this.decoder.mode === 'content-length' ? encodeFrame(json, 'content-length') : json + '\n',
    );
  }

  private replyError(id: RequestId | null, error: ProtocolError, idText?: string): void {
    this.writeFrame(encodeError(id, error, idText));
  }

  private sendCancel(request: PendingRequest): void {
    if (this.closeReason) return;
    this.log('debug', 'cancelling request', { method: request.method, id: request.id });
    this.writeFrame(encodeNotification(CANCEL_REQUEST_METHOD, { requestId: request.id }));
  }

  /** The error for a message that would overfill the outbound buffer of a peer that does not read. */
  private outboundFull(frame: string, method: string): AcpKitError | undefined {
    const full = outboundFull(
      this.peerName,
      method,
      this.channel.bufferedAmount,
      frame.length,
      this.maxOutboundBytes,
    );
    if (full) this.log('warn', 'outbound buffer full, refusing a message', { ...full.details });
    return full;
  }

  private waitForDrain(): Promise<void> {
    this.drainWait ??= this.channel.drain().then(
      () => {
        this.drainWait = undefined;
        if (this.closeReason) throw this.closeReason;
      },
      (error: unknown) => {
        this.drainWait = undefined;
        throw this.closeReason ?? error;
      },
    );
    return this.drainWait;
  }

  // ---- read pacing ----

  /** After a chunk was read: rests reading while the peer streams notifications (see read-pacing.ts). */
  private pace(pacer: ReadPacer, bytes: number): void {
    if (!pacer.afterRead(!this.readHadOther, bytes, Date.now()) || this.restTimer !== undefined) return;
    if (!this.queue.isPaused) this.channel.pause();
    this.restTimer = setTimeout(() => {
      this.restTimer = undefined;
      if (this.closeReason !== undefined || this.queue.isPaused) return;
      pacer.resumed(Date.now());
      this.channel.resume();
    }, pacer.restMs);
  }

  // ---- closing ----

  /** Ends the connection once: settles requests, aborts handlers, resolves `closed`. */
  private terminate(reason: AcpKitError, local: boolean): void {
    if (this.closeReason) return;
    this.closeReason = reason;
    if (this.restTimer !== undefined) {
      // What is left in the pipe still reaches the channel's end (and the responses kept below).
      clearTimeout(this.restTimer);
      this.restTimer = undefined;
      if (!this.queue.isPaused) this.channel.resume();
    }
    let keep: Set<unknown> | undefined;
    if (local) {
      this.queue.clear();
    } else {
      // Responses that already arrived still settle their requests, in queue order.
      keep = new Set();
      for (const item of this.queue.pendingItems()) {
        if (!(item instanceof InboundRequest) && item.method === undefined) keep.add(item.id);
      }
    }
    this.pending.rejectAll(reason, keep);
    for (const request of this.inFlight.values()) request.abort(reason);
    this.inFlight.clear();
    // Kept responses must not wait behind handlers that may never end.
    this.requestSlots.releaseAll();
    this.log(local ? 'debug' : 'info', 'connection closed', { code: reason.code });
    this.resolveClosed(reason);
    this.channel.close();
  }

  private log(level: LogLevel, message: string, fields?: Record<string, unknown>): void {
    if (this.logger) this.logger.log(level, message, fields);
  }
}

/** Resolves a request with its parsed result, or rejects it with what the parse threw. */
function settleParsed(entry: PendingRequest, parse: (result: unknown) => unknown, result: unknown): void {
  let value: unknown;
  try {
    value = parse(result);
  } catch (error) {
    entry.reject(error as Error);
    return;
  }
  entry.resolve(value);
}
