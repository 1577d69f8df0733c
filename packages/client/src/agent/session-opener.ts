/**
 * Creating, loading, resuming and reattaching sessions on a connection, each only when the agent
 * advertised it, with continuity as the fallback.
 */
import { AcpKitError, type McpServer } from '@acp-kit/protocol';
import { resolve } from 'node:path';
import { ClientError } from '../errors.js';
import { redactCommandLine } from '../persistence/redact.js';
import type { TraceWriter } from '../persistence/trace.js';
import type { TranscriptStore } from '../persistence/transcript-store.js';
import { ClientSession, type ReplayMode } from '../session/client-session.js';
import { continuityBlock } from '../session/continuity.js';
import type { AttachMode } from '../session/events.js';
import type { OpenedSession } from '../session/agent-port.js';
import type { SessionLink } from '../session/session-link.js';
import { initialSessionState } from '../session/state.js';
import { newId } from '../util/ids.js';
import { describeLimit, IdleDeadline } from './timeouts.js';

/** Options of `newSession`. */
export interface NewSessionOptions {
  cwd: string;
  additionalDirectories?: string[];
  mcpServers?: McpServer[];
  /** An existing local session to attach (continuity); default: a new one. */
  session?: ClientSession;
  /**
   * Called with the local session before it is bound to the agent's, so that a listener of its
   * store sees every update (those an agent sends before its answer, a load's replay) in order.
   */
  onSession?: (session: ClientSession) => void;
}

/** Options of `reattach`. */
export interface ReattachOptions {
  /** The MCP servers to give the reattached session (as to a new one); default: none. */
  mcpServers?: McpServer[];
}

/** Options of `loadSession` / `resumeSession`. */
export interface OpenOptions extends NewSessionOptions {
  /** For `loadSession`: record the replayed history (default) or skip it (we have it already). */
  replay?: ReplayMode;
}

interface OpenerDeps {
  transcripts: TranscriptStore | undefined;
  openTrace(session: ClientSession): Promise<TraceWriter | undefined>;
  register(agentSessionId: string, session: ClientSession, trace: TraceWriter | undefined): void;
  unregister(agentSessionId: string): void;
  /** The `mcpServers` to send for `servers` (bridged over ACP when the agent takes that). */
  offerMcpServers(servers: readonly McpServer[], cwd: string): McpServer[];
  /** The bridged servers of `offered` belong to the session: they stop when it is detached. */
  claimMcpServers(agentSessionId: string, offered: readonly McpServer[]): void;
  /** The session was not opened: its bridged servers are not needed. */
  dropMcpServers(offered: readonly McpServer[]): void;
}

/** Session operations of a connection. */
export class SessionOpener {
  constructor(
    private readonly link: SessionLink,
    private readonly deps: OpenerDeps,
  ) {}

  async newSession(options: NewSessionOptions, how: AttachMode = 'new'): Promise<ClientSession> {
    const cwd = resolve(options.cwd);
    const dirs = (options.additionalDirectories ?? []).map((dir) => resolve(dir));
    const timeoutMs = this.link.timeouts.sessionOpenMs;
    const mcpServers = this.deps.offerMcpServers(options.mcpServers ?? [], cwd);
    const response = await this.guard('session/new', () =>
      this.link.port.newSession({ cwd, mcpServers, additionalDirectories: dirs }, { timeoutMs }),
    ).catch((error: unknown) => {
      this.deps.dropMcpServers(mcpServers);
      throw error;
    });
    this.deps.claimMcpServers(response.sessionId, mcpServers);
    const session = options.session ?? (await this.localSession(cwd, dirs));
    options.onSession?.(session);
    await this.attach(response.sessionId, session, how, response);
    return session;
  }

  async loadSession(agentSessionId: string, options: OpenOptions): Promise<ClientSession> {
    return this.open('load', agentSessionId, options);
  }

  async resumeSession(agentSessionId: string, options: OpenOptions): Promise<ClientSession> {
    return this.open('resume', agentSessionId, options);
  }

  async reattach(
    session: ClientSession,
    previous: { agentId?: string; agentSessionId?: string },
    options: ReattachOptions = {},
  ): Promise<AttachMode> {
    const state = session.state;
    const base = {
      cwd: state.cwd,
      additionalDirectories: [...state.additionalDirectories],
      session,
      // An agent keeps no MCP servers across a restart: resume, load and continuity declare them again.
      ...(options.mcpServers ? { mcpServers: options.mcpServers } : {}),
    };
    const features = this.link.port.features;
    // Stored agent ids are redacted (a command line loses its credentials): compare them so.
    const id = this.link.agent.id;
    const same = previous.agentId === id || previous.agentId === redactCommandLine(id);
    if (same && previous.agentSessionId) {
      if (features.resume) {
        const done = await this.attempt(() => this.open('resume', previous.agentSessionId as string, base));
        if (done) return 'resume';
      }
      if (features.load) {
        const done = await this.attempt(() =>
          this.open('load', previous.agentSessionId as string, { ...base, replay: 'skip-history' }),
        );
        if (done) return 'load';
      }
    }
    await this.newSession(base, 'continuity');
    session.setSeed(continuityBlock(state, { ...(previous.agentId ? { fromAgent: previous.agentId } : {}) }));
    return 'continuity';
  }

  private async open(
    how: 'load' | 'resume',
    agentSessionId: string,
    options: OpenOptions,
  ): Promise<ClientSession> {
    const cwd = resolve(options.cwd);
    const dirs = (options.additionalDirectories ?? []).map((dir) => resolve(dir));
    const created = options.session === undefined;
    const session = options.session ?? (await this.localSession(cwd, dirs));
    options.onSession?.(session);
    const trace = await this.deps.openTrace(session);
    this.deps.register(agentSessionId, session, trace);
    if (how === 'load') session.setReplay(options.replay ?? 'record');
    try {
      const setup = {
        cwd,
        mcpServers: this.deps.offerMcpServers(options.mcpServers ?? [], cwd),
        additionalDirectories: dirs,
      };
      // Claimed now: a failed open detaches the session (below), which stops them.
      this.deps.claimMcpServers(agentSessionId, setup.mcpServers);
      const port = this.link.port;
      const timeoutMs = this.link.timeouts.sessionOpenMs;
      const response =
        how === 'load'
          ? await this.replayed(session, timeoutMs, (signal) =>
              this.guard('session/load', () => port.loadSession(agentSessionId, setup, { signal })),
            )
          : await this.guard('session/resume', () =>
              port.resumeSession(agentSessionId, setup, { timeoutMs }),
            );
      session.markAttached(how, response);
      return session;
    } catch (error) {
      this.deps.unregister(agentSessionId);
      session.unbind();
      if (created) {
        // Nothing was opened: leave no empty record behind.
        await session.close().catch(() => undefined);
        await this.deps.transcripts?.delete(session.localId).catch(() => undefined);
      }
      throw error;
    } finally {
      session.setReplay(undefined);
    }
  }

  /** Runs an attempt; auth-required, a dead agent and a timeout propagate, other failures mean "try the next way". */
  private async attempt(work: () => Promise<unknown>): Promise<boolean> {
    try {
      await work();
      return true;
    } catch (error) {
      // An agent that did not answer in time would not answer the next way either.
      const fatal = ['AUTH_REQUIRED', 'AGENT_EXITED', 'REQUEST_TIMEOUT'];
      if (error instanceof ClientError && fatal.includes(error.code)) throw error;
      if (this.link.port.isClosed) throw error;
      this.link.logger?.log('info', 'could not reopen the agent session; trying the next way', {
        reason: error instanceof Error ? error.message : String(error),
      });
      return false;
    }
  }

  private async attach(
    agentSessionId: string,
    session: ClientSession,
    how: AttachMode,
    response: OpenedSession,
  ): Promise<void> {
    const trace = await this.deps.openTrace(session);
    this.deps.register(agentSessionId, session, trace);
    session.markAttached(how, response);
  }

  private async localSession(cwd: string, dirs: string[]): Promise<ClientSession> {
    const localId = newId('s');
    const state = initialSessionState(localId, cwd, dirs);
    const store = this.deps.transcripts;
    if (!store) return new ClientSession(localId, state);
    const now = new Date().toISOString();
    const writer = await store.create({
      version: 1,
      localId,
      agentId: this.link.agent.id,
      agentName: this.link.agent.name,
      cwd,
      additionalDirectories: dirs,
      createdAt: now,
      updatedAt: now,
      turns: 0,
      attachments: [],
    });
    return new ClientSession(localId, state, writer);
  }

  /**
   * `session/load`: it replays the whole history before answering, so its limit counts from the
   * last replayed update rather than from the request.
   */
  private async replayed<T>(
    session: ClientSession,
    timeoutMs: number,
    work: (signal: AbortSignal) => Promise<T>,
  ): Promise<T> {
    const deadline = new IdleDeadline(timeoutMs);
    const off = session.watchActivity(() => deadline.touch());
    try {
      return await work(deadline.signal);
    } catch (error) {
      throw deadline.expired ? this.timeoutError('session/load', timeoutMs) : error;
    } finally {
      off();
      deadline.clear();
    }
  }

  /** Runs a session request: -32000 becomes AUTH_REQUIRED, a timeout REQUEST_TIMEOUT naming the agent. */
  private async guard<T>(method: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (
        error instanceof AcpKitError &&
        !(error instanceof ClientError) &&
        error.code === 'REQUEST_TIMEOUT'
      ) {
        throw this.timeoutError(method, Number(error.details.timeoutMs));
      }
      throw this.link.authError(error) ?? error;
    }
  }

  private timeoutError(method: string, timeoutMs: number): ClientError {
    return new ClientError(
      'REQUEST_TIMEOUT',
      `${this.link.agent.name} did not answer ${method} within ${describeLimit(timeoutMs)}`,
      { method, timeoutMs },
    );
  }
}
