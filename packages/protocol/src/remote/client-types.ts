/** Options, events and shared pieces of the remote client transport. Runtime-neutral. */
import { AcpKitError, type CloseDetails } from '../jsonrpc/errors.js';
import type { Logger } from '../jsonrpc/types.js';
import type { ByteChannel } from '../transport/types.js';
import type { CookieJar } from './cookies.js';
import { AGENT_EXIT_NOTIFICATION, type RemoteProfile } from './wire.js';

/** A WebSocket as the client transport needs it (`ws` in Node; see `wsConnector`). */
export interface WebSocketLike {
  /** Sends a text frame; `done` is called once it was handed to the OS (or failed). */
  send(text: string, done: (error?: Error) => void): void;
  close(code?: number, reason?: string): void;
  /** Drops the connection at once. */
  terminate(): void;
  /** Stops (and restarts) reading from the socket: flow control. */
  pause(): void;
  resume(): void;
}

/** What a connector reports about its socket. */
export interface WebSocketHandlers {
  message(text: string): void;
  close(code: number, reason: string): void;
  /** Any sign of life from the server (a frame, a ping). */
  activity(): void;
}

/**
 * Opens a WebSocket with request headers and resolves with it and the 101 answer's headers (names
 * in lower case). Rejects with {@link RemoteHttpError} when the server answers without upgrading.
 */
export type WebSocketConnector = (
  url: string,
  headers: Record<string, string>,
  handlers: WebSocketHandlers,
  options: { maxPayload: number },
) => Promise<{ socket: WebSocketLike; headers: Record<string, string | string[] | undefined> }>;

/** A server answered with an HTTP status where the transport expected something else. */
export class RemoteHttpError extends Error {
  override readonly name = 'RemoteHttpError';
  constructor(
    readonly status: number,
    message: string,
    /** The answer's `Retry-After` (a 503's "try again in"). */
    readonly retryAfter?: string,
  ) {
    super(message);
  }
}

export interface RemoteClientOptions {
  /** `auto` (default): WebSocket, and Streamable HTTP when the server refuses the upgrade. */
  profile?: 'auto' | RemoteProfile;
  /** Sent as `Authorization: Bearer …` (never logged). */
  token?: string;
  /** More request headers. */
  headers?: Record<string, string>;
  /** Fetch implementation (default `globalThis.fetch`). */
  fetch?: typeof globalThis.fetch;
  /** How WebSockets are opened; `@acp-kit/protocol/remote/node` supplies one built on `ws`. */
  webSocket?: WebSocketConnector;
  /** Largest inbound message (default: the engine's 64 MiB). */
  maxMessageBytes?: number;
  /** Reconnect and resume after a cut, when the server can (default true). */
  resume?: boolean;
  /** How long to keep trying to resume (default 60 s). */
  resumeTimeoutMs?: number;
  /** A server silent this long is taken as gone and the connection resumed (default 40 s; it pings every 15 s). */
  idleTimeoutMs?: number;
  /**
   * A full server (503) is asked again after its `Retry-After` (at most 30 s), this many times
   * (default 3; 0: never), each announced by a `busy` event.
   */
  busyRetries?: number;
  /**
   * Stops the connecting: a wait for a full server's `Retry-After` ends at once, and the connection
   * attempt fails (closing the channel does the same once there is one).
   */
  signal?: AbortSignal;
  /** Told about connecting, cuts, reconnect attempts and resumptions (for status displays). */
  onEvent?: (event: RemoteEvent) => void;
  logger?: Logger;
}

/** What happens to a remote connection, for status displays. */
export type RemoteEvent =
  | { type: 'connected'; profile: RemoteProfile; url: string; resumable: boolean }
  | { type: 'disconnected'; profile: RemoteProfile; reason: string }
  | { type: 'reconnecting'; profile: RemoteProfile; attempt: number }
  | { type: 'resumed'; profile: RemoteProfile; downtimeMs: number; attempts: number }
  /** The server is full: trying again in `retryInMs` (attempt `attempt` of `attempts`). */
  | { type: 'busy'; profile: RemoteProfile; retryInMs: number; attempt: number; attempts: number }
  | { type: 'failed'; profile: RemoteProfile; reason: string };

/** A connection to a remote agent, as a channel the engine runs on. */
export interface RemoteChannel extends ByteChannel {
  readonly profile: RemoteProfile;
  readonly url: string;
  /** The server's `Acp-Connection-Id` (known once connected; after `initialize` over HTTP). */
  readonly connectionId: string | undefined;
}

export const DEFAULTS = {
  resumeTimeoutMs: 60_000,
  idleTimeoutMs: 40_000,
  /** Outbound text queued before `write()` asks the caller to wait. */
  highWater: 1024 * 1024,
} as const;

/** Request headers common to every request: auth, cookies, the caller's own. */
export function baseHeaders(options: RemoteClientOptions, cookies: CookieJar): Record<string, string> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  const cookie = cookies.header();
  if (cookie) headers.Cookie = cookie;
  return headers;
}

/** Backoff between resume attempts: 100 ms doubling up to 2 s. */
export function backoffMs(attempt: number): number {
  return Math.min(2000, 100 * 2 ** Math.max(0, attempt - 1));
}

/** Waits `ms` (the reconnect backoff; never used to synchronise with a peer). */
export function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

const EXIT_PREFIX = `{"jsonrpc":"2.0","method":"${AGENT_EXIT_NOTIFICATION}"`;

/** The exit details when `line` is the server's agent-exit notice (`acp serve` writes it so). */
export function exitNotice(line: string): CloseDetails | undefined {
  if (!line.startsWith(EXIT_PREFIX)) return undefined;
  try {
    const params = (JSON.parse(line) as { params?: Record<string, unknown> }).params ?? {};
    const details: CloseDetails = {};
    if (typeof params.exitCode === 'number' || params.exitCode === null) details.exitCode = params.exitCode;
    if (typeof params.signal === 'string' || params.signal === null) details.signal = params.signal;
    if (typeof params.stderrTail === 'string') details.stderrTail = params.stderrTail;
    if (typeof params.message === 'string')
      details.cause = new AcpKitError('CONNECTION_CLOSED', params.message);
    return details;
  } catch {
    return undefined;
  }
}

/** The error for a refused request, in words a user can act on. */
export function refusedError(status: number, url: string, text = ''): AcpKitError {
  const why =
    status === 401
      ? 'the token was missing or wrong (set the token for this agent)'
      : status === 403
        ? 'forbidden (Origin or Host not allowed)'
        : status === 503
          ? 'the server is full (too many connections)'
          : status === 404
            ? 'no ACP endpoint there'
            : `HTTP ${status}`;
  const detail = text.trim() ? `: ${text.trim().slice(0, 200)}` : '';
  return new AcpKitError('REMOTE_REFUSED', `${redactUrl(url)} refused the connection: ${why}${detail}`, {
    status,
  });
}

/** The URL without credentials or query (for messages and logs). */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    parsed.search = '';
    return parsed.toString();
  } catch {
    return '(invalid URL)';
  }
}

/** Splits written text into lines; a line split across writes is completed by the next one. */
export class LineSplitter {
  private partial = '';

  /** The complete lines in `text` (without their `\n`). */
  push(text: string): string[] {
    const lines = (this.partial + text).split('\n');
    this.partial = lines.pop() ?? '';
    return lines.filter((line) => line.length > 0);
  }
}
