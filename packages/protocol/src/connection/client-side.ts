/**
 * The client's end of an ACP v1 connection: calls the agent and serves its fs, terminal and
 * permission requests.
 */
import type { JsonRpcConnection, RequestOptions } from '../jsonrpc/connection.js';
import { METHOD_TABLE } from '../schema/methods.gen.js';
import type * as T from '../schema/types.gen.js';
import { METHOD_TABLE as UNSTABLE_METHOD_TABLE } from '../schema/unstable/methods.gen.js';
import type { ByteChannel } from '../transport/types.js';
import { V1_AGENT_CAPABILITY_GATE } from './capabilities.js';
import { unsupportedAnswer } from './protocol-version.js';
import {
  ADOPT_INITIALIZE,
  TypedConnection,
  type ConnectionSpec,
  type HandlerContext,
  type TypedConnectionOptions,
} from './typed-connection.js';

type MaybePromise<T> = T | Promise<T>;

/** The ACP major version of this face (v1; `@acp-kit/protocol/v2` has the v2 draft). */
export const PROTOCOL_VERSION = 1;

/** ACP v1, client side: the schema and the agent capabilities what we send needs. */
const V1_CLIENT_SIDE: ConnectionSpec = {
  methods: { stable: METHOD_TABLE, unstable: UNSTABLE_METHOD_TABLE },
  capabilities: V1_AGENT_CAPABILITY_GATE,
};

/**
 * What a client implements. Required: `sessionUpdate` and `requestPermission`. Optional methods
 * left out answer -32601; advertise in `initialize` only what you implement.
 */
export interface ClientHandlers {
  /** `session/update`. Runs in wire order; do not await a response from the agent in here. */
  sessionUpdate(params: T.SessionNotification): MaybePromise<void>;
  requestPermission(
    params: T.RequestPermissionRequest,
    ctx: HandlerContext,
  ): MaybePromise<T.RequestPermissionResponse>;
  readTextFile?(params: T.ReadTextFileRequest, ctx: HandlerContext): MaybePromise<T.ReadTextFileResponse>;
  writeTextFile?(params: T.WriteTextFileRequest, ctx: HandlerContext): MaybePromise<T.WriteTextFileResponse>;
  createTerminal?(
    params: T.CreateTerminalRequest,
    ctx: HandlerContext,
  ): MaybePromise<T.CreateTerminalResponse>;
  terminalOutput?(
    params: T.TerminalOutputRequest,
    ctx: HandlerContext,
  ): MaybePromise<T.TerminalOutputResponse>;
  waitForTerminalExit?(
    params: T.WaitForTerminalExitRequest,
    ctx: HandlerContext,
  ): MaybePromise<T.WaitForTerminalExitResponse>;
  killTerminal?(params: T.KillTerminalRequest, ctx: HandlerContext): MaybePromise<T.KillTerminalResponse>;
  releaseTerminal?(
    params: T.ReleaseTerminalRequest,
    ctx: HandlerContext,
  ): MaybePromise<T.ReleaseTerminalResponse>;
  createElicitation?(
    params: T.CreateElicitationRequest,
    ctx: HandlerContext,
  ): MaybePromise<T.CreateElicitationResponse>;
  completeElicitation?(params: T.CompleteElicitationNotification): MaybePromise<void>;
}

/**
 * The client side of ACP over a byte channel.
 *
 * @example
 * const agent = spawnPeer('my-agent', ['--acp']);
 * const conn = new ClientSideConnection(agent.channel, {
 *   sessionUpdate: ({ update }) => render(update),
 *   requestPermission: async ({ options }) => ({ outcome: { outcome: 'selected', optionId: options[0]!.optionId } }),
 * }).start();
 * await conn.initialize({ protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} });
 * const { sessionId } = await conn.newSession({ cwd: process.cwd(), mcpServers: [] });
 * const { stopReason } = await conn.promptSession({ sessionId, prompt: [{ type: 'text', text: 'hi' }] });
 */
export class ClientSideConnection extends TypedConnection {
  /** The agent's answer to `initialize` (undefined before it). */
  initializeResponse: T.InitializeResponse | undefined;

  /**
   * @param transport the channel to the agent, or (from {@link connectAgent}) the engine that
   *   already carried the `initialize` exchange.
   */
  constructor(
    transport: ByteChannel | JsonRpcConnection,
    handlers: ClientHandlers | ((connection: ClientSideConnection) => ClientHandlers),
    options: TypedConnectionOptions = {},
  ) {
    super(transport, options, options.peerName ?? 'agent', V1_CLIENT_SIDE);
    const h = typeof handlers === 'function' ? handlers(this) : handlers;
    this.handleNotification('session/update', h.sessionUpdate.bind(h));
    this.handleRequest('session/request_permission', h.requestPermission.bind(h));
    this.handleRequest('fs/read_text_file', h.readTextFile?.bind(h));
    this.handleRequest('fs/write_text_file', h.writeTextFile?.bind(h));
    this.handleRequest('terminal/create', h.createTerminal?.bind(h));
    this.handleRequest('terminal/output', h.terminalOutput?.bind(h));
    this.handleRequest('terminal/wait_for_exit', h.waitForTerminalExit?.bind(h));
    this.handleRequest('terminal/kill', h.killTerminal?.bind(h));
    this.handleRequest('terminal/release', h.releaseTerminal?.bind(h));
    this.handleRequest('elicitation/create', h.createElicitation?.bind(h));
    this.handleNotification('elicitation/complete', h.completeElicitation?.bind(h));
  }

  /** Starts reading from the channel. Call once, after construction. */
  start(): this {
    this.rpc.start();
    return this;
  }

  /** What the agent advertised (empty before `initialize`). */
  get agentCapabilities(): T.AgentCapabilities {
    return this.initializeResponse?.agentCapabilities ?? {};
  }

  protected override peerCapabilities(): unknown {
    return this.initializeResponse?.agentCapabilities;
  }

  /**
   * `initialize`. Throws UNSUPPORTED_PROTOCOL_VERSION when the agent answers a version we do not
   * speak; the caller should then disconnect and tell the user.
   */
  async initialize(params: T.InitializeRequest, options?: RequestOptions): Promise<T.InitializeResponse> {
    return this.accept(await this.call<T.InitializeResponse>('initialize', params, options));
  }

  /** @internal Takes the agent's answer to an `initialize` sent before this connection existed. */
  [ADOPT_INITIALIZE](result: unknown): T.InitializeResponse {
    return this.accept(this.parseIncoming('initialize', 'result', result) as T.InitializeResponse);
  }

  private accept(res: T.InitializeResponse): T.InitializeResponse {
    if (res.protocolVersion !== PROTOCOL_VERSION)
      throw unsupportedAnswer(res.protocolVersion, PROTOCOL_VERSION);
    this.initializeResponse = res;
    return res;
  }

  authenticate(params: T.AuthenticateRequest, options?: RequestOptions): Promise<T.AuthenticateResponse> {
    return this.call('authenticate', params, options);
  }

  /** Needs `auth.logout`. */
  logout(params: T.LogoutRequest, options?: RequestOptions): Promise<T.LogoutResponse> {
    return this.call('logout', params, options);
  }

  /** HTTP/SSE MCP servers and additional directories need the matching capabilities. */
  newSession(params: T.NewSessionRequest, options?: RequestOptions): Promise<T.NewSessionResponse> {
    return this.call('session/new', params, options);
  }

  /** Needs `loadSession`. The agent replays the history as `session/update`s before answering. */
  loadSession(params: T.LoadSessionRequest, options?: RequestOptions): Promise<T.LoadSessionResponse> {
    return this.call('session/load', params, options);
  }

  /** Needs `sessionCapabilities.list`. */
  listSessions(params: T.ListSessionsRequest, options?: RequestOptions): Promise<T.ListSessionsResponse> {
    return this.call('session/list', params, options);
  }

  /** Needs `sessionCapabilities.resume`. No history is replayed. */
  resumeSession(params: T.ResumeSessionRequest, options?: RequestOptions): Promise<T.ResumeSessionResponse> {
    return this.call('session/resume', params, options);
  }

  /** Needs `sessionCapabilities.close`. */
  closeSession(params: T.CloseSessionRequest, options?: RequestOptions): Promise<T.CloseSessionResponse> {
    return this.call('session/close', params, options);
  }

  /** Needs `sessionCapabilities.delete`. */
  deleteSession(params: T.DeleteSessionRequest, options?: RequestOptions): Promise<T.DeleteSessionResponse> {
    return this.call('session/delete', params, options);
  }

  setSessionMode(
    params: T.SetSessionModeRequest,
    options?: RequestOptions,
  ): Promise<T.SetSessionModeResponse> {
    return this.call('session/set_mode', params, options);
  }

  setSessionConfigOption(
    params: T.SetSessionConfigOptionRequest,
    options?: RequestOptions,
  ): Promise<T.SetSessionConfigOptionResponse> {
    return this.call('session/set_config_option', params, options);
  }

  /** `session/prompt`. Images, audio and embedded resources need the matching prompt capabilities. */
  promptSession(params: T.PromptRequest, options?: RequestOptions): Promise<T.PromptResponse> {
    return this.call('session/prompt', params, options);
  }

  /** `session/cancel`: the agent answers the pending prompt with `stopReason: "cancelled"`. */
  cancelSession(params: T.CancelNotification): Promise<void> {
    return this.send('session/cancel', params);
  }
}
