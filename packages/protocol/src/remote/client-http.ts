/**
 * The Streamable HTTP profile of the remote client (RFD): `initialize` is POSTed first and
 * answered in the response (200, `Acp-Connection-Id`); every later message is POSTed one at a time
 * in order (202); the server's messages arrive on long-lived SSE GET streams, one for the
 * connection and one per session (`Acp-Session-Id`), opened as sessions appear; DELETE ends it.
 *
 * Resumption (when the server answered `Acp-Resumable: 1`): a stream that breaks is requested
 * again with `Last-Event-ID` and the server replays what followed; a POST that fails in flight is
 * sent again with the same `Acp-Message-Seq`, which the server takes once. Runtime-neutral
 * (`fetch` and web streams).
 */
import { AcpKitError, type CloseDetails } from '../jsonrpc/errors.js';
import { DEFAULT_MAX_MESSAGE_BYTES } from '../jsonrpc/framing.js';
import type { ByteSink } from '../transport/types.js';
import {
  DEFAULTS,
  LineSplitter,
  backoffMs,
  baseHeaders,
  delay,
  exitNotice,
  redactUrl,
  refusedError,
  type RemoteChannel,
  type RemoteClientOptions,
} from './client-types.js';
import { BusyRetry } from './busy-retry.js';
import { CookieJar } from './cookies.js';
import { Inbox } from './inbox.js';
import { SseParser } from './sse.js';
import {
  EVENT_STREAM_MEDIA_TYPE,
  HEADER_CONNECTION_ID,
  HEADER_LAST_EVENT_ID,
  HEADER_MESSAGE_SEQ,
  HEADER_RESUMABLE,
  HEADER_SESSION_ID,
  JSON_MEDIA_TYPE,
  idKey,
  isRequest,
  isResponse,
  parseMessage,
  sessionIdIn,
} from './wire.js';

/** Streamable HTTP to `url` (nothing is sent until the engine writes `initialize`). */
export function httpChannel(url: string, options: RemoteClientOptions): RemoteChannel {
  return new HttpChannel(url, options);
}

interface Outgoing {
  line: string;
  seq: number;
}

class HttpChannel implements RemoteChannel {
  readonly profile = 'http' as const;
  connectionId: string | undefined;
  private readonly fetch: typeof globalThis.fetch;
  private readonly cookies = new CookieJar();
  private readonly splitter = new LineSplitter();
  private readonly maxMessageBytes: number;
  /** Requests in flight (and stream bodies being read): aborted when the channel finishes. */
  private readonly inflight = new Set<AbortController>();
  private readonly stop = new AbortController();
  private readonly queue: Outgoing[] = [];
  private queuedChars = 0;
  private nextSeq = 1;
  private wroteFirst = false;
  private posting = false;
  private resumable = false;
  /** Events received, for the sink; stream bodies are not read while it holds enough. */
  private readonly inbox = new Inbox({ stop: () => undefined, go: () => this.releaseResumeWaiters() });
  private resumeWaiters: (() => void)[] = [];
  private drainWaiters: (() => void)[] = [];
  /** Open SSE streams: '' is the connection's, the others are sessions'. */
  private readonly streams = new Map<string, Promise<void>>();
  /** Server request id → the session stream it came on (its answer carries that session). */
  private readonly inboundRoutes = new Map<string, string>();
  private exitDetails: CloseDetails | undefined;
  private ended = false;
  private cut: { since: number; attempts: number } | undefined;

  constructor(
    readonly url: string,
    private readonly options: RemoteClientOptions,
  ) {
    const fetchImpl = options.fetch ?? globalThis.fetch;
    if (typeof fetchImpl !== 'function')
      throw new AcpKitError('INVALID_ARGUMENT', 'Streamable HTTP needs fetch');
    this.fetch = fetchImpl;
    this.maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  }

  get bufferedAmount(): number {
    return this.queuedChars;
  }

  start(sink: ByteSink): void {
    this.inbox.start(sink);
  }

  write(text: string): boolean {
    if (this.ended) return true;
    for (const line of this.splitter.push(text)) {
      // Messages after initialize are numbered, so a retried POST is taken once.
      const seq = this.wroteFirst ? this.nextSeq++ : 0;
      this.wroteFirst = true;
      this.queue.push({ line, seq });
      this.queuedChars += line.length;
    }
    if (!this.posting) void this.postLoop();
    return this.queuedChars < DEFAULTS.highWater;
  }

  drain(): Promise<void> {
    if (this.ended || this.queuedChars < DEFAULTS.highWater) return Promise.resolve();
    return new Promise((resolve) => this.drainWaiters.push(resolve));
  }

  pause(): void {
    this.inbox.pause();
  }

  resume(): void {
    this.inbox.resume();
  }

  private releaseResumeWaiters(): void {
    const waiters = this.resumeWaiters;
    this.resumeWaiters = [];
    for (const resolve of waiters) resolve();
  }

  close(): void {
    if (this.ended) return;
    const id = this.connectionId;
    this.finish(undefined);
    if (id !== undefined) {
      // RFD: DELETE ends the connection (the server then stops the agent).
      void this.fetch(this.url, {
        method: 'DELETE',
        headers: { ...this.headers(), [HEADER_CONNECTION_ID]: id },
      })
        .then((response) => response.body?.cancel())
        .catch(() => undefined);
    }
  }

  // ------------------------------------------------------------------ POST

  private headers(): Record<string, string> {
    return baseHeaders(this.options, this.cookies);
  }

  /**
   * One request with its own AbortController (kept until its body was read, and aborted when the
   * channel finishes): one long-lived signal shared by every fetch would collect a listener per
   * request in undici.
   */
  private async request(init: RequestInit): Promise<Response> {
    const controller = new AbortController();
    if (this.ended) controller.abort();
    this.inflight.add(controller);
    try {
      const response = await this.fetch(this.url, { ...init, signal: controller.signal });
      // The body is read by the caller; forget the controller once it is done.
      const body = response.body;
      if (!body || [101, 204, 205, 304].includes(response.status)) this.inflight.delete(controller);
      else
        return new Response(
          body.pipeThrough(
            new TransformStream<Uint8Array, Uint8Array>({
              flush: () => void this.inflight.delete(controller),
            }),
          ),
          { status: response.status, statusText: response.statusText, headers: response.headers },
        );
      return response;
    } catch (error) {
      this.inflight.delete(controller);
      throw error;
    }
  }

  private store(response: Response): void {
    const cookies = response.headers.getSetCookie?.() ?? [];
    if (cookies.length > 0) this.cookies.store(cookies);
  }

  private async postLoop(): Promise<void> {
    this.posting = true;
    try {
      while (!this.ended && this.queue.length > 0) {
        const next = this.queue[0] as Outgoing;
        const ok =
          this.connectionId === undefined ? await this.postInitialize(next.line) : await this.post(next);
        if (!ok) return;
        this.queue.shift();
        this.queuedChars -= next.line.length;
        if (this.queuedChars < DEFAULTS.highWater / 2) this.releaseDrainWaiters();
      }
    } finally {
      this.posting = false;
    }
  }

  private async postInitialize(line: string): Promise<boolean> {
    const message = parseMessage(line);
    if (message?.method !== 'initialize') {
      this.finish({
        cause: new AcpKitError(
          'INVALID_ARGUMENT',
          'the first message over Streamable HTTP must be initialize',
        ),
      });
      return false;
    }
    const busy = new BusyRetry(this.url, this.options, 'http', this.stop.signal);
    let response: Response;
    let text: string | undefined;
    for (;;) {
      try {
        response = await this.request({
          method: 'POST',
          headers: { ...this.headers(), 'Content-Type': JSON_MEDIA_TYPE, Accept: JSON_MEDIA_TYPE },
          body: line,
        });
      } catch (error) {
        this.finish({ cause: connectFailed(this.url, error) });
        return false;
      }
      this.store(response);
      text = await readText(response, this.maxMessageBytes).catch(() => undefined);
      // Full: asked again after its Retry-After, a few times.
      if (response.status !== 503) break;
      if (!(await busy.wait(response.headers.get('retry-after')))) {
        this.finish({ cause: busy.error(text ?? '') });
        return false;
      }
      if (this.ended) return false;
    }
    const id = response.headers.get(HEADER_CONNECTION_ID);
    if (response.status !== 200 || !id || text === undefined) {
      this.finish({
        cause:
          response.status === 200
            ? badAnswer('initialize answer without Acp-Connection-Id')
            : refusedError(response.status, this.url, text),
      });
      return false;
    }
    this.connectionId = id;
    this.resumable = response.headers.get(HEADER_RESUMABLE) === '1';
    this.options.onEvent?.({ type: 'connected', profile: 'http', url: this.url, resumable: this.resumable });
    this.inbox.push(text);
    this.openStream('');
    return true;
  }

  private async post(outgoing: Outgoing): Promise<boolean> {
    const message = parseMessage(outgoing.line);
    let session: string | undefined;
    if (message) {
      if (isResponse(message)) {
        const key = idKey(message.id);
        session = key === undefined ? undefined : this.inboundRoutes.get(key);
        if (key !== undefined) this.inboundRoutes.delete(key);
      } else if (message.method !== 'session/new') {
        session = sessionIdIn(message.params);
      }
    }
    // The session's stream is open before its first message, so its answer has somewhere to go.
    if (session !== undefined) await this.openStream(session);
    const headers: Record<string, string> = {
      ...this.headers(),
      'Content-Type': JSON_MEDIA_TYPE,
      [HEADER_CONNECTION_ID]: this.connectionId as string,
    };
    if (session !== undefined) headers[HEADER_SESSION_ID] = session;
    if (this.resumable) headers[HEADER_MESSAGE_SEQ] = String(outgoing.seq);
    for (let attempt = 1; !this.ended; attempt++) {
      let response: Response;
      try {
        response = await this.request({ method: 'POST', headers, body: outgoing.line });
      } catch (error) {
        // The POST may or may not have arrived: a resumable server takes a retry once.
        if (!this.resumable || this.options.resume === false) {
          this.finish({ cause: connectFailed(this.url, error) });
          return false;
        }
        if (!(await this.backoff(attempt))) return false;
        continue;
      }
      this.store(response);
      const text = await readText(response, 8 * 1024).catch(() => '');
      if (response.status === 202 || response.status === 200) {
        this.resumed();
        return true;
      }
      if ([502, 503, 504].includes(response.status) && this.resumable && (await this.backoff(attempt)))
        continue;
      if (
        response.status === 401 ||
        response.status === 403 ||
        response.status === 404 ||
        response.status === 410
      ) {
        this.finish(
          this.exitDetails ?? {
            cause: response.status === 404 ? gone() : refusedError(response.status, this.url, text),
          },
        );
        return false;
      }
      // Only this message failed: a request gets an error answer, other messages are dropped.
      if (message && isRequest(message))
        this.inbox.push(
          JSON.stringify({
            jsonrpc: '2.0',
            id: message.id,
            error: {
              code: -32603,
              message: `the server refused the message: HTTP ${response.status}`,
              data: { status: response.status, body: text.slice(0, 512) },
            },
          }),
        );
      this.options.logger?.log('warn', 'remote server refused a message', { status: response.status });
      return true;
    }
    return false;
  }

  // ------------------------------------------------------------------ SSE

  /** Opens a stream once; resolves when its GET was answered (or failed). */
  private openStream(session: string): Promise<void> {
    const existing = this.streams.get(session);
    if (existing) return existing;
    let ready!: () => void;
    const opened = new Promise<void>((resolve) => (ready = resolve));
    this.streams.set(session, opened);
    void this.runStream(session, ready);
    return opened;
  }

  private async runStream(session: string, ready: () => void): Promise<void> {
    let lastEventId: string | undefined;
    let resuming = false;
    try {
      for (let attempt = 0; !this.ended;) {
        const headers: Record<string, string> = {
          ...this.headers(),
          Accept: EVENT_STREAM_MEDIA_TYPE,
          [HEADER_CONNECTION_ID]: this.connectionId as string,
        };
        if (session !== '') headers[HEADER_SESSION_ID] = session;
        // Resuming: the server replays what followed the last event we saw (0: from the start).
        if (resuming) headers[HEADER_LAST_EVENT_ID] = lastEventId ?? '0';
        let response: Response | undefined;
        try {
          response = await this.request({ method: 'GET', headers });
          this.store(response);
        } catch {
          response = undefined;
        }
        if (response?.status === 200 && response.body) {
          ready();
          if (resuming) this.resumed();
          attempt = 0;
          const result = await this.readStream(response.body, session, (id) => (lastEventId = id));
          if (result === 'fatal' || this.ended) return;
        } else if (response) {
          const text = await readText(response, 8 * 1024).catch(() => '');
          // 204: the stream is over (the agent exited and everything was delivered).
          if (response.status === 204 || (this.exitDetails && response.status === 404))
            return this.streamOver(session);
          if (!(response.status === 503 && resuming)) {
            this.finish({
              cause:
                response.status === 410
                  ? new AcpKitError(
                      'RESUME_FAILED',
                      `${redactUrl(this.url)}: updates sent while disconnected are no longer kept by the server; some were lost`,
                      { reason: 'gap' },
                    )
                  : response.status === 404
                    ? gone()
                    : refusedError(response.status, this.url, text),
            });
            return;
          }
        }
        // The stream broke, or the server could not be reached: resume when the server can.
        if (!this.resumable || this.options.resume === false) {
          this.finish(
            this.exitDetails ?? {
              cause: new AcpKitError(
                'CONNECTION_CLOSED',
                `the event stream from ${redactUrl(this.url)} was lost`,
              ),
            },
          );
          return;
        }
        resuming = true;
        attempt++;
        if (!(await this.backoff(attempt))) return;
      }
    } finally {
      ready();
    }
  }

  /** Reads events until the body ends or fails; 'fatal' when the connection was finished. */
  private async readStream(
    body: ReadableStream<Uint8Array>,
    session: string,
    onId: (id: string) => void,
  ): Promise<'broken' | 'fatal'> {
    const reader = body.getReader();
    const parser = new SseParser(
      (event) => {
        if (event.id !== undefined) onId(event.id);
        this.fromServer(event.data, session);
      },
      { maxEventBytes: this.maxMessageBytes },
    );
    try {
      for (;;) {
        while (!this.inbox.wantsMore && !this.ended)
          await new Promise<void>((resolve) => this.resumeWaiters.push(resolve));
        if (this.ended) return 'fatal';
        const { value, done } = await reader.read();
        if (done) return 'broken';
        parser.feed(value);
      }
    } catch (error) {
      if (error instanceof AcpKitError && error.code === 'MESSAGE_TOO_LARGE') {
        this.finish({ cause: error });
        return 'fatal';
      }
      return 'broken';
    } finally {
      reader.cancel().catch(() => undefined);
    }
  }

  private fromServer(text: string, session: string): void {
    const exit = exitNotice(text);
    if (exit) this.exitDetails = exit;
    // Only messages that can carry routing information are parsed here.
    if (session === '' || text.includes('"id"')) {
      const message = parseMessage(text);
      if (message) {
        if (session !== '' && isRequest(message)) {
          const key = idKey(message.id);
          if (key !== undefined) this.inboundRoutes.set(key, session);
        } else if (session === '' && isResponse(message)) {
          // A new session (session/new's answer): open its stream.
          const created = sessionIdIn(message.result);
          if (created !== undefined) void this.openStream(created);
        }
      }
    }
    this.inbox.push(text);
  }

  private streamOver(session: string): void {
    if (session === '')
      this.finish(
        this.exitDetails ?? {
          cause: new AcpKitError('CONNECTION_CLOSED', 'the server ended the connection'),
        },
      );
  }

  // ------------------------------------------------------------------ delivery

  private async backoff(attempt: number): Promise<boolean> {
    if (!this.cut) {
      this.cut = { since: Date.now(), attempts: 0 };
      this.options.onEvent?.({ type: 'disconnected', profile: 'http', reason: 'connection lost' });
    }
    this.cut.attempts++;
    if (Date.now() - this.cut.since > (this.options.resumeTimeoutMs ?? DEFAULTS.resumeTimeoutMs)) {
      this.finish({
        cause: new AcpKitError('RESUME_FAILED', `could not reconnect to ${redactUrl(this.url)} in time`, {
          reason: 'timeout',
        }),
      });
      return false;
    }
    this.options.onEvent?.({ type: 'reconnecting', profile: 'http', attempt: this.cut.attempts });
    // The first retry goes at once (a proxy that cut one connection takes the next); then backoff.
    if (attempt > 1) await delay(backoffMs(attempt - 1), this.stop.signal);
    return !this.ended;
  }

  private resumed(): void {
    const cut = this.cut;
    if (!cut) return;
    this.cut = undefined;
    this.options.onEvent?.({
      type: 'resumed',
      profile: 'http',
      downtimeMs: Date.now() - cut.since,
      attempts: cut.attempts,
    });
  }

  private finish(details: CloseDetails | undefined): void {
    if (this.ended) return;
    this.ended = true;
    this.stop.abort();
    for (const controller of this.inflight) controller.abort();
    this.inflight.clear();
    this.releaseDrainWaiters();
    this.releaseResumeWaiters();
    if (details?.cause instanceof AcpKitError)
      this.options.onEvent?.({ type: 'failed', profile: 'http', reason: details.cause.message });
    this.inbox.end(details);
  }

  private releaseDrainWaiters(): void {
    const waiters = this.drainWaiters;
    this.drainWaiters = [];
    for (const resolve of waiters) resolve();
  }
}

/** A response body as text, failing past `limit` characters. */
async function readText(response: Response, limit: number): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return text + decoder.decode();
    text += decoder.decode(value, { stream: true });
    if (text.length > limit) {
      await reader.cancel().catch(() => undefined);
      throw new AcpKitError('MESSAGE_TOO_LARGE', `answer over ${limit} characters`);
    }
  }
}

function connectFailed(url: string, error: unknown): AcpKitError {
  const cause =
    error instanceof Error && error.cause instanceof Error
      ? error.cause.message
      : error instanceof Error
        ? error.message
        : String(error);
  return new AcpKitError('CONNECTION_CLOSED', `cannot reach ${redactUrl(url)}: ${cause}`, {}, error);
}

function gone(): AcpKitError {
  return new AcpKitError(
    'RESUME_FAILED',
    'the server no longer has this connection (it waited too long, or restarted)',
    { reason: 'gone' },
  );
}

function badAnswer(message: string): AcpKitError {
  return new AcpKitError('CONNECTION_CLOSED', message);
}
