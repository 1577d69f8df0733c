/**
 * The WebSocket profile of the remote client: one text frame per message each way. When the socket
 * drops (no close frame, or the server went silent) and the server advertised `Acp-Resumable`, it
 * reconnects with `Acp-Connection-Id` and `Last-Event-ID` (the number of frames received); the
 * server replays what followed and says in `Acp-Message-Seq` how many of ours it got, and we
 * re-send the rest. Both directions keep a bounded buffer of what they sent. Runtime-neutral.
 */
import { AcpKitError, type CloseDetails } from '../jsonrpc/errors.js';
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
  RemoteHttpError,
  type RemoteChannel,
  type RemoteClientOptions,
  type WebSocketConnector,
  type WebSocketHandlers,
  type WebSocketLike,
} from './client-types.js';
import { BusyRetry } from './busy-retry.js';
import { CookieJar } from './cookies.js';
import { Inbox } from './inbox.js';
import { DEFAULT_REPLAY_LIMITS, OutStream, type StreamReceiver } from './out-stream.js';
import { HEADER_CONNECTION_ID, HEADER_LAST_EVENT_ID, HEADER_MESSAGE_SEQ, HEADER_RESUMABLE } from './wire.js';
import { DEFAULT_MAX_MESSAGE_BYTES } from '../jsonrpc/framing.js';

/** The server's close code for "the events you need are no longer kept". */
const CLOSE_EVENTS_LOST = 4410;
/** "Try Again Later": no agent place was free when our `initialize` arrived. */
const CLOSE_TRY_AGAIN_LATER = 1013;
const CLOSE_TOO_LARGE = 1009;
const ABNORMAL = 1006;
const SOCKET_HIGH_WATER = 256 * 1024;

/** The WebSocket URL of an `http(s)://` endpoint. */
export function webSocketUrl(url: string): string {
  return url.replace(/^http(s?):/i, 'ws$1:');
}

function headerValue(
  headers: Record<string, string | string[] | undefined>,
  name: string,
): string | undefined {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

function setCookies(headers: Record<string, string | string[] | undefined>): string[] {
  const value = headers['set-cookie'];
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

/**
 * Opens the socket; rejects with {@link RemoteHttpError} when the server refuses the upgrade
 * (the caller may then fall back to Streamable HTTP).
 */
export async function openWebSocketChannel(
  url: string,
  options: RemoteClientOptions,
  connector: WebSocketConnector,
): Promise<RemoteChannel> {
  const channel = new WebSocketChannel(url, options, connector);
  await channel.open();
  return channel;
}

class WebSocketChannel implements RemoteChannel {
  readonly profile = 'websocket' as const;
  connectionId: string | undefined;
  private readonly cookies = new CookieJar();
  private readonly splitter = new LineSplitter();
  private readonly maxMessageBytes: number;
  /** Our messages: numbered, the sent ones kept (bounded) until the server confirms them on a resume. */
  private readonly outbound: OutStream;
  private outboundQueued = 0;
  private socket: WebSocketLike | undefined;
  private receiver: StreamReceiver | undefined;
  private unflushed = 0;
  /** Frames received, for the sink (held before start() and while paused; the socket is paused once it holds enough). */
  private readonly inbox = new Inbox({
    stop: () => this.socket?.pause(),
    go: () => this.socket?.resume(),
  });
  private received = 0;
  private resumable = false;
  private state: 'open' | 'resuming' | 'ended' = 'open';
  private exitDetails: CloseDetails | undefined;
  private readonly stop = new AbortController();
  private drainWaiters: (() => void)[] = [];
  private idleTimer: ReturnType<typeof setTimeout> | undefined;
  /** Each socket gets its own handlers; those of a replaced socket are ignored. */
  private generation = 0;

  constructor(
    readonly url: string,
    private readonly options: RemoteClientOptions,
    private readonly connector: WebSocketConnector,
  ) {
    this.maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    this.outbound = new OutStream(DEFAULT_REPLAY_LIMITS, (delta) => {
      this.outboundQueued += delta;
      this.releaseDrainWaiters();
    });
  }

  get bufferedAmount(): number {
    return this.outboundQueued + this.unflushed;
  }

  async open(): Promise<void> {
    const { socket, headers } = await this.connect({});
    this.connectionId = headerValue(headers, HEADER_CONNECTION_ID);
    this.resumable = headerValue(headers, HEADER_RESUMABLE) === '1' && this.connectionId !== undefined;
    this.useSocket(socket, undefined);
    this.options.onEvent?.({
      type: 'connected',
      profile: 'websocket',
      url: this.url,
      resumable: this.resumable,
    });
  }

  start(sink: ByteSink): void {
    this.inbox.start(sink);
  }

  write(text: string): boolean {
    if (this.state === 'ended') return true;
    for (const line of this.splitter.push(text)) this.outbound.push(line);
    return this.bufferedAmount < DEFAULTS.highWater;
  }

  drain(): Promise<void> {
    if (this.state === 'ended' || this.bufferedAmount < DEFAULTS.highWater) return Promise.resolve();
    return new Promise((resolve) => this.drainWaiters.push(resolve));
  }

  pause(): void {
    this.inbox.pause();
  }

  resume(): void {
    this.inbox.resume();
  }

  close(): void {
    if (this.state === 'ended') return;
    const socket = this.socket;
    this.finish(undefined);
    socket?.close(1000, 'client closed');
  }

  // ------------------------------------------------------------------ sockets

  private connect(extra: Record<string, string>) {
    const generation = ++this.generation;
    const handlers: WebSocketHandlers = {
      message: (text) => generation === this.generation && this.onMessage(text),
      close: (code, reason) => generation === this.generation && this.onClose(code, reason),
      activity: () => generation === this.generation && this.touch(),
    };
    return this.connector(
      webSocketUrl(this.url),
      { ...baseHeaders(this.options, this.cookies), ...extra },
      handlers,
      {
        maxPayload: this.maxMessageBytes,
      },
    ).then((opened) => {
      this.cookies.store(setCookies(opened.headers));
      return opened;
    });
  }

  private useSocket(socket: WebSocketLike, serverReceived: number | undefined): boolean {
    this.socket = socket;
    this.unflushed = 0;
    if (!this.inbox.wantsMore) socket.pause();
    const receiver: StreamReceiver = {
      send: (_id, data) => {
        this.unflushed += data.length;
        socket.send(data, () => {
          this.unflushed -= data.length;
          if (this.receiver === receiver && this.unflushed <= SOCKET_HIGH_WATER / 2)
            this.outbound.drained(receiver);
          this.releaseDrainWaiters();
        });
        return this.unflushed < SOCKET_HIGH_WATER;
      },
      detach: () => undefined,
    };
    if (this.receiver) this.outbound.detach(this.receiver);
    this.receiver = receiver;
    const attached = this.outbound.attach(receiver, serverReceived);
    this.touch();
    return attached.ok;
  }

  private onMessage(text: string): void {
    this.touch();
    this.received++;
    const exit = exitNotice(text);
    if (exit) this.exitDetails = exit;
    this.inbox.push(text);
  }

  private onClose(code: number, reason: string): void {
    this.clearIdle();
    this.socket = undefined;
    if (this.state === 'ended') return;
    if (code === CLOSE_TOO_LARGE && reason === 'inbound message too large') {
      this.finish({
        cause: new AcpKitError(
          'MESSAGE_TOO_LARGE',
          `a message from the server was over the ${this.maxMessageBytes}-byte limit`,
          {
            limit: this.maxMessageBytes,
          },
        ),
      });
      return;
    }
    if (code === CLOSE_TRY_AGAIN_LATER && this.received === 0) {
      void this.startOver(reason);
      return;
    }
    if (code === CLOSE_EVENTS_LOST) {
      this.finish({
        cause: resumeFailed(
          'gap',
          `${redactUrl(this.url)}: the updates sent while disconnected are no longer kept by the server; some were lost`,
        ),
      });
      return;
    }
    if (code !== ABNORMAL) {
      // A close frame from the server is final: the agent exited, or the server ended the connection.
      this.finish(
        this.exitDetails ?? {
          cause: new AcpKitError(
            'CONNECTION_CLOSED',
            `the server closed the connection (${code}${reason ? `: ${reason}` : ''})`,
          ),
        },
      );
      return;
    }
    if (!this.resumable || this.options.resume === false) {
      this.finish({
        cause: new AcpKitError('CONNECTION_CLOSED', `the connection to ${redactUrl(this.url)} was lost`),
      });
      return;
    }
    void this.resumeLoop();
  }

  private async resumeLoop(): Promise<void> {
    this.state = 'resuming';
    const started = Date.now();
    const deadline = started + (this.options.resumeTimeoutMs ?? DEFAULTS.resumeTimeoutMs);
    this.options.onEvent?.({ type: 'disconnected', profile: 'websocket', reason: 'connection lost' });
    for (let attempt = 1; ; attempt++) {
      if (this.state !== 'resuming') return;
      this.options.onEvent?.({ type: 'reconnecting', profile: 'websocket', attempt });
      try {
        const { socket, headers } = await this.connect({
          [HEADER_CONNECTION_ID]: this.connectionId as string,
          [HEADER_LAST_EVENT_ID]: String(this.received),
        });
        if (this.state !== 'resuming') {
          socket.close(1000, 'client closed');
          return;
        }
        if (headerValue(headers, HEADER_CONNECTION_ID) !== this.connectionId) {
          socket.terminate();
          this.finish({
            cause: resumeFailed('not-resumable', 'the server started a new connection instead of resuming'),
          });
          return;
        }
        const serverReceived = Number(headerValue(headers, HEADER_MESSAGE_SEQ));
        this.state = 'open';
        if (!this.useSocket(socket, Number.isSafeInteger(serverReceived) ? serverReceived : undefined)) {
          socket.terminate();
          this.finish({
            cause: resumeFailed(
              'gap',
              'our messages sent while disconnected are no longer kept; the connection cannot go on',
            ),
          });
          return;
        }
        this.options.onEvent?.({
          type: 'resumed',
          profile: 'websocket',
          downtimeMs: Date.now() - started,
          attempts: attempt,
        });
        return;
      } catch (error) {
        if (error instanceof RemoteHttpError) {
          if (error.status === 410)
            return this.finish({
              cause: resumeFailed(
                'gap',
                `${redactUrl(this.url)}: the updates sent while disconnected are no longer kept by the server; some were lost`,
              ),
            });
          if (error.status === 404)
            return this.finish({
              cause: resumeFailed(
                'gone',
                'the server no longer has this connection (it waited too long, or restarted)',
              ),
            });
          if (error.status === 401 || error.status === 403)
            return this.finish({ cause: refusedError(error.status, this.url) });
        }
      }
      if (Date.now() >= deadline) {
        this.finish({
          cause: resumeFailed('timeout', `could not reconnect to ${redactUrl(this.url)} in time`),
        });
        return;
      }
      await delay(backoffMs(attempt), this.stop.signal);
    }
  }

  /**
   * The server was full when our `initialize` arrived (1013) and nothing of ours was taken: a new
   * connection once it has room, our messages sent again from the first.
   */
  private async startOver(reason: string): Promise<void> {
    this.state = 'resuming';
    const busy = new BusyRetry(this.url, this.options, 'websocket', this.stop.signal);
    let retryAfter: string | undefined;
    let text = reason;
    for (;;) {
      if (!(await busy.wait(retryAfter))) return this.finish({ cause: busy.error(text) });
      if (this.state !== 'resuming') return;
      try {
        const { socket, headers } = await this.connect({});
        if (this.state !== 'resuming') {
          socket.close(1000, 'client closed');
          return;
        }
        this.connectionId = headerValue(headers, HEADER_CONNECTION_ID);
        this.resumable = headerValue(headers, HEADER_RESUMABLE) === '1' && this.connectionId !== undefined;
        this.state = 'open';
        this.useSocket(socket, 0);
        return;
      } catch (error) {
        if (!(error instanceof RemoteHttpError && error.status === 503))
          return this.finish({
            cause:
              error instanceof RemoteHttpError
                ? refusedError(error.status, this.url, error.message)
                : new AcpKitError('CONNECTION_CLOSED', `cannot reach ${redactUrl(this.url)}`, {}, error),
          });
        retryAfter = error.retryAfter;
        text = error.message;
      }
    }
  }

  private touch(): void {
    this.clearIdle();
    if (this.state === 'ended') return;
    const ms = this.options.idleTimeoutMs ?? DEFAULTS.idleTimeoutMs;
    this.idleTimer = setTimeout(() => {
      // Silent for too long: the socket is dead even if TCP has not noticed.
      this.socket?.terminate();
    }, ms);
    (this.idleTimer as { unref?: () => void }).unref?.();
  }

  private clearIdle(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
  }

  private finish(details: CloseDetails | undefined): void {
    if (this.state === 'ended') return;
    this.state = 'ended';
    this.stop.abort();
    this.clearIdle();
    this.outbound.close();
    this.releaseDrainWaiters(true);
    if (details?.cause instanceof AcpKitError)
      this.options.onEvent?.({ type: 'failed', profile: 'websocket', reason: details.cause.message });
    this.inbox.end(details);
  }

  private releaseDrainWaiters(all = false): void {
    if (!all && this.bufferedAmount >= DEFAULTS.highWater / 2) return;
    const waiters = this.drainWaiters;
    this.drainWaiters = [];
    for (const resolve of waiters) resolve();
  }
}

function resumeFailed(reason: 'gap' | 'gone' | 'timeout' | 'not-resumable', message: string): AcpKitError {
  return new AcpKitError('RESUME_FAILED', message, { reason });
}
