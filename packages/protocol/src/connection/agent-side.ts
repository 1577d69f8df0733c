/**
 * The agent's end of an ACP v1 connection: handles the client's requests and calls the client.
 */
import type { JsonRpcConnection, RequestOptions } from '../jsonrpc/connection.js';
import { METHOD_TABLE } from '../schema/methods.gen.js';
import type * as T from '../schema/types.gen.js';
import { METHOD_TABLE as UNSTABLE_METHOD_TABLE } from '../schema/unstable/methods.gen.js';
import type { ByteChannel } from '../transport/types.js';
import { V1_CLIENT_CAPABILITY_GATE } from './capabilities.js';
import { InitializeGate } from './initialize-gate.js';
import {
  TypedConnection,
  type ConnectionSpec,
  type HandlerContext,
  type TypedConnectionOptions,
} from './typed-connection.js';

type MaybePromise<T> = T | Promise<T>;

/**
 * What an agent implements. Required: `initialize`, `newSession`, `promptSession`, `cancelSession`.
 * Optional methods that are left out are answered with -32601 (method not found); advertise only
 * what you implement.
 */
export interface AgentHandlers {
  initialize(params: T.InitializeRequest, ctx: HandlerContext): MaybePromise<T.InitializeResponse>;
  authenticate?(params: T.AuthenticateRequest, ctx: HandlerContext): MaybePromise<T.AuthenticateResponse>;
  logout?(params: T.LogoutRequest, ctx: HandlerContext): MaybePromise<T.LogoutResponse>;
  newSession(params: T.NewSessionRequest, ctx: HandlerContext): MaybePromise<T.NewSessionResponse>;
  loadSession?(params: T.LoadSessionRequest, ctx: HandlerContext): MaybePromise<T.LoadSessionResponse>;
  listSessions?(params: T.ListSessionsRequest, ctx: HandlerContext): MaybePromise<T.ListSessionsResponse>;
  resumeSession?(params: T.ResumeSessionRequest, ctx: HandlerContext): MaybePromise<T.ResumeSessionResponse>;
  closeSession?(params: T.CloseSessionRequest, ctx: HandlerContext): MaybePromise<T.CloseSessionResponse>;
  deleteSession?(params: T.DeleteSessionRequest, ctx: HandlerContext): MaybePromise<T.DeleteSessionResponse>;
  setSessionMode?(
    params: T.SetSessionModeRequest,
    ctx: HandlerContext,
  ): MaybePromise<T.SetSessionModeResponse>;
  setSessionConfigOption?(
    params: T.SetSessionConfigOptionRequest,
    ctx: HandlerContext,
  ): MaybePromise<T.SetSessionConfigOptionResponse>;
  promptSession(params: T.PromptRequest, ctx: HandlerContext): MaybePromise<T.PromptResponse>;
  /**
   * `session/cancel`: stop work on the session and answer its pending prompt with `cancelled`.
   * It runs as soon as it arrives, without waiting for earlier handlers, and may await the turn's end.
   */
  cancelSession(params: T.CancelNotification): MaybePromise<void>;
}

export { NOT_INITIALIZED_MESSAGE } from './initialize-gate.js';

/** ACP v1, agent side: the schema and the client capabilities what we send needs. */
const V1_AGENT_SIDE: ConnectionSpec = {
  methods: { stable: METHOD_TABLE, unstable: UNSTABLE_METHOD_TABLE },
  capabilities: V1_CLIENT_CAPABILITY_GATE,
};

/**
 * The agent side of ACP over a byte channel.
 *
 * `initialize` must come first: a request received before it is answered -32600 (`data:
 * {method}`) without reaching its handler; one received while `initialize` is being handled
 * (pipelined) waits for it, then runs if it succeeded. Notifications before it are dropped.
 *
 * @example
 * const conn = new AgentSideConnection(stdioChannel(), (conn) => ({
 *   initialize: () => ({ protocolVersion: PROTOCOL_VERSION, agentCapabilities: {} }),
 *   newSession: () => ({ sessionId: 'abc' }),
 *   promptSession: async ({ sessionId }) => {
 *     await conn.sessionUpdate({ sessionId, update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Hi' } } });
 *     return { stopReason: 'end_turn' };
 *   },
 *   cancelSession: () => {},
 * }));
 * conn.start();
 */
export class AgentSideConnection extends TypedConnection {
  /** What the client advertised in `initialize` (undefined before it). */
  clientCapabilities: T.ClientCapabilities | undefined;
  /** Who the client said it is in `initialize`. */
  clientInfo: T.Implementation | null | undefined;
  private readonly initializeGate = new InitializeGate();

  /**
   * @param transport the channel to the client, or (from {@link serveAgent}) the engine that read
   *   the client's first `initialize`.
   */
  constructor(
    transport: ByteChannel | JsonRpcConnection,
    handlers: AgentHandlers | ((connection: AgentSideConnection) => AgentHandlers),
    options: TypedConnectionOptions = {},
  ) {
    super(transport, options, options.peerName ?? 'client', V1_AGENT_SIDE);
    const h = typeof handlers === 'function' ? handlers(this) : handlers;
    this.handleRequest('initialize', (params: T.InitializeRequest, ctx: HandlerContext) => {
      this.clientCapabilities = params.clientCapabilities ?? {};
      this.clientInfo = params.clientInfo;
      return this.initializeGate.track(() => h.initialize(params, ctx));
    });
    this.handleRequest('authenticate', h.authenticate?.bind(h));
    this.handleRequest('logout', h.logout?.bind(h));
    this.handleRequest('session/new', h.newSession.bind(h));
    this.handleRequest('session/load', h.loadSession?.bind(h));
    this.handleRequest('session/list', h.listSessions?.bind(h));
    this.handleRequest('session/resume', h.resumeSession?.bind(h));
    this.handleRequest('session/close', h.closeSession?.bind(h));
    this.handleRequest('session/delete', h.deleteSession?.bind(h));
    this.handleRequest('session/set_mode', h.setSessionMode?.bind(h));
    this.handleRequest('session/set_config_option', h.setSessionConfigOption?.bind(h));
    this.handleRequest('session/prompt', h.promptSession.bind(h));
    // Not ordered: a cancel handler may wait for the turn to end, which needs later messages.
    this.handleNotification(
      'session/cancel',
      (params: T.CancelNotification) =>
        this.initializeGate.isInitialized ? h.cancelSession(params) : undefined,
      false,
    );
  }

  protected override admitRequest(method: string): Promise<void> | undefined {
    return this.initializeGate.admit(method);
  }

  protected override peerCapabilities(): unknown {
    return this.clientCapabilities;
  }

  /** Starts reading from the channel. Call once, after construction. */
  start(): this {
    this.rpc.start();
    return this;
  }

  /**
   * Streams a `session/update` to the client. Await it: it resolves once the frame is written and
   * waits while the client reads slowly. `notice` and compaction updates need the client's capability.
   */
  sessionUpdate(params: T.SessionNotification): Promise<void> {
    return this.send('session/update', params);
  }

  /** Asks the user for permission. A `cancelled` outcome means: do not run the tool. */
  requestPermission(
    params: T.RequestPermissionRequest,
    options?: RequestOptions,
  ): Promise<T.RequestPermissionResponse> {
    return this.call('session/request_permission', params, options);
  }

  /** Reads a text file through the client (sees unsaved editor buffers). Needs `fs.readTextFile`. */
  readTextFile(params: T.ReadTextFileRequest, options?: RequestOptions): Promise<T.ReadTextFileResponse> {
    return this.call('fs/read_text_file', params, options);
  }

  /** Writes a text file through the client. Needs `fs.writeTextFile`. */
  writeTextFile(params: T.WriteTextFileRequest, options?: RequestOptions): Promise<T.WriteTextFileResponse> {
    return this.call('fs/write_text_file', params, options);
  }

  /**
   * Starts a command in a client terminal. Needs `terminal`. Always release the handle.
   *
   * @example
   * const term = await conn.createTerminal({ sessionId, command: 'npm', args: ['test'] });
   * try { await term.waitForExit(); return (await term.output()).output; } finally { await term.release(); }
   */
  async createTerminal(params: T.CreateTerminalRequest, options?: RequestOptions): Promise<TerminalHandle> {
    const res = await this.call<T.CreateTerminalResponse>('terminal/create', params, options);
    return new TerminalHandle(this, params.sessionId, res.terminalId);
  }

  /** `terminal/output`. Needs `terminal`. */
  terminalOutput(
    params: T.TerminalOutputRequest,
    options?: RequestOptions,
  ): Promise<T.TerminalOutputResponse> {
    return this.call('terminal/output', params, options);
  }

  /** `terminal/wait_for_exit`. Needs `terminal`. */
  waitForTerminalExit(
    params: T.WaitForTerminalExitRequest,
    options?: RequestOptions,
  ): Promise<T.WaitForTerminalExitResponse> {
    return this.call('terminal/wait_for_exit', params, options);
  }

  /** `terminal/kill`: stops the command, keeps the terminal. Needs `terminal`. */
  killTerminal(params: T.KillTerminalRequest, options?: RequestOptions): Promise<T.KillTerminalResponse> {
    return this.call('terminal/kill', params, options);
  }

  /** `terminal/release`: kills the command if running and frees the terminal. Needs `terminal`. */
  releaseTerminal(
    params: T.ReleaseTerminalRequest,
    options?: RequestOptions,
  ): Promise<T.ReleaseTerminalResponse> {
    return this.call('terminal/release', params, options);
  }

  /** Asks the user for structured input. Needs `elicitation.form` or `elicitation.url`. */
  createElicitation(
    params: T.CreateElicitationRequest,
    options?: RequestOptions,
  ): Promise<T.CreateElicitationResponse> {
    return this.call('elicitation/create', params, options);
  }

  /** Tells the client a URL-mode elicitation finished. */
  completeElicitation(params: T.CompleteElicitationNotification): Promise<void> {
    return this.send('elicitation/complete', params);
  }
}

/** A terminal created with {@link AgentSideConnection.createTerminal}. */
export class TerminalHandle {
  constructor(
    private readonly connection: AgentSideConnection,
    readonly sessionId: string,
    readonly id: string,
  ) {}

  output(): Promise<T.TerminalOutputResponse> {
    return this.connection.terminalOutput({ sessionId: this.sessionId, terminalId: this.id });
  }
  waitForExit(options?: RequestOptions): Promise<T.WaitForTerminalExitResponse> {
    return this.connection.waitForTerminalExit({ sessionId: this.sessionId, terminalId: this.id }, options);
  }
  kill(): Promise<T.KillTerminalResponse> {
    return this.connection.killTerminal({ sessionId: this.sessionId, terminalId: this.id });
  }
  release(): Promise<T.ReleaseTerminalResponse> {
    return this.connection.releaseTerminal({ sessionId: this.sessionId, terminalId: this.id });
  }
}
