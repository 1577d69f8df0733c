/**
 * The agent, whatever protocol version its client speaks: sessions, turns, sign-in, cancels. A face
 * per version (`faces/v1`, `faces/v2`) turns its requests into these calls and its events into
 * updates; the model agent and the demo agent differ only in their {@link TurnEngine}.
 */
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { ErrorCodes, ProtocolError, type Logger } from '@acp-kit/protocol';
import { COMMANDS, parseCommand, runCommand } from '../session/commands.js';
import { replayEvents } from '../session/replay.js';
import type { Session } from '../session/session.js';
import { SessionRegistry } from '../session/sessions.js';
import { InvalidCursorError, SessionStore, type ListPage } from '../session/store.js';
import { Turn, promptText, type TurnEngine } from '../session/turn.js';
import { builtinTools } from '../tools/builtin.js';
import { ToolRunner } from '../tools/runner.js';
import type { AgentTool } from '../tools/types.js';
import { raceAbort } from '../util/abort.js';
import { invalidParams } from '../util/errors.js';
import { silentLogger } from '../util/logger.js';
import type { ClientPort } from './client-port.js';
import type { ConfigOption, ContentBlock, McpServer, StopReason } from './events.js';

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

/** A prompt that was inserted; `done` settles when its turn ends (rejects when it failed). */
export interface StartedPrompt {
  messageId: string;
  done: Promise<StopReason>;
}

/** How a session is opened again. */
export interface OpenOptions {
  sessionId: string;
  cwd: string;
  additionalDirectories: readonly string[] | undefined;
  mcpServers: readonly McpServer[];
  /** Send the whole history before answering. */
  replay: boolean;
}

/** The agent's side of one connection. */
export class AgentCore {
  readonly engine: TurnEngine;
  private readonly sessions: SessionRegistry;
  private readonly logger: Logger;
  private readonly mcp = new Map<string, McpSessionHandle>();
  /** Aborted when the client's input ends: every turn, running or still to start, is cancelled. */
  private readonly inputEnd = new AbortController();

  constructor(
    readonly client: ClientPort,
    private readonly options: AgentOptions,
  ) {
    this.engine = options.engine;
    this.logger = options.logger ?? silentLogger;
    this.sessions = new SessionRegistry({
      store: new SessionStore(options.dataDir, this.engine.kind, this.logger),
      client,
      options: this.engine,
      initialConfig: () => this.engine.initialConfig(),
      logger: this.logger,
    });
  }

  /** Signs in (`authenticate`, `auth/login`): throws -32000 while the agent is still not ready. */
  async authenticate(methodId: string, requestId: string | number, signal: AbortSignal): Promise<void> {
    await this.engine.authenticate(methodId, { client: this.client, requestId, signal });
  }

  /**
   * `logout` / `auth/logout`. The agent keeps no sign-in of its own to end: a model's key lives in
   * the config file or the environment, which it leaves alone (`acp agent setup` changes them).
   */
  logout(): void {
    this.logger.log('info', 'logout: nothing to sign out of; the configuration is left as it is');
  }

  async newSession(
    cwd: string,
    additionalDirectories: readonly string[] | undefined,
    mcpServers: readonly McpServer[],
  ): Promise<Session> {
    this.engine.assertReady(this.client.features);
    const session = await this.sessions.create(cwd, additionalDirectories);
    this.afterOpen(session, mcpServers);
    return session;
  }

  /** Opens a stored session again, replaying its history first when asked. */
  async openSession(options: OpenOptions): Promise<Session> {
    this.engine.assertReady(this.client.features);
    const session = await this.sessions.reopen(options.sessionId, options.cwd, options.additionalDirectories);
    if (options.replay) await session.replay(replayEvents(this.sessions.store.readRecords(session.id)));
    this.afterOpen(session, options.mcpServers);
    return session;
  }

  list(cwd: string | null | undefined, cursor: string | null | undefined): ListPage {
    try {
      return this.sessions.store.list({
        // Stored cwds are normalised the same way (no trailing slash, no `..`).
        cwd: cwd ? resolve(cwd) : undefined,
        cursor,
        pageSize: this.options.listPageSize ?? 50,
      });
    } catch (error) {
      if (error instanceof InvalidCursorError)
        throw invalidParams('Unknown cursor: pass a nextCursor from session/list');
      throw error;
    }
  }

  /** Closes a session (live or stored); -32002 for one that never existed. */
  async close(sessionId: string): Promise<void> {
    if (!(await this.sessions.close(sessionId)) && !this.sessions.store.exists(sessionId)) {
      throw ProtocolError.resourceNotFound(`Unknown session ${sessionId}`, { sessionId });
    }
  }

  async delete(sessionId: string): Promise<void> {
    await this.sessions.close(sessionId);
    if (!this.sessions.store.delete(sessionId)) {
      throw ProtocolError.resourceNotFound(`Unknown session ${sessionId}`, { sessionId });
    }
  }

  /** The live session, or -32002 telling the client to open it first. */
  session(sessionId: string): Session {
    return this.sessions.require(sessionId);
  }

  /** Sets a config option and answers the whole list; -32602 for an unknown option or value. */
  async setConfigOption(
    sessionId: string,
    configId: string,
    value: string | boolean,
  ): Promise<ConfigOption[]> {
    const session = this.sessions.require(sessionId);
    if (!(await session.setConfigOption(configId, value))) {
      throw invalidParams(`Unknown config option or value: ${configId} = ${String(value)}`);
    }
    return session.configOptions();
  }

  /**
   * Inserts the user's message (recorded and sent at once) and runs the turn. `abortWith` also
   * cancels it (a v1 client's `$/cancel_request` for its prompt).
   */
  prompt(sessionId: string, prompt: readonly ContentBlock[], abortWith?: AbortSignal): StartedPrompt {
    const session = this.sessions.require(sessionId);
    if (session.turnRunning) {
      throw new ProtocolError(
        ErrorCodes.InvalidRequest,
        'A prompt is already running in this session; cancel it first',
      );
    }
    const messageId = randomUUID();
    // A prompt read after the input ended starts cancelled.
    const signal = this.inputEnd.signal.aborted ? this.inputEnd.signal : abortWith;
    const done = session.runTurn(
      (turnSignal) => this.runPrompt(session, messageId, prompt, turnSignal),
      signal,
    );
    return { messageId, done };
  }

  cancel(sessionId: string): void {
    this.sessions.get(sessionId)?.cancel();
  }

  /** `tool_call/cancel`: -32602 when the call is unknown, final or not cancellable. */
  cancelToolCall(sessionId: string, toolCallId: string): void {
    if (!this.sessions.require(sessionId).cancelToolCall(toolCallId)) {
      throw invalidParams('The tool call is unknown, already finished or not cancellable', { toolCallId });
    }
  }

  /** `terminal/cancel`: -32602 when the terminal is unknown, has exited or is not cancellable. */
  cancelTerminal(sessionId: string, terminalId: string): void {
    if (!this.sessions.require(sessionId).terminals.cancel(terminalId)) {
      throw invalidParams('The terminal is unknown, has already exited or is not cancellable', {
        terminalId,
      });
    }
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
    messageId: string,
    prompt: readonly ContentBlock[],
    signal: AbortSignal,
  ): Promise<StopReason> {
    // Inserted first: the prompt is history too (a v2 client is told its id right away).
    await session.emit({ type: 'message', role: 'user', messageId, content: [...prompt] });
    await session.reportState('running');
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
        const failure =
          error instanceof ProtocolError
            ? error
            : new ProtocolError(
                ErrorCodes.InternalError,
                `The agent failed: ${(error as Error).message ?? 'unknown error'}`,
              );
        await session.touch();
        await session.reportState('idle', {
          stopReason: 'error',
          error: { code: failure.code, message: failure.message, data: failure.data },
        });
        throw failure;
      }
      stopReason = 'cancelled';
    }
    if (signal.aborted) stopReason = 'cancelled';
    await session.touch();
    await session.reportState('idle', { stopReason });
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
        await session.emit({ type: 'commands', commands: [...COMMANDS] });
        if (handle) {
          await handle.ready;
          if (!session.isClosed) await handle.report();
        }
      })().catch((error: unknown) => this.logger.log('warn', 'session announcement failed', { error }));
    });
  }
}
