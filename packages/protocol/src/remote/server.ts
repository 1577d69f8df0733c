/**
 * The server side of ACP's remote transport, runtime-neutral: it keeps the connections, starts one
 * agent per connection and enforces the limits. `@acp-kit/protocol/remote/node` serves it over
 * HTTP and WebSocket (`listenRemote`).
 */
import { DEFAULT_MAX_MESSAGE_BYTES } from '../jsonrpc/framing.js';
import type { Logger } from '../jsonrpc/types.js';
import { DEFAULT_REPLAY_LIMITS } from './out-stream.js';
import {
  RemoteConnection,
  type Refusal,
  type RemoteAgent,
  type RemoteServerLimits,
} from './server-connection.js';
import type { RemoteProfile } from './wire.js';

export const DEFAULT_REMOTE_LIMITS: Readonly<RemoteServerLimits> = Object.freeze({
  maxConnections: 16,
  maxSessionsPerConnection: 32,
  maxMessageBytes: DEFAULT_MAX_MESSAGE_BYTES,
  maxQueuedBytes: 8 * 1024 * 1024,
  replay: DEFAULT_REPLAY_LIMITS,
  resumeGraceMs: 30_000,
  initializeTimeoutMs: 30_000,
  handshakeTimeoutMs: 10_000,
  maxHandshakes: 64,
  retryAfterSeconds: 5,
  heartbeatMs: 15_000,
});

/** What a remote server is told about a connection it starts an agent for. */
export interface RemoteConnectionInfo {
  connectionId: string;
  profile: RemoteProfile;
}

export interface RemoteServerOptions {
  /**
   * Starts the agent of a new connection (one per connection): for `acp serve` a child process,
   * in tests an in-process agent over `createChannelPair()`.
   */
  startAgent: (info: RemoteConnectionInfo) => RemoteAgent | Promise<RemoteAgent>;
  limits?: Partial<RemoteServerLimits>;
  /** Diagnostics (never message contents, headers or tokens). */
  logger?: Logger;
  /** Told when a connection ends (after its agent was stopped). */
  onConnectionClosed?: (connection: RemoteConnection) => void;
}

/**
 * A new WebSocket before its `initialize`: it holds a waiting place (`maxHandshakes`), not an
 * agent. `open()` starts the agent when `initialize` arrives; `release()` gives the place back
 * when the socket goes away or stays silent past `handshakeTimeoutMs`.
 */
export interface Admission {
  /** The connection's id, sent in the `101` answer before the connection exists. */
  readonly id: string;
  /** Starts the agent: the connection, or a refusal (503 when every agent place is taken). */
  open(): Promise<RemoteConnection | Refusal>;
  /** Gives the waiting place back (nothing to do once opened). Idempotent. */
  release(): void;
}

/**
 * The connections of one remote endpoint.
 *
 * @example
 * const server = new RemoteServer({ startAgent: () => ({ channel: spawnPeer('my-agent').channel }) });
 * const listener = await listenRemote(server, { port: 8765 });
 */
export class RemoteServer {
  readonly limits: RemoteServerLimits;
  readonly logger: Logger | undefined;
  private readonly connections = new Map<string, RemoteConnection>();
  private starting = 0;
  /** WebSockets admitted and not yet initialized. */
  private waiting = 0;
  private stopped = false;

  constructor(private readonly options: RemoteServerOptions) {
    this.limits = { ...DEFAULT_REMOTE_LIMITS, ...options.limits };
    this.logger = options.logger;
  }

  /** Connections open now. */
  get size(): number {
    return this.connections.size;
  }

  /** The open connections. */
  list(): RemoteConnection[] {
    return [...this.connections.values()];
  }

  /** The open connection with this id. */
  get(id: string | null | undefined): RemoteConnection | undefined {
    return id ? this.connections.get(id) : undefined;
  }

  /** WebSockets waiting for their `initialize` now (they have no agent yet). */
  get handshakes(): number {
    return this.waiting;
  }

  /**
   * Takes a new WebSocket, which starts its agent only at `initialize` (see {@link Admission});
   * refused with 503 when every agent place, or every waiting place, is taken.
   */
  admit(): Admission | Refusal {
    const full = this.fullness();
    if (full) return full;
    if (this.waiting >= this.limits.maxHandshakes)
      return { status: 503, message: 'Too many connections waiting to initialize' };
    this.waiting++;
    let waiting = true;
    const leave = (): boolean => {
      if (!waiting) return false;
      waiting = false;
      this.waiting--;
      return true;
    };
    const id = globalThis.crypto.randomUUID();
    return {
      id,
      open: () =>
        leave()
          ? this.open('websocket', id)
          : Promise.resolve({ status: 409, message: 'This connection was already opened or given up' }),
      release: () => void leave(),
    };
  }

  /** Starts a connection and its agent; refused with 503 past `maxConnections`. */
  async open(
    profile: RemoteProfile,
    id = globalThis.crypto.randomUUID(),
  ): Promise<RemoteConnection | Refusal> {
    const full = this.fullness();
    if (full) return full;
    this.starting++;
    let agent: RemoteAgent;
    try {
      agent = await this.options.startAgent({ connectionId: id, profile });
    } catch (error) {
      this.logger?.log('warn', 'could not start the agent of a remote connection', {
        error: error instanceof Error ? error.message : String(error),
      });
      return { status: 502, message: 'The agent could not be started' };
    } finally {
      this.starting--;
    }
    const connection = new RemoteConnection(id, profile, agent, this.limits, {
      logger: this.logger,
      onClosed: (closed) => {
        if (this.connections.get(closed.id) === closed) this.connections.delete(closed.id);
        void closed.closed.then(() => this.options.onConnectionClosed?.(closed));
      },
    });
    this.connections.set(id, connection);
    if (this.stopped) connection.close('the server is shutting down');
    return connection;
  }

  /** The refusal when no agent can start now. */
  private fullness(): Refusal | undefined {
    if (this.stopped) return { status: 503, message: 'The server is shutting down' };
    if (this.connections.size + this.starting >= this.limits.maxConnections)
      return { status: 503, message: `Too many connections (at most ${this.limits.maxConnections})` };
    return undefined;
  }

  /** Closes every connection (their agents are stopped) and refuses new ones. */
  async close(): Promise<void> {
    this.stopped = true;
    const all = [...this.connections.values()];
    for (const connection of all) connection.close('the server is shutting down');
    await Promise.all(all.map((connection) => connection.closed));
  }
}

/** Whether `open()` gave a connection. */
export function isRefusal(value: unknown): value is Refusal {
  return typeof value === 'object' && value !== null && 'status' in value && 'message' in value;
}
