/**
 * One running agent: its process, the ACP connection in the version negotiated (see
 * `handshake.ts`), the fs and terminal services it uses, and the sessions attached to it (see
 * `session-registry.ts`). Handles auth-required answers, crashes (pending work fails with the exit
 * reason, state is kept), stalls, stdout noise, and restarts within a budget.
 */
import {
  ProtocolError,
  type AcpKitError,
  type AgentCapabilities,
  type ClientSideConnection,
  type FrameDirection,
  type Implementation,
  type ListSessionsRequest,
  type ListSessionsResponse,
  type Logger,
  type SessionNotification,
  type TypedConnection,
  type ValidationReport,
} from '@acp-kit/protocol';
import { describeAuthMethods, authMethodsFromErrorData, type AuthOption } from '../auth/auth-methods.js';
import type { AgentEntry } from '../catalog/types.js';
import { ClientError, isAuthRequiredError, toErrorInfo } from '../errors.js';
import { FsService, type FsServiceOptions } from '../fs/fs-service.js';
import type { PermissionPolicy } from '../permissions/policy.js';
import type { RuleStore } from '../permissions/rule-store.js';
import { TraceRouter, TraceWriter } from '../persistence/trace.js';
import type { TranscriptStore } from '../persistence/transcript-store.js';
import { agentEnvironment } from '../process/agent-env.js';
import type { RemoteEvent } from '@acp-kit/protocol/remote';
import { nextRemoteStatus, type RemoteStatus } from './remote-status.js';
import { NoiseDetector, processLink, startAgentProcess, type AgentLink } from '../process/agent-process.js';
import type { EarlyAgent } from '../process/early-agent.js';
import { RestartBudget } from '../process/restart-budget.js';
import type { ClientSession } from '../session/client-session.js';
import type { SessionLink } from '../session/session-link.js';
import { TerminalService, type TerminalServiceOptions } from '../terminal/terminal-service.js';
import { TextSanitizer } from '../text/sanitize-text.js';
import { Emitter } from '../util/emitter.js';
import type { ClientSideConnection as V2ClientSideConnection } from '@acp-kit/protocol/v2';
import type { AgentUpdate } from '../model/agent-update.js';
import type { AgentFeatures, AgentPort } from '../session/agent-port.js';
import { CLIENT_INFO } from './capabilities.js';
import { diagnosticsOf } from './early-updates.js';
import { shakeHands, type Handshake } from './handshake.js';
import { McpBridge } from '../mcp/mcp-bridge.js';
import type { ClientHost } from './host.js';
import { SessionOpener, type NewSessionOptions, type OpenOptions } from './session-opener.js';
import { SessionRegistry } from './session-registry.js';
import { initializeError, stoppedWhileStarting } from './start-errors.js';
import { Pushback } from './pushback.js';
import { StallWatch } from './stall-watch.js';
import { resolveTimeouts, type ClientTimeouts } from './timeouts.js';

/** Options of {@link AgentConnection.start}. */
export interface AgentConnectionOptions {
  agent: AgentEntry;
  /** Working directory of the agent process (default: the entry's, else ours). */
  cwd?: string;
  /** Base environment of the agent (default: ours); see {@link agentEnvironment}. */
  env?: NodeJS.ProcessEnv;
  /** Credential variables every agent may see (the user's global `passEnv`), besides the entry's. */
  passEnv?: readonly string[];
  policy: PermissionPolicy;
  /** Where answers scoped `project`/`always` are saved. */
  ruleStore?: RuleStore;
  host?: ClientHost;
  /** Record sessions here (transcripts and, unless `trace` is false, wire traces). */
  transcripts?: TranscriptStore;
  trace?: boolean;
  fs?: FsServiceOptions;
  terminals?: Omit<TerminalServiceOptions, 'onEvent'>;
  /** A turn without traffic for this long is reported as stalled (default 60 s). */
  stallMs?: number;
  /** How long to wait for `initialize`, `session/new|load|resume`, and a cancelled turn to end. */
  timeouts?: ClientTimeouts;
  restartBudget?: { max?: number; windowMs?: number };
  clientInfo?: Implementation;
  logger?: Logger;
  /** Whether terminal auth methods can be run by the host (default true). */
  terminalAuth?: boolean;
  /** Read pacing of the agent's output (see `AcpClientOptions.coalesceReadsMs`; default off). */
  coalesceReadsMs?: number;
  /** The agent's process, already started (see `startEarlyAgent`): the first start takes it. */
  early?: EarlyAgent;
  /**
   * Speak this ACP version only (`--protocol`; default: the entry's `protocol`, else ask for 2 and
   * continue in 1 when the agent answers 1).
   */
  protocolVersion?: 1 | 2;
}

/** Events of a connection. */
export interface AgentConnectionEvents {
  /** The agent process ended; `expected` when we closed it. */
  exit: { error: ClientError; expected: boolean };
  /** The agent printed something that is not JSON on stdout (reported once). */
  noise: { sample: string };
  /** Sanitised stderr text of the agent. */
  stderr: { text: string };
  /** A turn had no traffic for `silentMs`. */
  stalled: { localId: string; silentMs: number };
  /** Every v1 `session/update` received, as received (replays included), before it is routed. */
  update: SessionNotification;
  /** Every `session/update` received in either version, as the model's updates, before it is routed. */
  agentUpdate: { sessionId: string; updates: readonly AgentUpdate[] };
  /** Something a developer may want to know (unknown variants, rejected frames), once per kind. */
  diagnostic: { message: string };
  /** A remote agent's connection: connected (and how), busy (asked again later), cut, reconnecting, resumed, failed. */
  remote: RemoteEvent;
  /**
   * What the agent prints while it signs in (`authenticate` running): its stderr and any non-JSON
   * lines on stdout, where logins put their URL and code prompts. Sanitised.
   */
  signInOutput: { text: string };
}

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
  private readonly seenDiagnostics = new Set<string>();
  private process: AgentLink | undefined;
  private remoteStatus: RemoteStatus | undefined;
  /** The negotiated face of the running agent. */
  private shake: Handshake | undefined;
  /** Configured MCP servers offered over the connection (MCP-over-ACP, see `mcp/mcp-bridge.ts`). */
  private mcpBridge: McpBridge | undefined;
  private router = new TraceRouter();
  private closing = false;
  /** Set by close(): nothing is started again. */
  private stopped = false;
  /** The grace of the stop asked for while starting (the smallest one wins). */
  private stopGraceMs = 2000;
  /** Aborts the `initialize` of a start in progress when the connection is closed or killed. */
  private startAbort = new AbortController();
  /** The start (or restart) in progress, which close() waits for. */
  private starting: Promise<void> | undefined;
  private noise: NoiseDetector | undefined;
  /** `authenticate` calls running. */
  private signingIn = 0;
  private readonly pushback = new Pushback();

  private constructor(readonly options: AgentConnectionOptions) {
    this.agent = options.agent;
    this.policy = options.policy;
    this.ruleStore = options.ruleStore;
    this.host = options.host ?? {};
    this.logger = options.logger;
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
    await connection.spawnOnce();
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
  reattach(session: ClientSession, previous: { agentId?: string; agentSessionId?: string }) {
    return this.opener.reattach(session, previous);
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
   * (`AuthOption.input`), sent as `_meta["api-key"]`. A login can wait on the user for long (a
   * browser, a code to paste): there is no time limit; `signal` cancels it (`$/cancel_request`).
   * Meanwhile what the agent prints arrives as `signInOutput` events. Agents read that field in two shapes (Gemini
   * CLI a string, codex-acp `{ apiKey }`): the string goes first and, when the agent refuses it,
   * the object. When both fail, the refusal that is not an internal error is reported (it is about
   * the key itself).
   */
  async authenticate(
    methodId: string,
    secrets: { apiKey?: string } = {},
    options: { signal?: AbortSignal } = {},
  ): Promise<void> {
    // While it runs, what the agent prints is sign-in output (`signInOutput` events).
    this.signingIn++;
    try {
      await this.authenticateOnce(methodId, secrets.apiKey, options.signal);
    } finally {
      this.signingIn--;
    }
  }

  private async authenticateOnce(
    methodId: string,
    apiKey: string | undefined,
    signal?: AbortSignal,
  ): Promise<void> {
    // A login may wait on the user (a browser, a code): no time limit, but `signal` cancels it.
    const request = signal ? { signal } : {};
    if (apiKey === undefined) {
      await this.port.authenticate(methodId, undefined, request);
      return;
    }
    try {
      await this.port.authenticate(methodId, { 'api-key': apiKey }, request);
    } catch (first) {
      if (!(first instanceof ProtocolError) || signal?.aborted) throw first;
      await this.port.authenticate(methodId, { 'api-key': { apiKey } }, request).catch((second: unknown) => {
        // The shape it did not read fails as an internal error; the other says what is wrong.
        const internal = (error: ProtocolError): boolean => error.code === -32603;
        if (!(second instanceof ProtocolError)) throw second;
        throw internal(first) && !internal(second) ? second : first;
      });
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
    if (this.stopped) throw new ClientError('AGENT_EXITED', `${this.agent.name} was closed`);
    const old = this.process;
    this.closing = true;
    await old?.shutdown(1000);
    this.closing = false;
    this.stopGraceMs = 2000;
    await this.spawnOnce();
  }

  /**
   * Closes every session and stops the agent: its stdin is closed, then after `graceMs` SIGTERM,
   * after `graceMs` more SIGKILL, to its whole process group. Works at any time, also while the
   * agent is still starting (its `initialize` is abandoned). Calling `kill()` meanwhile hurries it.
   */
  async close(graceMs = 2000): Promise<void> {
    this.stopped = true;
    this.stopWhileStarting(graceMs);
    for (const session of [...this.sessions.values()]) await session.close().catch(() => undefined);
    await this.terminals.releaseAll();
    this.stall.stop();
    await this.starting?.catch(() => undefined);
    await this.process?.shutdown(graceMs);
  }

  /**
   * Stops the agent at once (a second Ctrl-C, a turn that ignores cancel): its terminals and its
   * whole process group are killed, a close() or start in progress is hurried. The sessions stay
   * and can be reattached after `restart()`.
   */
  async kill(): Promise<void> {
    this.stopWhileStarting(0);
    const terminals = this.terminals.releaseAll(0);
    await Promise.all([terminals, this.process?.shutdown(0)]);
    await this.starting?.catch(() => undefined);
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

  /**
   * Names of our credential variables the agent was not given (see `agentEnvironment`): what a
   * refused sign-in may be missing. Names only, never values; acp's own (`ACP_KIT_*`: its remote
   * token, the key `acp run --auth` passes itself) are no agent's missing credential.
   */
  get heldBackEnv(): string[] {
    return agentEnvironment(
      this.options.env ?? process.env,
      this.agent,
      this.options.passEnv,
    ).withheld.filter((name) => !name.startsWith('ACP_KIT_'));
  }

  authError(error: unknown): ClientError | undefined {
    if (!isAuthRequiredError(error)) return undefined;
    const methods = authMethodsFromErrorData(error.data) ?? this.shake?.authMethods ?? [];
    const authOptions = describeAuthMethods(methods, this.agent);
    // A key the user set may be one the agent was not given (see agentEnvironment): say which.
    const heldBackEnv = this.heldBackEnv;
    return new ClientError('AUTH_REQUIRED', `${this.agent.name} needs authentication: ${error.message}`, {
      authOptions,
      agentId: this.agent.id,
      agentMessage: error.message,
      ...(this.agent.authHint ? { authHint: this.agent.authHint } : {}),
      ...(heldBackEnv.length > 0 ? { heldBackEnv } : {}),
    });
  }

  /** Forgets a session that ended; resolves once the MCP servers bridged for it have stopped. */
  async detach(agentSessionId: string): Promise<void> {
    this.sessions.delete(agentSessionId);
    this.router.detach(agentSessionId);
    this.shake?.forget(agentSessionId);
    await this.mcpBridge?.release(agentSessionId);
  }

  // -------------------------------------------------------------- internals

  private stopWhileStarting(graceMs: number): void {
    this.closing = true;
    this.stopGraceMs = Math.min(this.stopGraceMs, graceMs);
    this.startAbort.abort();
  }

  private spawnOnce(): Promise<void> {
    const starting = this.spawn();
    this.starting = starting;
    void starting.then(
      () => this.starting === starting && (this.starting = undefined),
      () => this.starting === starting && (this.starting = undefined),
    );
    return starting;
  }

  private async spawn(): Promise<void> {
    if (this.closing) throw stoppedWhileStarting(this.agent);
    this.startAbort = new AbortController();
    const process = this.agent.url !== undefined ? await this.connectRemote() : await this.startProcess();
    this.process = process;
    if (this.closing) {
      await process.shutdown(this.stopGraceMs);
      throw stoppedWhileStarting(this.agent);
    }
    // Every session has a live frame feed; trace files are written only when recording with traces.
    this.router = new TraceRouter();
    const noise = new NoiseDetector(
      (sample) => this.events.emit('noise', { sample }),
      (line) => {
        if (this.signingIn > 0) this.events.emit('signInOutput', { text: line });
      },
    );
    this.noise = noise;
    const router = this.router;
    let shake: Handshake;
    try {
      shake = await shakeHands(
        process.channel,
        {
          v1: {
            session: (id) => this.sessions.get(id),
            orphanUpdates: (id, updates) => this.sessions.hold(id, updates),
            onUpdate: (params) => this.events.emit('update', params),
            onUpdates: (sessionId, updates) => this.events.emit('agentUpdate', { sessionId, updates }),
            backpressure: () => this.pushback.wait(this.sessions.values()),
            fs: this.fs,
            terminals: this.terminals,
            host: this.host,
            agentId: this.agent.id,
          },
          v2: {
            session: (id) => this.sessions.get(id),
            orphanUpdates: (id, updates) => this.sessions.hold(id, updates),
            onUpdates: (sessionId, updates) => this.events.emit('agentUpdate', { sessionId, updates }),
            backpressure: () => this.pushback.wait(this.sessions.values()),
            host: this.host,
            agentId: this.agent.id,
          },
        },
        {
          info: this.options.clientInfo ?? CLIENT_INFO,
          terminalAuth: this.options.terminalAuth,
          forms: this.host.elicit !== undefined,
          ...(this.protocolChoice ? { protocolVersion: this.protocolChoice } : {}),
          connection: {
            peerName: this.agent.name,
            logger: this.logger,
            // The unstable schema: `mcp/message` for the MCP servers offered over ACP.
            unstable: true,
            // A login reads the code from stdin: an error frame there would be taken for it.
            answerParseErrors: () => this.signingIn === 0,
            ...(this.options.coalesceReadsMs ? { coalesceReadsMs: this.options.coalesceReadsMs } : {}),
            onValidation: (report) => this.onValidation(report),
            trace: (direction: FrameDirection, text: string, parsed?: unknown) => {
              if (direction === 'in') {
                this.stall.traffic();
                noise.inspect(text, parsed);
              }
              router.frame(direction, text, parsed);
            },
          },
          request: { timeoutMs: this.timeouts.initializeMs, signal: this.startAbort.signal },
          // Registered before the handshake ends: what the agent wrote while starting is not lost.
          onConnection: (connection) => this.forwardRemoteStderr(process, connection),
        },
      );
    } catch (error) {
      const stopped = this.closing;
      this.closing = true;
      await process.shutdown(stopped ? this.stopGraceMs : 500);
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

  /** What the remote agent writes on stderr, forwarded by the server (`acp serve`), as `stderr` events. */
  private forwardRemoteStderr(process: AgentLink, connection: TypedConnection): void {
    const remote = process.remote;
    if (!remote) return;
    const sanitizer = new TextSanitizer();
    connection.onExtNotification(remote.stderrMethod, (params) => {
      const text = (params as { text?: unknown } | null)?.text;
      if (typeof text !== 'string') return;
      const clean = sanitizer.write(text.replace(/\r\n?/g, '\n'));
      if (clean === '') return;
      this.events.emit('stderr', { text: clean });
      if (this.signingIn > 0) this.events.emit('signInOutput', { text: clean });
    });
  }

  /** The version asked for: the option, else the catalog entry's. */
  private get protocolChoice(): 1 | 2 | undefined {
    return this.options.protocolVersion ?? this.agent.protocol;
  }

  private async startProcess(): Promise<AgentLink> {
    const onStderr = (text: string): void => {
      this.events.emit('stderr', { text });
      if (this.signingIn > 0) this.events.emit('signInOutput', { text });
    };
    const started =
      this.options.early?.adopt(onStderr) ??
      (await startAgentProcess(this.agent, {
        cwd: this.options.cwd ?? this.agent.cwd,
        env: this.options.env,
        ...(this.options.passEnv ? { passEnv: this.options.passEnv } : {}),
        onStderr,
      }));
    return processLink(started);
  }

  /** A remote agent: the HTTP and WebSocket code is loaded only now. */
  private async connectRemote(): Promise<AgentLink> {
    const url = this.agent.command;
    this.remoteStatus = {
      url,
      profile: undefined,
      state: 'connecting',
      resumes: this.remoteStatus?.resumes ?? 0,
    };
    const { startRemoteAgent } = await import('../process/remote-agent.js');
    return startRemoteAgent(this.agent, {
      ...(this.options.env ? { env: this.options.env } : {}),
      // Closed while a full server makes us wait: stop waiting.
      signal: this.startAbort.signal,
      onEvent: (event) => {
        this.remoteStatus = nextRemoteStatus(
          this.remoteStatus ?? { url, profile: undefined, state: 'connecting', resumes: 0 },
          event,
        );
        this.events.emit('remote', event);
      },
    });
  }

  private onClosed(shake: Handshake, reason: AcpKitError): void {
    if (shake !== this.shake) return;
    const expected = this.closing;
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

  private onValidation(report: ValidationReport): void {
    for (const message of diagnosticsOf(report)) this.diagnostic(message);
  }

  /** Reports something about the agent's behaviour through the `diagnostic` event, once per message. */
  diagnostic(message: string): void {
    if (this.seenDiagnostics.has(message) || this.seenDiagnostics.size > 500) return;
    this.seenDiagnostics.add(message);
    this.logger?.log('info', 'agent diagnostic', { message });
    this.events.emit('diagnostic', { message });
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
