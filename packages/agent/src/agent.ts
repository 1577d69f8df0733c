/**
 * The ACP agent: every session method, shared by the model agent and the demo agent, which differ
 * only in their {@link TurnEngine}.
 */
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import {
  AgentSideConnection,
  ErrorCodes,
  PROTOCOL_VERSION,
  ProtocolError,
  type AgentHandlers,
  type ByteChannel,
  type ContentBlock,
  type AuthenticateRequest,
  type AuthenticateResponse,
  type CloseSessionRequest,
  type DeleteSessionRequest,
  type HandlerContext,
  type InitializeResponse,
  type ListSessionsRequest,
  type ListSessionsResponse,
  type LoadSessionRequest,
  type LoadSessionResponse,
  type Logger,
  type McpServer,
  type NewSessionRequest,
  type NewSessionResponse,
  type PromptRequest,
  type PromptResponse,
  type ResumeSessionRequest,
  type ResumeSessionResponse,
  type SetSessionConfigOptionRequest,
  type SetSessionConfigOptionResponse,
  type SetSessionModeRequest,
  type StopReason,
} from '@acp-kit/protocol';
import { isModeId } from './modes/modes.js';
import { COMMANDS, parseCommand, runCommand } from './session/commands.js';
import { replayUpdates } from './session/replay.js';
import type { Session } from './session/session.js';
import { SessionRegistry } from './session/sessions.js';
import { InvalidCursorError, SessionStore } from './session/store.js';
import { Turn, promptText, type TurnEngine } from './session/turn.js';
import { builtinTools } from './tools/builtin.js';
import { ToolRunner } from './tools/runner.js';
import type { AgentTool } from './tools/types.js';
import { raceAbort } from './util/abort.js';
import { invalidParams } from './util/errors.js';
import { silentLogger } from './util/logger.js';
import { AGENT_VERSION } from './version.js';

/** Unstable MCP-over-ACP: `type: "acp"` servers (the stable schema has no `acp` flag, hence a spread). */
const ACP_MCP_CAPABILITY = { acp: true };

/** Starts a session's MCP servers and hands back their tools (see `mcp/`). */
export interface McpConnector {
  /** Connects to `servers`; failures are reported by `report`, never thrown. */
  start(session: Session, servers: readonly McpServer[]): McpSessionHandle;
}

/** The MCP servers of one session. */
export interface McpSessionHandle {
  /** Resolves once every server connected or failed. */
  readonly ready: Promise<void>;
  /** Tools of the servers that connected. */
  tools(): AgentTool[];
  /** Tells the user about servers that failed to start (after the session response). */
  report(): Promise<void>;
  stop(): Promise<void>;
}

export interface AgentOptions {
  engine: TurnEngine;
  /** Where sessions are stored (`resolveDataDir()`). */
  dataDir: string;
  logger?: Logger;
  mcp?: McpConnector;
  /** Sessions per `session/list` page (default 50). */
  listPageSize?: number;
  /** Check everything sent against the schema (tests; see `TypedConnectionOptions`). */
  validateOutgoing?: boolean;
}

/**
 * Serves ACP on `channel` until it closes.
 *
 * @example
 * const agent = serveAgent(stdioChannel(), { engine: new DemoEngine(), dataDir: resolveDataDir() });
 * await agent.closed;
 */
export function serveAgent(
  channel: ByteChannel,
  options: AgentOptions,
): { connection: AgentSideConnection; closed: Promise<void> } {
  let agent: AcpAgent | undefined;
  const connection = new AgentSideConnection(
    onInputEnd(channel, () => agent?.inputEnded()),
    (conn) => {
      agent = new AcpAgent(conn, options);
      return agent;
    },
    // Unstable schema: `type: "acp"` MCP servers and `mcp/message` (see mcp/acp-transport.ts).
    {
      logger: options.logger,
      peerName: 'client',
      validateOutgoing: options.validateOutgoing,
      unstable: true,
    },
  );
  connection.start();
  const closed = connection.closed.then(() => agent?.shutdown());
  return { connection, closed };
}

/**
 * `channel`, calling `onEnd` as soon as its input ends. The connection still answers what it has
 * received after that (a script may pipe requests in and read the answers), but the client will
 * send nothing more, not even `session/cancel`: running turns must not go on for it. Only `start`
 * is replaced, on the channel itself, so that everything else it offers stays as it is.
 */
function onInputEnd(channel: ByteChannel, onEnd: () => void): ByteChannel {
  const start = channel.start.bind(channel);
  channel.start = (sink) =>
    start({
      data: (chunk) => sink.data(chunk),
      end: (details) => {
        onEnd();
        sink.end(details);
      },
    });
  return channel;
}

/** The handlers of {@link AgentSideConnection}. */
export class AcpAgent implements AgentHandlers {
  private readonly engine: TurnEngine;
  private readonly sessions: SessionRegistry;
  private readonly logger: Logger;
  private readonly mcp = new Map<string, McpSessionHandle>();
  /** Aborted when the client's input ends: every turn, running or still to start, is cancelled. */
  private readonly inputEnd = new AbortController();

  constructor(
    private readonly connection: AgentSideConnection,
    private readonly options: AgentOptions,
  ) {
    this.engine = options.engine;
    this.logger = options.logger ?? silentLogger;
    this.sessions = new SessionRegistry({
      store: new SessionStore(options.dataDir, this.engine.kind, this.logger),
      connection,
      options: this.engine,
      initialConfig: () => this.engine.initialConfig(),
      logger: this.logger,
    });
  }

  initialize(): InitializeResponse {
    return {
      protocolVersion: PROTOCOL_VERSION,
      agentCapabilities: {
        loadSession: true,
        promptCapabilities: this.engine.promptCapabilities(),
        mcpCapabilities: { http: true, sse: true, ...ACP_MCP_CAPABILITY },
        sessionCapabilities: { list: {}, resume: {}, close: {}, delete: {}, additionalDirectories: {} },
      },
      authMethods: this.engine.authMethods(this.connection.clientCapabilities),
      agentInfo: { name: 'acp-kit-agent', title: this.engine.title, version: AGENT_VERSION },
    };
  }

  async authenticate(params: AuthenticateRequest, ctx: HandlerContext): Promise<AuthenticateResponse> {
    await this.engine.authenticate(params.methodId, {
      connection: this.connection,
      requestId: ctx.requestId,
      signal: ctx.signal,
    });
    return {};
  }

  async newSession(params: NewSessionRequest): Promise<NewSessionResponse> {
    this.engine.assertReady(this.connection.clientCapabilities);
    const session = await this.sessions.create(params.cwd, params.additionalDirectories);
    this.afterOpen(session, params.mcpServers);
    return { sessionId: session.id, modes: session.modeState(), configOptions: session.configOptions() };
  }

  async loadSession(params: LoadSessionRequest): Promise<LoadSessionResponse> {
    this.engine.assertReady(this.connection.clientCapabilities);
    const session = await this.sessions.reopen(params.sessionId, params.cwd, params.additionalDirectories);
    // The whole history goes out before the response, as session/load requires.
    for (const update of replayUpdates(this.sessions.store.readRecords(session.id))) {
      await session.replay(update);
    }
    this.afterOpen(session, params.mcpServers);
    return { modes: session.modeState(), configOptions: session.configOptions() };
  }

  async resumeSession(params: ResumeSessionRequest): Promise<ResumeSessionResponse> {
    this.engine.assertReady(this.connection.clientCapabilities);
    const session = await this.sessions.reopen(params.sessionId, params.cwd, params.additionalDirectories);
    this.afterOpen(session, params.mcpServers ?? []);
    return { modes: session.modeState(), configOptions: session.configOptions() };
  }

  listSessions(params: ListSessionsRequest): ListSessionsResponse {
    try {
      const page = this.sessions.store.list({
        // Stored cwds are normalised the same way (no trailing slash, no `..`).
        cwd: params.cwd ? resolve(params.cwd) : undefined,
        cursor: params.cursor,
        pageSize: this.options.listPageSize ?? 50,
      });
      return {
        sessions: page.sessions.map((meta) => ({
          sessionId: meta.sessionId,
          cwd: meta.cwd,
          additionalDirectories: meta.additionalDirectories,
          title: meta.title,
          updatedAt: meta.updatedAt,
        })),
        nextCursor: page.nextCursor ?? null,
      };
    } catch (error) {
      if (error instanceof InvalidCursorError)
        throw invalidParams('Unknown cursor: pass a nextCursor from session/list');
      throw error;
    }
  }

  async closeSession(params: CloseSessionRequest): Promise<Record<string, never>> {
    if (!(await this.closeLive(params.sessionId)) && !this.sessions.store.exists(params.sessionId)) {
      throw ProtocolError.resourceNotFound(`Unknown session ${params.sessionId}`, {
        sessionId: params.sessionId,
      });
    }
    return {};
  }

  async deleteSession(params: DeleteSessionRequest): Promise<Record<string, never>> {
    await this.closeLive(params.sessionId);
    if (!this.sessions.store.delete(params.sessionId)) {
      throw ProtocolError.resourceNotFound(`Unknown session ${params.sessionId}`, {
        sessionId: params.sessionId,
      });
    }
    return {};
  }

  async setSessionMode(params: SetSessionModeRequest): Promise<Record<string, never>> {
    const session = this.sessions.require(params.sessionId);
    if (!isModeId(params.modeId)) {
      throw invalidParams(`Unknown mode ${params.modeId}`);
    }
    await session.setMode(params.modeId);
    return {};
  }

  async setSessionConfigOption(
    params: SetSessionConfigOptionRequest,
  ): Promise<SetSessionConfigOptionResponse> {
    const session = this.sessions.require(params.sessionId);
    if (!(await session.setConfigOption(params.configId, params.value))) {
      throw invalidParams(`Unknown config option or value: ${params.configId} = ${String(params.value)}`);
    }
    return { configOptions: session.configOptions() };
  }

  async promptSession(params: PromptRequest, ctx: HandlerContext): Promise<PromptResponse> {
    const session = this.sessions.require(params.sessionId);
    if (session.turnRunning) {
      throw new ProtocolError(
        ErrorCodes.InvalidRequest,
        'A prompt is already running in this session; cancel it first',
      );
    }
    const stopReason = await session.runTurn(
      (signal) => this.runPrompt(session, params.prompt, signal),
      // A prompt read after the input ended starts cancelled.
      this.inputEnd.signal.aborted ? this.inputEnd.signal : ctx.signal,
    );
    return { stopReason };
  }

  cancelSession(params: { sessionId: string }): void {
    this.sessions.get(params.sessionId)?.cancel();
  }

  /** The client's input ended (it closed our stdin): cancel every turn at once. */
  inputEnded(): void {
    this.logger.log('info', 'input ended, cancelling running turns');
    this.inputEnd.abort();
    this.sessions.cancelAll();
  }

  /** The connection ended: stop every session's work and servers. */
  async shutdown(): Promise<void> {
    await this.sessions.closeAll();
    await Promise.all([...this.mcp.values()].map((handle) => handle.stop()));
    this.mcp.clear();
  }

  private async runPrompt(
    session: Session,
    prompt: ContentBlock[],
    signal: AbortSignal,
  ): Promise<StopReason> {
    // The prompt is history too: stored as the user message that load replays.
    const messageId = randomUUID();
    const at = new Date().toISOString();
    for (const content of prompt) {
      session.record({
        type: 'update',
        at,
        update: { sessionUpdate: 'user_message_chunk', messageId, content },
      });
    }
    await session.titleFromPrompt(promptText(prompt));
    const mcp = this.mcp.get(session.id);
    let stopReason: StopReason;
    try {
      // The first prompt may arrive while MCP servers are still starting; cancel still works.
      if (mcp) await raceAbort(mcp.ready, signal);
      const tools = new ToolRunner(session, [...builtinTools(), ...(mcp?.tools() ?? [])]);
      const turn = new Turn(session, prompt, signal, tools);
      const command = parseCommand(prompt);
      stopReason = command ? await runCommand(command, turn, this.engine) : await this.engine.runTurn(turn);
    } catch (error) {
      if (!signal.aborted) {
        if (!(error instanceof ProtocolError))
          this.logger.log('error', 'turn failed', { sessionId: session.id, error });
        await session.touch();
        throw error instanceof ProtocolError
          ? error
          : new ProtocolError(
              ErrorCodes.InternalError,
              `The agent failed: ${(error as Error).message ?? 'unknown error'}`,
            );
      }
      stopReason = 'cancelled';
    }
    if (signal.aborted) stopReason = 'cancelled';
    await session.touch();
    this.logger.log('debug', 'turn ended', { sessionId: session.id, stopReason });
    return stopReason;
  }

  /** After the response: advertise commands, start MCP servers, report those that failed. */
  private afterOpen(session: Session, servers: readonly McpServer[]): void {
    const previous = this.mcp.get(session.id);
    this.mcp.delete(session.id);
    const handle =
      this.options.mcp && servers.length > 0 ? this.options.mcp.start(session, servers) : undefined;
    if (handle) this.mcp.set(session.id, handle);
    session.onClose(async () => {
      if (this.mcp.get(session.id) === handle) this.mcp.delete(session.id);
      await handle?.stop();
    });
    // setImmediate runs after the response frame was written (it is written in a microtask).
    setImmediate(() => {
      void (async () => {
        await previous?.stop();
        if (session.isClosed) return;
        await session.emit({ sessionUpdate: 'available_commands_update', availableCommands: [...COMMANDS] });
        if (handle) {
          await handle.ready;
          if (!session.isClosed) await handle.report();
        }
      })().catch((error: unknown) => this.logger.log('warn', 'session announcement failed', { error }));
    });
  }

  private async closeLive(sessionId: string): Promise<boolean> {
    return this.sessions.close(sessionId);
  }
}
