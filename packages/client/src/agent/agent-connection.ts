/**
 * One running agent: its process, the ACP connection in the version negotiated (see
 * `handshake.ts`), the fs and terminal services it uses, and the sessions attached to it (see
 * `session-registry.ts`). Handles auth-required answers, crashes (pending work fails with the exit
 * reason, state is kept), stalls, stdout noise, and restarts within a budget.
 */
import type {
  AcpKitError,
  AgentCapabilities,
  ClientSideConnection,
  Implementation,
  ListSessionsRequest,
  ListSessionsResponse,
  Logger,
} from '@acp-kit/protocol';
import type { ClientSideConnection as V2ClientSideConnection } from '@acp-kit/protocol/v2';
import { describeAuthMethods, type AuthOption } from '../auth/auth-methods.js';
import type { AgentEntry } from '../catalog/types.js';
import { ClientError, toErrorInfo } from '../errors.js';
import { FsService } from '../fs/fs-service.js';
import { McpBridge } from '../mcp/mcp-bridge.js';
import type { PermissionPolicy } from '../permissions/policy.js';
import type { RuleStore } from '../permissions/rule-store.js';
import { TraceRouter, TraceWriter } from '../persistence/trace.js';
import { agentEnvironment } from '../process/agent-env.js';
import type { AgentLink, NoiseDetector } from '../process/agent-process.js';
import { RestartBudget } from '../process/restart-budget.js';
import type { AgentFeatures, AgentPort } from '../session/agent-port.js';
import type { ClientSession } from '../session/client-session.js';
import type { SessionLink } from '../session/session-link.js';
import { TerminalService } from '../terminal/terminal-service.js';
import { Emitter } from '../util/emitter.js';
import { launchAgent } from './agent-launch.js';
import { AgentOutput } from './agent-output.js';
import type { AgentConnectionEvents, AgentConnectionOptions } from './connection-options.js';
import type { Handshake } from './handshake.js';
import type { ClientHost } from './host.js';
import { Pushback } from './pushback.js';
import { connectingAgain, nextRemoteStatus, type RemoteStatus } from './remote-status.js';
import {
  SessionOpener,
  type NewSessionOptions,
  type OpenOptions,
  type ReattachOptions,
} from './session-opener.js';
import { SessionRegistry } from './session-registry.js';
import { startHandshake } from './start-handshake.js';
import { authRequiredError, signIn, withheldCredentials } from './sign-in.js';
import { StallWatch } from './stall-watch.js';
import { StartControl } from './start-control.js';
import { initializeError, stoppedWhileStarting } from './start-errors.js';
import { resolveTimeouts, type ClientTimeouts } from './timeouts.js';

export type { AgentConnectionEvents, AgentConnectionOptions } from './connection-options.js';

/**
 * A running agent.
 *
 * @example
 * const agent = await AgentConnection.start({ agent: catalog.require('demo'), policy: new PermissionPolicy({ mode: 'ask' }) });
 * const session = await agent.newSession({ cwd: process.cwd() });
 * await session.prompt('hello');
 * await agent.close();
 */
export class AgentConnection implements SessionLink {
  readonly events = new Emitter<AgentConnectionEvents>();
  readonly fs: FsService;
  readonly terminals: TerminalService;
  readonly agent: AgentEntry;
  readonly policy: PermissionPolicy;
  readonly ruleStore: RuleStore | undefined;
  readonly host: ClientHost;
  readonly logger: Logger | undefined;
  readonly timeouts: Readonly<Required<ClientTimeouts>>;
  private readonly sessions = new SessionRegistry();
  private readonly budget: RestartBudget;
  private readonly stall: StallWatch;
  private readonly opener: SessionOpener;
  private process: AgentLink | undefined;
  private remoteStatus: RemoteStatus | undefined;
  /** The negotiated face of the running agent. */
  private shake: Handshake | undefined;
  /** Configured MCP servers offered over the connection (MCP-over-ACP, see `mcp/mcp-bridge.ts`). */
  private mcpBridge: McpBridge | undefined;
  private router = new TraceRouter();
  private readonly control = new StartControl();
  private noise: NoiseDetector | undefined;
  private readonly pushback = new Pushback();
  private readonly output: AgentOutput;

  private constructor(readonly options: AgentConnectionOptions) {
    this.agent = options.agent;
    this.policy = options.policy;
    this.ruleStore = options.ruleStore;
    this.host = options.host ?? {};
    this.logger = options.logger;
    this.output = new AgentOutput(this.events, options.logger);
    this.timeouts = resolveTimeouts(options.timeouts);
    this.budget = new RestartBudget(options.restartBudget);
    this.fs = new FsService(options.fs);
    this.terminals = new TerminalService({
      // Terminals run for the agent: they see what the agent sees, no more.
      baseEnv: agentEnvironment(options.env ?? process.env, options.agent, options.passEnv).env,
      ...options.terminals,
      onEvent: ({ sessionId, ...event }) =>
        this.sessions.get(sessionId)?.store.dispatch({ ...event, at: Date.now() }),
    });
    this.stall = new StallWatch(options.stallMs ?? 60_000, (localId, silentMs) => {
      this.sessions.find(localId)?.stalled(silentMs);
      if (silentMs !== undefined) this.events.emit('stalled', { localId, silentMs });
    });
    this.opener = new SessionOpener(this, {
      transcripts: options.transcripts,
      openTrace: async (session) => this.openTrace(session),
      register: (agentSessionId, session, trace) => this.register(agentSessionId, session, trace),
      unregister: (agentSessionId) => void this.detach(agentSessionId),
      offerMcpServers: (servers, cwd) =>
        this.mcpBridge ? this.mcpBridge.offer(servers, cwd, this.features.mcp.acp) : [...servers],
      claimMcpServers: (agentSessionId, offered) => this.mcpBridge?.claim(agentSessionId, offered),
      dropMcpServers: (offered) => void this.mcpBridge?.drop(offered),
    });
  }

  /**
   * Starts the agent and initializes the connection. `onCreated` (for owners such as `AcpClient`)
   * receives the connection before it is started, so it can be closed or killed while starting.
   */
  static async start(
    options: AgentConnectionOptions,
    onCreated?: (connection: AgentConnection) => void,
  ): Promise<AgentConnection> {
    const connection = new AgentConnection(options);
    onCreated?.(connection);
    await connection.control.run(() => connection.spawn());
    return connection;
  }

  /**
   * The ACP connection in the negotiated version (throws when the agent is not running): for
   * extension methods; sessions go through {@link port}.
   */
  get connection(): ClientSideConnection | V2ClientSideConnection {
    return this.handshake.connection;
  }

  /** The negotiated face's requests (throws when the agent is not running). */
  get port(): AgentPort {
    return this.handshake.port;
  }

  /** Whether the agent is running. */
  get running(): boolean {
    return this.shake !== undefined && !this.shake.port.isClosed;
  }

  /** What the agent can do, whatever the version (the negotiated one is `protocolVersion`). */
  get features(): AgentFeatures {
    return this.handshake.port.features;
  }

  /** The ACP version spoken with the agent, once it answered `initialize`. */
  get protocolVersion(): 1 | 2 | undefined {
    return this.shake?.port.features.protocolVersion;
  }

  /** Who the agent says it is (`agentInfo` in v1, `info` in v2). */
  get agentInfo(): Implementation | undefined {
    return this.shake?.agentInfo;
  }

  /** A v1 agent's capabilities as it advertised them (empty in v2: see {@link features}). */
  get agentCapabilities(): AgentCapabilities {
    return this.shake?.v1?.agentCapabilities ?? {};
  }

  /** The auth methods advertised in `initialize`, explained. */
  get authOptions(): AuthOption[] {
    return describeAuthMethods(this.shake?.authMethods, this.agent);
  }

  /** Non-JSON lines the agent printed on stdout so far, and the first of them (sanitised). */
  get noiseReport(): { count: number; sample?: string } {
    return {
      count: this.noise?.count ?? 0,
      ...(this.noise?.sample !== undefined ? { sample: this.noise.sample } : {}),
    };
  }

  /** Process id of the agent (undefined for a remote agent). */
  get pid(): number | undefined {
    return this.process?.pid;
  }

  /** For a remote agent (an entry with a `url`): where it is and how the connection is doing. */
  get remote(): RemoteStatus | undefined {
    return this.remoteStatus;
  }

  /** The sessions attached to this agent. */
  get attachedSessions(): ClientSession[] {
    return [...this.sessions.values()];
  }

  /** The attached session with this local id. */
  findSession(localId: string): ClientSession | undefined {
    return this.sessions.find(localId);
  }

  /**
   * Lets a slow consumer of the agent's updates push back: after each `session/update`, while
   * `source()` returns a promise, the next messages from the agent wait for it, and past the
   * engine's bounds (`maxQueuedInbound`, `maxQueuedInboundBytes`) its output is no longer read,
   * so a flooding agent blocks in its own writes instead of filling our memory. Returns the
   * unsubscribe function.
   *
   * @example
   * connection.addBackpressure(() => (output.backedUp ? output.drained() : undefined));
   */
  addBackpressure(source: () => Promise<void> | undefined): () => void {
    return this.pushback.add(source);
  }

  // ---------------------------------------------------------------- sessions

  /** `session/new`: a new session (recorded when the connection has a transcript store). */
  newSession(options: NewSessionOptions): Promise<ClientSession> {
    return this.opener.newSession(options);
  }

  /** `session/load` of an agent session, replaying its history into a new local session. */
  loadSession(agentSessionId: string, options: OpenOptions): Promise<ClientSession> {
    return this.opener.loadSession(agentSessionId, options);
  }

  /** `session/resume` of an agent session (no replay). */
  resumeSession(agentSessionId: string, options: OpenOptions): Promise<ClientSession> {
    return this.opener.resumeSession(agentSessionId, options);
  }

  /**
   * Reattaches a local session (reopened from the transcript store): resume when the same agent
   * can, else load (skipping the replayed history we already have), else continuity (a new session
   * seeded with our transcript). Returns how.
   */
  reattach(
    session: ClientSession,
    previous: { agentId?: string; agentSessionId?: string },
    options: ReattachOptions = {},
  ) {
    return this.opener.reattach(session, previous, options);
  }

  /** `session/list` (needs `features.list`). */
  listSessions(params: ListSessionsRequest = {}): Promise<ListSessionsResponse> {
    return this.port.listSessions(params);
  }

  /** `session/delete` (needs `features.delete`). */
  async deleteSession(agentSessionId: string): Promise<void> {
    await this.port.deleteSession(agentSessionId);
  }

  /**
   * `authenticate` (v1) or `auth/login` (v2) with an agent-handled method. `apiKey` is the secret of a method that takes one
   * (`AuthOption.input`), sent as `_meta["api-key"]` (in the two shapes agents read, see {@link signIn}). A login can
   * wait on the user for long (a browser, a code to paste): there is no time limit; `signal`
   * cancels it (`$/cancel_request`). Meanwhile what the agent prints arrives as `signInOutput` events.
   */
  async authenticate(
    methodId: string,
    secrets: { apiKey?: string } = {},
    options: { signal?: AbortSignal } = {},
  ): Promise<void> {
    // While it runs, what the agent prints is sign-in output (`signInOutput` events).
    this.output.signingIn++;
    try {
      await signIn(this.port, methodId, secrets.apiKey, options.signal);
    } finally {
      this.output.signingIn--;
    }
  }

  // ------------------------------------------------------------- lifecycle

  /** Restarts the agent (after a crash or terminal auth), within the restart budget. Sessions must be reattached. */
  async restart(): Promise<void> {
    if (!this.budget.take()) {
      throw new ClientError(
        'RESTART_BUDGET_EXHAUSTED',
        `${this.agent.name} was restarted too often; not restarting again`,
      );
    }
    if (this.control.stopped) throw new ClientError('AGENT_EXITED', `${this.agent.name} was closed`);
    const old = this.process;
    this.control.closing = true;
    await old?.shutdown(1000);
    this.control.reopen();
    await this.control.run(() => this.spawn());
  }

  /**
   * Closes every session and stops the agent: its stdin is closed, then after `graceMs` SIGTERM,
   * after `graceMs` more SIGKILL, to its whole process group. Works at any time, also while the
   * agent is still starting (its `initialize` is abandoned). Calling `kill()` meanwhile hurries it.
   */
  async close(graceMs = 2000): Promise<void> {
    this.control.stopped = true;
    this.control.stopWhileStarting(graceMs);
    for (const session of [...this.sessions.values()]) await session.close().catch(() => undefined);
    await this.terminals.releaseAll();
    this.stall.stop();
    await this.control.settled();
    await this.process?.shutdown(graceMs);
  }

  /**
   * Stops the agent at once (a second Ctrl-C, a turn that ignores cancel): its terminals and its
   * whole process group are killed, a close() or start in progress is hurried. The sessions stay
   * and can be reattached after `restart()`.
   */
  async kill(): Promise<void> {
    this.control.stopWhileStarting(0);
    const terminals = this.terminals.releaseAll(0);
    await Promise.all([terminals, this.process?.shutdown(0)]);
    await this.control.settled();
  }

  // ---------------------------------------------------------- SessionLink

  peekText(path: string, roots: readonly string[]): Promise<string | undefined> {
    return this.fs.peekText(path, roots);
  }

  turnStarted(localId: string): void {
    this.stall.start(localId);
  }

  turnEnded(localId: string): void {
    this.stall.end(localId);
  }

  /** Names of our credential variables the agent was not given (see {@link withheldCredentials}). */
  get heldBackEnv(): string[] {
    return withheldCredentials(this.options);
  }

  authError(error: unknown): ClientError | undefined {
    return authRequiredError(this.agent, error, this.shake?.authMethods, () => this.heldBackEnv);
  }

  /** Forgets a session that ended; resolves once the MCP servers bridged for it have stopped. */
  async detach(agentSessionId: string): Promise<void> {
    this.sessions.delete(agentSessionId);
    this.router.detach(agentSessionId);
    this.shake?.forget(agentSessionId);
    await this.mcpBridge?.release(agentSessionId);
  }

  // -------------------------------------------------------------- internals

  private async spawn(): Promise<void> {
    if (this.control.closing) throw stoppedWhileStarting(this.agent);
    this.control.begin();
    if (this.agent.url !== undefined) this.remoteStatus = connectingAgain(this.agent, this.remoteStatus);
    const process = await launchAgent(this.options, {
      onStderr: this.output.stderr,
      onRemoteEvent: (event) => {
        this.remoteStatus = nextRemoteStatus(this.remoteStatus ?? connectingAgain(this.agent), event);
        this.events.emit('remote', event);
      },
      signal: this.control.signal,
    });
    this.process = process;
    if (this.control.closing) {
      await process.shutdown(this.control.stopGraceMs);
      throw stoppedWhileStarting(this.agent);
    }
    // Every session has a live frame feed; trace files are written only when recording with traces.
    this.router = new TraceRouter();
    const noise = this.output.noiseDetector();
    this.noise = noise;
    const router = this.router;
    let shake: Handshake;
    try {
      shake = await startHandshake(process, {
        options: this.options,
        faces: {
          sessions: this.sessions,
          events: this.events,
          backpressure: () => this.pushback.wait(this.sessions.values()),
          fs: this.fs,
          terminals: this.terminals,
          host: this.host,
          agentId: this.agent.id,
        },
        output: this.output,
        noise,
        protocolVersion: this.protocolChoice,
        timeoutMs: this.timeouts.initializeMs,
        signal: this.control.signal,
        traffic: () => this.stall.traffic(),
        frame: (direction, text, parsed) => router.frame(direction, text, parsed),
        parsedFrame: (direction, value) => router.parsedFrame(direction, value),
      });
    } catch (error) {
      const stopped = this.control.closing;
      this.control.closing = true;
      await process.shutdown(stopped ? this.control.stopGraceMs : 500);
      throw stopped
        ? stoppedWhileStarting(this.agent)
        : initializeError(this.agent, error, this.protocolChoice);
    }
    this.shake = shake;
    const connection = shake.connection;
    // MCP-over-ACP (`mcp/message`, unstable) over whichever version was negotiated.
    const bridge = new McpBridge(connection, this.logger);
    this.mcpBridge = bridge;
    void connection.closed.then(() => bridge.close());
    void connection.closed.then((reason) => this.onClosed(shake, reason));
  }

  /** The version asked for: the option, else the catalog entry's. */
  private get protocolChoice(): 1 | 2 | undefined {
    return this.options.protocolVersion ?? this.agent.protocol;
  }

  private onClosed(shake: Handshake, reason: AcpKitError): void {
    if (shake !== this.shake) return;
    const expected = this.control.closing;
    const error = new ClientError('AGENT_EXITED', reason.message, { ...reason.details }, reason);
    this.stall.stop();
    for (const [agentSessionId, session] of this.sessions.entries()) {
      void this.terminals.releaseSession(agentSessionId);
      session.agentExited(error);
      void this.detach(agentSessionId);
    }
    this.events.emit('exit', { error, expected });
    // The connection is gone: stop what is left (an agent that closed a pipe, its grandchildren).
    if (!expected) void this.process?.shutdown();
    this.logger?.log(expected ? 'debug' : 'warn', 'agent exited', {
      agent: this.agent.id,
      ...toErrorInfo(error),
    });
  }

  /** Reports something about the agent's behaviour through the `diagnostic` event, once per message. */
  diagnostic(message: string): void {
    this.output.diagnostic(message);
  }

  private async openTrace(session: ClientSession): Promise<TraceWriter | undefined> {
    const store = this.options.transcripts;
    if (!store || this.options.trace === false) return undefined;
    return TraceWriter.open(store.sessionDir(session.localId)).catch(() => undefined);
  }

  /** Registers a session under its agent id; updates that arrived early are applied. */
  private register(agentSessionId: string, session: ClientSession, trace: TraceWriter | undefined): void {
    session.bind(this, agentSessionId, trace);
    this.router.attach(agentSessionId, session.frameSink);
    this.sessions.add(agentSessionId, session);
  }

  private get handshake(): Handshake {
    if (!this.shake) throw new ClientError('AGENT_EXITED', `${this.agent.name} is not running`);
    return this.shake;
  }
}
