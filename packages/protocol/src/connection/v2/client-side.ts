/**
 * The client's end of an ACP v2 (draft) connection: calls the agent and answers its permission
 * and elicitation requests. v2 has no `fs/*` or `terminal/*` requests to the client: terminals are
 * the agent's and arrive as `terminal_update` / `terminal_output_chunk` session updates.
 */
import type { JsonRpcConnection, RequestOptions } from '../../jsonrpc/connection.js';
import { METHOD_TABLE } from '../../schema/v2/methods.gen.js';
import type * as T from '../../schema/v2/types.gen.js';
import { METHOD_TABLE as UNSTABLE_METHOD_TABLE } from '../../schema/v2/unstable/methods.gen.js';
import type { ByteChannel } from '../../transport/types.js';
import {
  ADOPT_INITIALIZE,
  TypedConnection,
  type ConnectionSpec,
  type HandlerContext,
  type TypedConnectionOptions,
} from '../typed-connection.js';
import { unsupportedAnswer } from '../protocol-version.js';
import { V2_AGENT_CAPABILITY_GATE } from './capabilities.js';
import { PROTOCOL_VERSION_V2 } from './initialize.js';

type MaybePromise<T> = T | Promise<T>;

/**
 * What a v2 client implements. Required: `sessionUpdate` and `requestPermission`. Optional methods
 * left out answer -32601; advertise in `initialize` only what you implement.
 */
export interface ClientHandlers {
  /** `session/update`. Runs in wire order; do not await a response from the agent in here. */
  sessionUpdate(params: T.UpdateSessionNotification): MaybePromise<void>;
  requestPermission(
    params: T.RequestPermissionRequest,
    ctx: HandlerContext,
  ): MaybePromise<T.RequestPermissionResponse>;
  createElicitation?(
    params: T.CreateElicitationRequest,
    ctx: HandlerContext,
  ): MaybePromise<T.CreateElicitationResponse>;
  completeElicitation?(params: T.CompleteElicitationNotification): MaybePromise<void>;
}

/** ACP v2, client side: the schema and the agent capabilities what we send needs. */
const V2_CLIENT_SIDE: ConnectionSpec = {
  methods: { stable: METHOD_TABLE, unstable: UNSTABLE_METHOD_TABLE },
  capabilities: V2_AGENT_CAPABILITY_GATE,
};

/**
 * The client side of ACP v2 over a byte channel. Every `session/*` method needs the agent's
 * `capabilities.session`; `auth/login` and `auth/logout` need a non-empty `authMethods`.
 * `cancelToolCall` / `cancelTerminal` are for tool calls and terminals whose updates advertise
 * `capabilities.cancel`: the application checks that, the connection cannot.
 *
 * @example
 * const conn = new ClientSideConnection(agent.channel, {
 *   sessionUpdate: ({ update }) => render(update),
 *   requestPermission: async ({ options }) => ({ outcome: { outcome: 'selected', optionId: options[0]!.optionId } }),
 * }).start();
 * await conn.initialize({ protocolVersion: 2, info: { name: 'my-client', version: '1.0.0' } });
 * const { sessionId } = await conn.newSession({ cwd: process.cwd() });
 * const { messageId } = await conn.promptSession({ sessionId, prompt: [{ type: 'text', text: 'hi' }] });
 * // ...the turn ends with a `state_update` whose state is `idle`.
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
    super(transport, options, options.peerName ?? 'agent', V2_CLIENT_SIDE);
    const h = typeof handlers === 'function' ? handlers(this) : handlers;
    this.handleNotification('session/update', h.sessionUpdate.bind(h));
    this.handleRequest('session/request_permission', h.requestPermission.bind(h));
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
    return this.initializeResponse?.capabilities ?? {};
  }

  protected override peerCapabilities(): unknown {
    return this.initializeResponse;
  }

  /** @internal Takes the agent's answer to an `initialize` sent before this connection existed. */
  [ADOPT_INITIALIZE](result: unknown): T.InitializeResponse {
    return this.accept(this.parseIncoming('initialize', 'result', result) as T.InitializeResponse);
  }

  private accept(response: T.InitializeResponse): T.InitializeResponse {
    if (response.protocolVersion !== PROTOCOL_VERSION_V2) {
      throw unsupportedAnswer(response.protocolVersion, PROTOCOL_VERSION_V2);
    }
    this.initializeResponse = response;
    return response;
  }

  /**
   * `initialize`. Throws UNSUPPORTED_PROTOCOL_VERSION when the agent answers a version other than
   * 2 (to speak v1 too, use {@link connectAgent}); a ProtocolError -32022 when it supports none
   * at or below the one asked.
   */
  async initialize(params: T.InitializeRequest, options?: RequestOptions): Promise<T.InitializeResponse> {
    return this.accept(await this.call<T.InitializeResponse>('initialize', params, options));
  }

  /** `auth/login`. Needs a non-empty `authMethods`. */
  login(params: T.LoginAuthRequest, options?: RequestOptions): Promise<T.LoginAuthResponse> {
    return this.call('auth/login', params, options);
  }

  /** `auth/logout`. Needs a non-empty `authMethods`. */
  logout(params: T.LogoutAuthRequest, options?: RequestOptions): Promise<T.LogoutAuthResponse> {
    return this.call('auth/logout', params, options);
  }

  /** MCP servers (stdio too, in v2) and additional directories need the matching capabilities. */
  newSession(params: T.NewSessionRequest, options?: RequestOptions): Promise<T.NewSessionResponse> {
    return this.call('session/new', params, options);
  }

  listSessions(params: T.ListSessionsRequest, options?: RequestOptions): Promise<T.ListSessionsResponse> {
    return this.call('session/list', params, options);
  }

  /** With `replayFrom`, the agent replays the retained history as `session/update`s. */
  resumeSession(params: T.ResumeSessionRequest, options?: RequestOptions): Promise<T.ResumeSessionResponse> {
    return this.call('session/resume', params, options);
  }

  closeSession(params: T.CloseSessionRequest, options?: RequestOptions): Promise<T.CloseSessionResponse> {
    return this.call('session/close', params, options);
  }

  /** Needs `capabilities.session.delete`. */
  deleteSession(params: T.DeleteSessionRequest, options?: RequestOptions): Promise<T.DeleteSessionResponse> {
    return this.call('session/delete', params, options);
  }

  setSessionConfigOption(
    params: T.SetSessionConfigOptionRequest,
    options?: RequestOptions,
  ): Promise<T.SetSessionConfigOptionResponse> {
    return this.call('session/set_config_option', params, options);
  }

  /**
   * `session/prompt`: resolves with the user message's id once the agent inserted it; the turn
   * goes on in `session/update`s and ends with a `state_update` to `idle`. Images, audio and
   * embedded resources need the matching `capabilities.session.prompt`.
   */
  promptSession(params: T.PromptRequest, options?: RequestOptions): Promise<T.PromptResponse> {
    return this.call('session/prompt', params, options);
  }

  /** `session/cancel`: stops the session's foreground work and its prompts not yet inserted. */
  cancelSession(params: T.CancelSessionNotification): Promise<void> {
    return this.send('session/cancel', params);
  }

  /** `tool_call/cancel`: only for a tool call whose latest update advertises `capabilities.cancel`. */
  cancelToolCall(
    params: T.CancelToolCallRequest,
    options?: RequestOptions,
  ): Promise<T.CancelToolCallResponse> {
    return this.call('tool_call/cancel', params, options);
  }

  /** `terminal/cancel`: only for a terminal whose latest update advertises `capabilities.cancel`. */
  cancelTerminal(
    params: T.CancelTerminalRequest,
    options?: RequestOptions,
  ): Promise<T.CancelTerminalResponse> {
    return this.call('terminal/cancel', params, options);
  }
}
