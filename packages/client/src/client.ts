/**
 * The engine's front door: the catalog, saved rules and transcripts of one installation, and
 * connections to agents.
 */
import type { Logger } from '@acp-kit/protocol';
import { AgentConnection, type AgentConnectionOptions } from './agent/agent-connection.js';
import type { ClientHost } from './agent/host.js';
import { resolveTimeouts, type ClientTimeouts } from './agent/timeouts.js';
import type { ReattachOptions } from './agent/session-opener.js';
import { AgentCatalog } from './catalog/catalog.js';
import type { AgentEntry, LaunchSpec } from './catalog/types.js';
import { ClientError } from './errors.js';
import type { FsServiceOptions } from './fs/fs-service.js';
import { resolveClientPaths, type ClientPaths } from './paths.js';
import { PermissionPolicy, type BaseMode } from './permissions/policy.js';
import { RuleStore } from './permissions/rule-store.js';
import type { PermissionRule } from './permissions/rules.js';
import { readTraceTail } from './persistence/trace-tail.js';
import { TranscriptStore, type SessionMeta } from './persistence/transcript-store.js';
import { ClientSession } from './session/client-session.js';
import type { AttachMode } from './session/events.js';
import { RECENT_FRAME_BYTES, RECENT_FRAMES } from './session/frame-feed.js';
import type { TerminalServiceOptions } from './terminal/terminal-service.js';
import { sharedPassEnv } from './process/agent-env.js';
import type { EarlyAgent } from './process/early-agent.js';

/** Options of {@link AcpClient.create}. */
export interface AcpClientOptions {
  /** Config and data locations (default: from the environment, see {@link resolveClientPaths}). */
  paths?: ClientPaths;
  /** Environment for agents and PATH lookups (default: ours). */
  env?: NodeJS.ProcessEnv;
  /** How to run this `acp` (for the `demo` and `acp-kit` catalog entries). */
  self?: LaunchSpec;
  /** Base permission mode (default `ask`: the host is asked). */
  mode?: BaseMode;
  /** Rules applied on top of the saved ones (e.g. `--policy FILE`). */
  extraRules?: PermissionRule[];
  host?: ClientHost;
  /** Record transcripts (default true) and wire traces (default true). */
  record?: boolean;
  /**
   * Checkpoint a session's record when it is closed (default true; see `TranscriptStore`). A
   * one-shot run that keeps a light state (`acp run`) turns it off: making one holds the whole
   * session's state in memory at once.
   */
  checkpoints?: boolean;
  trace?: boolean;
  logger?: Logger;
  stallMs?: number;
  /**
   * How long to wait for the agent (defaults: `initializeMs` 60 000, `sessionOpenMs` 60 000,
   * `cancelGraceMs` 10 000; see {@link ClientTimeouts}).
   */
  timeouts?: ClientTimeouts;
  fs?: FsServiceOptions;
  terminals?: Omit<TerminalServiceOptions, 'onEvent'>;
  /** Whether the host can run terminal auth methods (default true). */
  terminalAuth?: boolean;
  /**
   * Read pacing for agents' output (default 0: off; the protocol's `coalesceReadsMs`): while an
   * agent streams updates, reading rests this many ms between reads, so that a streamed answer
   * costs a few dozen wakeups a second instead of one per chunk. Only a stream of notifications
   * starts it (a read holding a request or a response ends it), and a frame waits at most this
   * long. `acp run` and line mode use {@link INTERACTIVE_READ_PACING_MS}; the terminal UI rests
   * longer than the pace at which it draws streamed text (200 ms).
   */
  coalesceReadsMs?: number;
  /**
   * Speak this ACP version only with every agent (`--protocol`; default: each entry's `protocol`,
   * else ask for 2 and continue in 1 when the agent answers 1).
   */
  protocolVersion?: 1 | 2;
}

/**
 * The read pacing `acp run` and line mode use (`coalesceReadsMs`): both print a streamed
 * answer about ten times a second, so holding an agent's updates this long is never seen.
 */
export const INTERACTIVE_READ_PACING_MS = 100;

/** A rule remembered for one session, with the session it belongs to. */
export interface SessionRule {
  /** The session's local id. */
  localId: string;
  rule: PermissionRule;
}

/** A reopened session. */
export interface ReopenedSession {
  connection: AgentConnection;
  session: ClientSession;
  /** How it was reattached. */
  how: AttachMode;
}

/**
 * The client engine.
 *
 * @example
 * const client = await AcpClient.create({ host: { askPermission: ui.ask } });
 * const agent = await client.connect('claude', { cwd: projectDir });
 * const session = await agent.newSession({ cwd: projectDir });
 * await session.prompt('Fix the failing test');
 * await client.close();
 */
export class AcpClient {
  readonly policy: PermissionPolicy;
  private readonly connections = new Set<AgentConnection>();

  private constructor(
    readonly options: AcpClientOptions,
    readonly paths: ClientPaths,
    readonly catalog: AgentCatalog,
    readonly rules: RuleStore,
    readonly transcripts: TranscriptStore,
  ) {
    this.policy = new PermissionPolicy({
      mode: options.mode ?? 'ask',
      savedRules: () => rules.rules,
      ...(options.extraRules ? { extraRules: options.extraRules } : {}),
    });
  }

  /**
   * Credential variables every agent may see besides what its entry passes: `passEnv` in
   * agents.json plus `ACP_KIT_PASS_ENV` (names or `PREFIX*`, separated by commas or spaces).
   */
  get passEnv(): string[] {
    return sharedPassEnv(this.catalog.passEnv, this.options.env ?? process.env);
  }

  /** Loads the catalog and the saved rules. */
  static async create(options: AcpClientOptions = {}): Promise<AcpClient> {
    resolveTimeouts(options.timeouts); // bad values fail here, not at the first connect
    const paths = options.paths ?? resolveClientPaths(options.env ?? process.env);
    const catalog = await AgentCatalog.load({
      agentsFile: paths.agentsFile,
      ...(options.self ? { self: options.self } : {}),
      ...(options.env ? { env: options.env } : {}),
    });
    const rules = await RuleStore.load(paths.rulesFile);
    return new AcpClient(
      options,
      paths,
      catalog,
      rules,
      new TranscriptStore(paths.sessionsDir, { checkpoints: options.checkpoints !== false }),
    );
  }

  /**
   * Starts an agent: a catalog name, an entry, or a command (`{ id, command, args }`).
   * Throws AGENT_NOT_FOUND, AGENT_NOT_INSTALLED (with how to install it), AGENT_START_FAILED or
   * UNSUPPORTED_PROTOCOL_VERSION. Aborting `signal` (or closing the client) while the agent starts
   * stops it and rejects with AGENT_START_FAILED (`details.stopped`). `onCreated` receives the
   * connection before it starts, to follow what happens while it does (a remote agent's `busy`).
   */
  async connect(
    agent: string | AgentEntry,
    options: {
      cwd?: string;
      signal?: AbortSignal;
      onCreated?: (connection: AgentConnection) => void;
      /** The agent's process, started early (see `startEarlyAgent`): taken when it is this agent's, else stopped. */
      early?: EarlyAgent;
    } = {},
  ): Promise<AgentConnection> {
    const entry = typeof agent === 'string' ? this.catalog.require(agent) : agent;
    const early = options.early;
    const adopt =
      early?.matches({ spec: entry, cwd: options.cwd, env: this.options.env, passEnv: this.passEnv }) ===
      true;
    if (early && !adopt) void early.discard();
    const connectionOptions: AgentConnectionOptions = {
      agent: entry,
      policy: this.policy,
      ruleStore: this.rules,
      ...(options.cwd ? { cwd: options.cwd } : {}),
      ...(this.options.env ? { env: this.options.env } : {}),
      passEnv: this.passEnv,
      ...(this.options.host ? { host: this.options.host } : {}),
      ...(this.options.record !== false ? { transcripts: this.transcripts } : {}),
      ...(this.options.trace !== undefined ? { trace: this.options.trace } : {}),
      ...(this.options.logger ? { logger: this.options.logger } : {}),
      ...(this.options.stallMs !== undefined ? { stallMs: this.options.stallMs } : {}),
      ...(this.options.timeouts ? { timeouts: this.options.timeouts } : {}),
      ...(this.options.fs ? { fs: this.options.fs } : {}),
      ...(this.options.terminals ? { terminals: this.options.terminals } : {}),
      ...(this.options.terminalAuth !== undefined ? { terminalAuth: this.options.terminalAuth } : {}),
      ...(this.options.coalesceReadsMs ? { coalesceReadsMs: this.options.coalesceReadsMs } : {}),
      ...(this.options.protocolVersion ? { protocolVersion: this.options.protocolVersion } : {}),
      ...(early && adopt ? { early } : {}),
    };
    let connection: AgentConnection;
    let created: AgentConnection | undefined;
    const abort = (): void => void created?.close();
    options.signal?.addEventListener('abort', abort, { once: true });
    try {
      // Registered before it starts, so that close() and kill() reach an agent still starting.
      connection = await AgentConnection.start(connectionOptions, (started) => {
        created = started;
        this.connections.add(started);
        options.onCreated?.(started);
        if (options.signal?.aborted) void started.close();
      });
    } catch (error) {
      if (created) this.connections.delete(created);
      if (error instanceof ClientError && error.code === 'AGENT_NOT_INSTALLED') {
        const how = entry.install ? `; install it with: ${entry.install}` : '';
        throw new ClientError('AGENT_NOT_INSTALLED', `${entry.name}: ${error.message}${how}`, {
          ...error.details,
          agent: entry.id,
        });
      }
      throw error;
    } finally {
      options.signal?.removeEventListener('abort', abort);
      // Not taken when the start ended before the process was needed: it must not outlive that.
      void early?.discard();
    }
    connection.events.on('exit', ({ expected }) => {
      if (expected) this.connections.delete(connection);
    });
    return connection;
  }

  /**
   * Reopens a stored session (by local id, unique prefix, or agent session id) with its agent, or
   * with `agent` instead: resumed or loaded when that agent can, else continued from our transcript.
   * `mcpServers` are given to the reopened session as to a new one (an agent keeps none across a restart).
   */
  async reopen(
    id: string,
    options: { agent?: string | AgentEntry; cwd?: string } & ReattachOptions = {},
  ): Promise<ReopenedSession> {
    const meta = await this.transcripts.find(id);
    if (!meta) throw new ClientError('SESSION_NOT_FOUND', `no stored session matches ${id}`);
    const agent = options.agent ?? meta.agentId;
    if (!agent) throw new ClientError('INVALID_ARGUMENT', `session ${meta.localId} has no agent; choose one`);
    const session = await this.openStored(meta);
    let connection: AgentConnection;
    try {
      connection = await this.connect(agent, { cwd: options.cwd ?? meta.cwd });
    } catch (error) {
      await session.close();
      throw error;
    }
    try {
      const how = await connection.reattach(
        session,
        {
          ...(meta.agentId ? { agentId: meta.agentId } : {}),
          ...(meta.agentSessionId ? { agentSessionId: meta.agentSessionId } : {}),
        },
        options.mcpServers ? { mcpServers: options.mcpServers } : {},
      );
      return { connection, session, how };
    } catch (error) {
      await session.close();
      await connection.close();
      throw error;
    }
  }

  /**
   * Reads a stored session (by local id, unique prefix, or agent session id) into a detached
   * {@link ClientSession} that appends to its record; attach it with `connection.reattach(session, meta)`.
   */
  async loadStored(id: string): Promise<{ meta: SessionMeta; session: ClientSession }> {
    const meta = await this.transcripts.find(id);
    if (!meta) throw new ClientError('SESSION_NOT_FOUND', `no stored session matches ${id}`);
    return { meta, session: await this.openStored(meta) };
  }

  /** The session with this local id, among those attached to this client's agents. */
  session(localId: string): ClientSession | undefined {
    for (const connection of this.connections) {
      const session = connection.findSession(localId);
      if (session) return session;
    }
    return undefined;
  }

  /**
   * The rules remembered for sessions ("for this session" answers) of the sessions attached to this
   * client's agents, or of the one with `localId`. They end with their session.
   */
  sessionRules(localId?: string): SessionRule[] {
    const sessions =
      localId === undefined
        ? [...this.connections].flatMap((connection) => connection.attachedSessions)
        : [this.session(localId)].filter((session): session is ClientSession => session !== undefined);
    return sessions.flatMap((session) =>
      session.sessionRules.map((rule) => ({ localId: session.localId, rule })),
    );
  }

  /** Forgets a rule of the session with `localId` (by id or unique id prefix); returns it, or undefined. */
  removeSessionRule(localId: string, idOrPrefix: string): PermissionRule | undefined {
    return this.session(localId)?.removeSessionRule(idOrPrefix);
  }

  /** A stored session, detached, appending to its record, its live feed starting with the end of its trace. */
  private async openStored(meta: SessionMeta): Promise<ClientSession> {
    const { state, record } = await this.transcripts.loadState(meta.localId);
    const writer = await this.transcripts.append(meta.localId, record);
    const session = new ClientSession(meta.localId, state, writer);
    // The recorded traffic is for show: a trace that cannot be read does not stop the reopening.
    const frames = await readTraceTail(this.transcripts.sessionDir(meta.localId), {
      maxFrames: RECENT_FRAMES,
      maxBytes: RECENT_FRAME_BYTES,
    }).catch(() => []);
    session.preloadFrames(frames);
    return session;
  }

  /**
   * Closes every connection this client started, agents still starting included (see
   * {@link AgentConnection.close}); `kill()` meanwhile hurries it.
   */
  async close(graceMs?: number): Promise<void> {
    await Promise.all([...this.connections].map((connection) => connection.close(graceMs)));
    this.connections.clear();
  }

  /** Kills every agent this client started, at once (see {@link AgentConnection.kill}), and closes. */
  async kill(): Promise<void> {
    const connections = [...this.connections];
    await Promise.all(connections.map((connection) => connection.kill()));
    await this.close(0);
  }
}
