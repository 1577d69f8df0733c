/**
 * One remote connection on the server: the agent behind it (any {@link ByteChannel}), the streams
 * its output goes out on, and the rules of the RFD for routing. Runtime-neutral: the Node adapter
 * (`remote/node/`) turns HTTP requests and WebSockets into calls on this class.
 *
 * - Client → agent: each message is checked (a JSON object, not a batch, under the size limit),
 *   counted against the session limit, and written to the agent as one line. While the agent does
 *   not read, the caller waits (`fromClient` resolves late), which holds the POST or pauses the
 *   WebSocket: a client cannot queue unbounded work.
 * - Agent → client: each line goes to one stream (WebSocket: the only one; HTTP: the stream of its
 *   session, else the connection-scoped one). While more than `maxQueuedBytes` wait for slow or
 *   absent readers, the agent's output is not read, so a flooding agent blocks in its own writes.
 * - A client that goes away without saying goodbye has `resumeGraceMs` to come back and resume
 *   when it has a session; one without a session has nothing to resume and is closed at once.
 *   After the grace, or on DELETE, the agent's sessions are cancelled and the agent is stopped.
 */
import { AcpKitError, ErrorCodes, type CloseDetails } from '../jsonrpc/errors.js';
import { FrameDecoder } from '../jsonrpc/framing.js';
import type { Logger } from '../jsonrpc/types.js';
import type { ByteChannel } from '../transport/types.js';
import { OutStream, type AttachResult, type ReplayLimits, type StreamReceiver } from './out-stream.js';
import {
  AGENT_EXIT_NOTIFICATION,
  AGENT_STDERR_NOTIFICATION,
  SESSION_OPENING_METHODS,
  errorLine,
  idKey,
  isRequest,
  isResponse,
  looksLikeBatch,
  parseMessage,
  sessionIdIn,
  singleLine,
  type RemoteProfile,
  type RoutedMessage,
} from './wire.js';

/** The agent behind one remote connection. */
export interface RemoteAgent {
  /** Its side of the conversation: we write the client's messages, and read the agent's. */
  channel: ByteChannel;
  /** Stops it once the connection is over (e.g. a process: stdin closed, SIGTERM, SIGKILL). */
  stop?(): Promise<unknown> | void;
}

/** Limits of a remote server; see `DEFAULT_REMOTE_LIMITS`. */
export interface RemoteServerLimits {
  /** Connections at once; more are refused with 503. */
  maxConnections: number;
  /** Sessions a connection may open (`session/new|load|resume|fork`, less `session/close`). */
  maxSessionsPerConnection: number;
  /** Largest message in either direction, in bytes (the engine's `maxMessageBytes`). */
  maxMessageBytes: number;
  /** Agent output waiting for readers before the agent's output is no longer read. */
  maxQueuedBytes: number;
  /** What each stream keeps for clients that resume. */
  replay: ReplayLimits;
  /** How long a connection with a session whose client vanished waits for it to resume. */
  resumeGraceMs: number;
  /** How long the agent has to answer `initialize`. */
  initializeTimeoutMs: number;
  /**
   * How long a new client has to finish its handshake: a WebSocket to send `initialize` (its
   * agent starts only then), an HTTP client to open its first stream after the answer.
   */
  handshakeTimeoutMs: number;
  /** WebSockets waiting for their `initialize` at once; more are refused with 503. */
  maxHandshakes: number;
  /** The `Retry-After` of a 503 (the server is full), in seconds. */
  retryAfterSeconds: number;
  /** Interval of SSE keep-alives and WebSocket pings (a peer silent for two of them is gone). */
  heartbeatMs: number;
}

/** Why a client message was not taken (HTTP status and text; WebSocket close code). */
export interface Refusal {
  status: number;
  message: string;
}

/** Stderr bytes forwarded while the client is behind are dropped beyond this (stderr is best-effort). */
const STDERR_CHUNK_CHARS = 8 * 1024;

/**
 * One remote connection.
 *
 * @example
 * const connection = new RemoteConnection(crypto.randomUUID(), 'http', agent, limits, { onClosed: () => registry.delete(id) });
 */
export class RemoteConnection {
  readonly id: string;
  /** Resolves once the connection is over (agent stopped, streams closed). */
  readonly closed: Promise<void>;
  /**
   * Messages received from the client, kept by the adapter: the last `Acp-Message-Seq` (HTTP), or
   * the number of text frames (WebSocket). A resuming client re-sends only what follows.
   */
  clientSeq = 0;

  private readonly decoder: FrameDecoder;
  /** WebSocket: the only stream; HTTP: the connection-scoped one. */
  private readonly main: OutStream;
  private readonly sessionStreams = new Map<string, OutStream>();
  /** Client request id → the session stream its response goes to (HTTP). */
  private readonly routes = new Map<string, string | null>();
  /** Sessions the client named: cancelled when the connection ends. */
  private readonly knownSessions = new Set<string>();
  private sessionsOpened = 0;
  private queuedBytes = 0;
  private peakQueuedBytes = 0;
  private agentPaused = false;
  private attachedReceivers = 0;
  private graceTimer: ReturnType<typeof setTimeout> | undefined;
  private state: 'open' | 'ending' | 'closed' = 'open';
  private agentEnded = false;
  private initialized = false;
  private pendingInitialize:
    { key: string; resolve: (line: string) => void; reject: (error: Error) => void } | undefined;
  private stderrDropped = 0;
  private resolveClosed!: () => void;

  constructor(
    id: string,
    readonly profile: RemoteProfile,
    private readonly agent: RemoteAgent,
    private readonly limits: RemoteServerLimits,
    private readonly hooks: { onClosed: (connection: RemoteConnection) => void; logger?: Logger },
  ) {
    this.id = id;
    this.closed = new Promise((resolve) => (this.resolveClosed = resolve));
    const onQueued = (delta: number): void => this.queued(delta);
    this.main = new OutStream(limits.replay, onQueued);
    this.decoder = new FrameDecoder(
      {
        frame: (line) => this.fromAgent(line),
        fatal: (error) => {
          this.log('warn', 'agent message over the size limit, closing the connection', { ...error.details });
          this.close('the agent sent a message over the size limit');
        },
      },
      { maxMessageBytes: limits.maxMessageBytes },
    );
    agent.channel.start({
      data: (chunk) => this.decoder.feed(chunk),
      end: (details) => this.agentExited(details),
    });
    // A WebSocket client that never attaches is gone; an HTTP one gets its time once initialized.
    if (profile === 'websocket') this.startGrace(limits.handshakeTimeoutMs);
  }

  /** Whether the connection still takes messages. */
  get open(): boolean {
    return this.state === 'open';
  }

  /** Agent output waiting for readers now, the most there ever was, and whether the agent is held back. */
  get stats(): { queuedBytes: number; peakQueuedBytes: number; agentPaused: boolean } {
    return {
      queuedBytes: this.queuedBytes,
      peakQueuedBytes: this.peakQueuedBytes,
      agentPaused: this.agentPaused,
    };
  }

  /** Whether `initialize` has been answered. */
  get isInitialized(): boolean {
    return this.initialized;
  }

  /** Whether the client opened or named a session (only such a connection waits for a resume). */
  get hasSession(): boolean {
    return this.sessionsOpened > 0 || this.knownSessions.size > 0;
  }

  // ---------------------------------------------------------------- client → agent

  /**
   * Forwards `initialize` (HTTP: the POST without a connection id) and resolves with the agent's
   * answer, the body of the 200 response. Rejects when the agent does not answer in time or ends.
   */
  initialize(text: string): Promise<string> {
    const message = parseMessage(text);
    const key = message && isRequest(message) ? idKey(message.id) : undefined;
    if (!message || message.method !== 'initialize' || key === undefined)
      return Promise.reject(
        new AcpKitError('INVALID_ARGUMENT', 'the first message must be an initialize request'),
      );
    return new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new AcpKitError('REQUEST_TIMEOUT', 'the agent did not answer initialize in time')),
        this.limits.initializeTimeoutMs,
      );
      this.pendingInitialize = {
        key,
        resolve: (line) => {
          clearTimeout(timer);
          resolve(line);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
      this.agent.channel.write(singleLine(text) + '\n');
    });
  }

  /**
   * Takes one message from the client. `sessionHeader` is the POST's `Acp-Session-Id` (HTTP only).
   * Resolves once the agent can take more (backpressure); a refusal says why it was not taken.
   */
  async fromClient(text: string, sessionHeader?: string | null): Promise<Refusal | undefined> {
    if (this.state !== 'open') return { status: 404, message: 'Unknown Acp-Connection-Id' };
    if (looksLikeBatch(text)) {
      // RFD: batches are answered 501; on a WebSocket (no status), a -32600 as the SDK does.
      if (this.profile === 'websocket')
        this.main.push(
          errorLine(null, ErrorCodes.InvalidRequest, 'Invalid request', {
            reason: 'batches are not supported',
          }),
        );
      return { status: 501, message: 'JSON-RPC batches are not supported' };
    }
    const message = parseMessage(text);
    if (!message) {
      if (this.profile === 'websocket') this.main.push(errorLine(null, ErrorCodes.ParseError, 'Parse error'));
      return { status: 400, message: 'Invalid JSON-RPC message' };
    }
    const paramsSession = sessionIdIn(message.params);
    if (this.profile === 'http') {
      if (paramsSession !== undefined && !sessionHeader && message.method !== 'session/new')
        return { status: 400, message: 'Missing Acp-Session-Id' };
      if (sessionHeader && paramsSession !== undefined && sessionHeader !== paramsSession)
        return { status: 400, message: 'Mismatched Acp-Session-Id' };
    }
    if (message.method === 'initialize') {
      if (this.profile === 'websocket' && !this.initialized) {
        return this.initializeOverSocket(text, message);
      }
      this.replyError(
        message,
        sessionHeader,
        ErrorCodes.InvalidRequest,
        'Initialize not allowed on an existing connection',
      );
      return undefined;
    }
    if (!this.initialized) {
      // RFD: the first message on a connection is `initialize`.
      return { status: 400, message: 'The first message must be initialize' };
    }
    const session = sessionHeader || paramsSession;
    if (session !== undefined) this.knownSessions.add(session);
    if (
      typeof message.method === 'string' &&
      SESSION_OPENING_METHODS.has(message.method) &&
      isRequest(message)
    ) {
      if (this.sessionsOpened >= this.limits.maxSessionsPerConnection) {
        this.replyError(message, sessionHeader, ErrorCodes.InternalError, 'Session limit reached', {
          reason: 'SESSION_LIMIT',
          limit: this.limits.maxSessionsPerConnection,
        });
        return undefined;
      }
      this.sessionsOpened++;
    } else if (message.method === 'session/close' && this.sessionsOpened > 0) {
      this.sessionsOpened--;
    }
    if (this.profile === 'http' && isRequest(message)) {
      const key = idKey(message.id);
      if (key !== undefined) this.routes.set(key, session ?? null);
    }
    if (!this.agent.channel.write(singleLine(text) + '\n')) await this.agent.channel.drain();
    return undefined;
  }

  /** A WebSocket client's first frame. */
  private async initializeOverSocket(text: string, message: RoutedMessage): Promise<Refusal | undefined> {
    if (!isRequest(message)) return { status: 400, message: 'Initialize request must include an id' };
    this.initialized = true;
    if (!this.agent.channel.write(singleLine(text) + '\n')) await this.agent.channel.drain();
    return undefined;
  }

  /** Marks the connection initialized (the HTTP initialize answer went out). */
  markInitialized(): void {
    this.initialized = true;
    // The client's first GET follows the initialize answer: give it time even with a grace of 0.
    if (this.attachedReceivers === 0) this.startGrace(this.limits.handshakeTimeoutMs);
  }

  // ---------------------------------------------------------------- streams

  /**
   * Attaches a receiver to a stream: the WebSocket's, the connection-scoped SSE stream (`session`
   * undefined) or a session's (created on first use: a client opens it before `session/load` of a
   * session the agent has not named on this connection yet).
   */
  attach(
    receiver: StreamReceiver,
    session: string | undefined,
    lastEventId?: number,
  ): AttachResult | Refusal {
    if (this.state === 'closed') return { status: 404, message: 'Unknown Acp-Connection-Id' };
    let stream = this.main;
    if (session !== undefined) {
      const existing = this.sessionStreams.get(session);
      if (existing) stream = existing;
      else if (this.state !== 'open' || this.agentEnded)
        return { status: 404, message: 'Unknown Acp-Session-Id' };
      else if (this.sessionStreams.size >= this.limits.maxSessionsPerConnection)
        return { status: 429, message: 'Too many session streams on this connection' };
      else stream = this.sessionStream(session);
    }
    const result = stream.attach(receiver, lastEventId);
    if (result.ok) {
      this.attachedReceivers++;
      this.clearGrace();
    }
    return result;
  }

  /** Whether the stream (connection-scoped or a session's) has ended and everything after `lastEventId` went out. */
  streamEnded(session: string | undefined, lastEventId: number | undefined): boolean {
    const stream = session === undefined ? this.main : this.sessionStreams.get(session);
    if (!stream) return this.agentEnded;
    return this.agentEnded && stream.queuedBytes === 0 && (lastEventId ?? 0) + 1 >= stream.nextEventId;
  }

  /** A receiver stopped (its socket closed, or the stream detached it). */
  detach(receiver: StreamReceiver, session: string | undefined): void {
    const stream = session === undefined ? this.main : this.sessionStreams.get(session);
    stream?.detach(receiver);
    this.attachedReceivers = Math.max(0, this.attachedReceivers - 1);
    if (this.attachedReceivers === 0) {
      if (this.agentEnded && this.everythingSent()) this.close('finished');
      // Nothing to resume without a session: the agent's place goes to the next client at once.
      else if (!this.hasSession) this.close('the client left before opening a session');
      else this.startGrace();
    }
  }

  /** A receiver can take more. */
  drained(receiver: StreamReceiver, session: string | undefined): void {
    (session === undefined ? this.main : this.sessionStreams.get(session))?.drained(receiver);
  }

  /** The client said goodbye (DELETE, or a WebSocket closed normally). */
  end(): void {
    this.close('the client closed the connection');
  }

  // ---------------------------------------------------------------- agent → client

  /** Forwards the agent's stderr (best-effort: dropped while the client is far behind). */
  stderr(text: string): void {
    if (this.state !== 'open') return;
    if (this.queuedBytes > this.limits.maxQueuedBytes / 2) {
      this.stderrDropped += text.length;
      return;
    }
    for (let at = 0; at < text.length; at += STDERR_CHUNK_CHARS) {
      const params: { text: string; dropped?: number } = { text: text.slice(at, at + STDERR_CHUNK_CHARS) };
      if (this.stderrDropped > 0) params.dropped = this.stderrDropped;
      this.stderrDropped = 0;
      this.main.push(JSON.stringify({ jsonrpc: '2.0', method: AGENT_STDERR_NOTIFICATION, params }));
    }
  }

  private fromAgent(line: string): void {
    if (this.state === 'closed') return;
    if (this.profile === 'websocket') {
      this.main.push(line);
      return;
    }
    const message = parseMessage(line);
    if (!message) {
      this.main.push(line);
      return;
    }
    if (isResponse(message)) {
      const key = idKey(message.id);
      const pending = this.pendingInitialize;
      if (pending && key === pending.key) {
        this.pendingInitialize = undefined;
        pending.resolve(line);
        return;
      }
      const route = key === undefined ? undefined : this.routes.get(key);
      if (key !== undefined) this.routes.delete(key);
      this.streamFor(route ?? undefined).push(line);
      return;
    }
    this.streamFor(sessionIdIn(message.params)).push(line);
  }

  private streamFor(session: string | undefined): OutStream {
    if (session === undefined) return this.main;
    const existing = this.sessionStreams.get(session);
    if (existing) return existing;
    // An agent naming endless sessions cannot make us keep endless streams.
    if (this.sessionStreams.size >= this.limits.maxSessionsPerConnection * 4) return this.main;
    return this.sessionStream(session);
  }

  private sessionStream(session: string): OutStream {
    const stream = new OutStream(this.limits.replay, (delta) => this.queued(delta));
    this.sessionStreams.set(session, stream);
    return stream;
  }

  private replyError(
    message: RoutedMessage,
    sessionHeader: string | null | undefined,
    code: number,
    text: string,
    data?: unknown,
  ): void {
    if (!isRequest(message)) return;
    const id = message.id as string | number;
    const stream = this.profile === 'http' && sessionHeader ? this.streamFor(sessionHeader) : this.main;
    stream.push(errorLine(id, code, text, data));
  }

  private queued(delta: number): void {
    this.queuedBytes += delta;
    if (this.queuedBytes > this.peakQueuedBytes) this.peakQueuedBytes = this.queuedBytes;
    if (!this.agentPaused && this.queuedBytes > this.limits.maxQueuedBytes) {
      this.agentPaused = true;
      this.agent.channel.pause();
    } else if (this.agentPaused && this.queuedBytes <= this.limits.maxQueuedBytes / 2) {
      this.agentPaused = false;
      this.agent.channel.resume();
    }
  }

  private agentExited(details: CloseDetails | undefined): void {
    this.decoder.end();
    if (this.agentEnded) return;
    this.agentEnded = true;
    const pending = this.pendingInitialize;
    this.pendingInitialize = undefined;
    pending?.reject(new AcpKitError('PEER_EXITED', 'the agent ended before answering initialize'));
    if (this.state === 'closed') return;
    const params: Record<string, unknown> = {};
    if (details?.exitCode !== undefined) params.exitCode = details.exitCode;
    if (details?.signal !== undefined) params.signal = details.signal;
    if (details?.stderrTail) params.stderrTail = details.stderrTail;
    if (details?.cause instanceof Error) params.message = details.cause.message;
    this.main.push(JSON.stringify({ jsonrpc: '2.0', method: AGENT_EXIT_NOTIFICATION, params }));
    this.main.finish();
    for (const stream of this.sessionStreams.values()) stream.finish();
    if (this.attachedReceivers === 0 && this.everythingSent()) this.close('finished');
  }

  private everythingSent(): boolean {
    return this.queuedBytes === 0;
  }

  // ---------------------------------------------------------------- lifetime

  private startGrace(ms = this.limits.resumeGraceMs): void {
    if (this.state !== 'open' || this.graceTimer) return;
    this.graceTimer = setTimeout(() => {
      this.graceTimer = undefined;
      this.log('info', 'client gone, closing the connection', { connection: this.id });
      this.close('the client did not come back');
    }, ms);
  }

  private clearGrace(): void {
    if (!this.graceTimer) return;
    clearTimeout(this.graceTimer);
    this.graceTimer = undefined;
  }

  /**
   * Ends the connection: the agent's sessions are cancelled (a turn in flight stops), the agent is
   * stopped, every stream is closed. Idempotent.
   */
  close(reason: string): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    this.clearGrace();
    this.log('debug', 'remote connection closed', { connection: this.id, reason });
    const pending = this.pendingInitialize;
    this.pendingInitialize = undefined;
    pending?.reject(new AcpKitError('CONNECTION_CLOSED', reason));
    if (!this.agentEnded) {
      for (const sessionId of this.knownSessions)
        this.agent.channel.write(
          JSON.stringify({ jsonrpc: '2.0', method: 'session/cancel', params: { sessionId } }) + '\n',
        );
    }
    this.agent.channel.resume();
    this.agent.channel.close();
    this.main.close();
    for (const stream of this.sessionStreams.values()) stream.close();
    this.sessionStreams.clear();
    this.routes.clear();
    this.hooks.onClosed(this);
    void Promise.resolve(this.agent.stop?.())
      .catch(() => undefined)
      .then(() => this.resolveClosed());
  }

  private log(level: 'debug' | 'info' | 'warn', message: string, fields?: Record<string, unknown>): void {
    this.hooks.logger?.log(level, message, fields);
  }
}
