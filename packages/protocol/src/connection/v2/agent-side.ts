/**
 * The agent's end of an ACP v2 (draft) connection: handles the client's requests and calls the
 * client. A thin face over the shared core ({@link TypedConnection}) and the one JSON-RPC engine.
 */
import type { JsonRpcConnection, RequestOptions } from '../../jsonrpc/connection.js';
import { ErrorCodes, ProtocolError } from '../../jsonrpc/errors.js';
import type { RequestId } from '../../jsonrpc/types.js';
import { METHOD_TABLE } from '../../schema/v2/methods.gen.js';
import type * as T from '../../schema/v2/types.gen.js';
import { METHOD_TABLE as UNSTABLE_METHOD_TABLE } from '../../schema/v2/unstable/methods.gen.js';
import type { ByteChannel } from '../../transport/types.js';
import { InitializeGate } from '../initialize-gate.js';
import {
  TypedConnection,
  type ConnectionSpec,
  type HandlerContext,
  type TypedConnectionOptions,
} from '../typed-connection.js';
import { V2_CLIENT_CAPABILITY_GATE } from './capabilities.js';
import { requestedProtocolVersion } from '../protocol-version.js';
import { PROTOCOL_VERSION_V2, v2InitializeParams } from './initialize.js';

type MaybePromise<T> = T | Promise<T>;

/**
 * What a v2 agent implements. Required: `initialize`, `newSession`, `promptSession`,
 * `cancelSession`. Optional methods left out answer -32601, except `cancelToolCall` and
 * `cancelTerminal`, which answer -32602 ("unknown or not cancellable", as the spec has it for a tool
 * call or terminal that does not advertise `capabilities.cancel`).
 */
export interface AgentHandlers {
  /** `params.protocolVersion` is 2; one asked for a newer version has been read as v2. */
  initialize(params: T.InitializeRequest, ctx: HandlerContext): MaybePromise<T.InitializeResponse>;
  login?(params: T.LoginAuthRequest, ctx: HandlerContext): MaybePromise<T.LoginAuthResponse>;
  logout?(params: T.LogoutAuthRequest, ctx: HandlerContext): MaybePromise<T.LogoutAuthResponse>;
  newSession(params: T.NewSessionRequest, ctx: HandlerContext): MaybePromise<T.NewSessionResponse>;
  listSessions?(params: T.ListSessionsRequest, ctx: HandlerContext): MaybePromise<T.ListSessionsResponse>;
  resumeSession?(params: T.ResumeSessionRequest, ctx: HandlerContext): MaybePromise<T.ResumeSessionResponse>;
  closeSession?(params: T.CloseSessionRequest, ctx: HandlerContext): MaybePromise<T.CloseSessionResponse>;
  deleteSession?(params: T.DeleteSessionRequest, ctx: HandlerContext): MaybePromise<T.DeleteSessionResponse>;
  setSessionConfigOption?(
    params: T.SetSessionConfigOptionRequest,
    ctx: HandlerContext,
  ): MaybePromise<T.SetSessionConfigOptionResponse>;
  /**
   * `session/prompt`: answer `{messageId}` once the user message is inserted, not when the turn
   * ends; progress and the end are `state_update`s.
   */
  promptSession(params: T.PromptRequest, ctx: HandlerContext): MaybePromise<T.PromptResponse>;
  /** `session/cancel`: runs as soon as it arrives, without waiting for earlier handlers. */
  cancelSession(params: T.CancelSessionNotification): MaybePromise<void>;
  /** `tool_call/cancel`, for tool calls that advertise `capabilities.cancel`. */
  cancelToolCall?(
    params: T.CancelToolCallRequest,
    ctx: HandlerContext,
  ): MaybePromise<T.CancelToolCallResponse>;
  /** `terminal/cancel`, for terminals that advertise `capabilities.cancel`. */
  cancelTerminal?(
    params: T.CancelTerminalRequest,
    ctx: HandlerContext,
  ): MaybePromise<T.CancelTerminalResponse>;
}

/** ACP v2, agent side: the schema and the client capabilities what we send needs. */
const V2_AGENT_SIDE: ConnectionSpec = {
  methods: { stable: METHOD_TABLE, unstable: UNSTABLE_METHOD_TABLE },
  capabilities: V2_CLIENT_CAPABILITY_GATE,
};

/**
 * The agent side of ACP v2 over a byte channel.
 *
 * `initialize` must come first, as in v1: a request before it is answered -32600 without reaching
 * its handler, one pipelined behind it waits for it. v2's own rules: `initialize` may be repeated
 * only before the first other request, one at a time and for version 2 or later (-32600
 * otherwise), and the latest successful one is authoritative; request ids must be strings or
 * integers. An `initialize` asking for version 1 or 0 is answered -32022 (UnsupportedProtocolVersion);
 * to serve v1 clients as well, use {@link serveAgent}.
 *
 * @example
 * const conn = new AgentSideConnection(stdioChannel(), (conn) => ({
 *   initialize: () => ({ protocolVersion: 2, info: { name: 'my-agent', version: '1.0.0' }, capabilities: { session: {} } }),
 *   newSession: () => ({ sessionId: 's1' }),
 *   promptSession: ({ sessionId }) => {
 *     void conn.sessionUpdate({ sessionId, update: { sessionUpdate: 'state_update', state: 'running' } });
 *     return { messageId: 'm1' };
 *   },
 *   cancelSession: () => {},
 * })).start();
 */
export class AgentSideConnection extends TypedConnection {
  /** What the client advertised in its latest successful `initialize` (undefined before it). */
  clientCapabilities: T.ClientCapabilities | undefined;
  /** Who the client said it is in its latest successful `initialize`. */
  clientInfo: T.Implementation | undefined;
  private readonly initializeGate = new InitializeGate({
    strictRepeat: { minRepeatVersion: PROTOCOL_VERSION_V2 },
  });

  /**
   * @param transport the channel to the client, or (from {@link serveAgent}) the engine that read
   *   the client's first `initialize`.
   */
  constructor(
    transport: ByteChannel | JsonRpcConnection,
    handlers: AgentHandlers | ((connection: AgentSideConnection) => AgentHandlers),
    options: TypedConnectionOptions = {},
  ) {
    super(transport, options, options.peerName ?? 'client', V2_AGENT_SIDE);
    const h = typeof handlers === 'function' ? handlers(this) : handlers;
    this.handleRequest(
      'initialize',
      (params: T.InitializeRequest, ctx: HandlerContext) =>
        this.initializeGate.track(() => this.initialize(h, params, ctx)),
      (params) => {
        const requested = requestedProtocolVersion(params);
        this.initializeGate.begin(requested);
        return v2InitializeParams(params as object, requested);
      },
    );
    this.handleRequest('auth/login', h.login?.bind(h));
    this.handleRequest('auth/logout', h.logout?.bind(h));
    this.handleRequest('session/new', h.newSession.bind(h));
    this.handleRequest('session/list', h.listSessions?.bind(h));
    this.handleRequest('session/resume', h.resumeSession?.bind(h));
    this.handleRequest('session/close', h.closeSession?.bind(h));
    this.handleRequest('session/delete', h.deleteSession?.bind(h));
    this.handleRequest('session/set_config_option', h.setSessionConfigOption?.bind(h));
    this.handleRequest('session/prompt', h.promptSession.bind(h));
    this.handleRequest(
      'tool_call/cancel',
      h.cancelToolCall?.bind(h) ??
        ((p: T.CancelToolCallRequest) => notCancellable('tool call', { toolCallId: p.toolCallId })),
    );
    this.handleRequest(
      'terminal/cancel',
      h.cancelTerminal?.bind(h) ??
        ((p: T.CancelTerminalRequest) => notCancellable('terminal', { terminalId: p.terminalId })),
    );
    // Not ordered: a cancel handler may wait for the turn to end, which needs later messages.
    this.handleNotification(
      'session/cancel',
      (params: T.CancelSessionNotification) =>
        this.initializeGate.isInitialized ? h.cancelSession(params) : undefined,
      false,
    );
  }

  /** Runs the handler; the client's capabilities and info take effect when it succeeds. */
  private initialize(
    h: AgentHandlers,
    params: T.InitializeRequest,
    ctx: HandlerContext,
  ): MaybePromise<T.InitializeResponse> {
    const adopt = (response: T.InitializeResponse): T.InitializeResponse => {
      this.clientCapabilities = params.capabilities ?? {};
      this.clientInfo = params.info;
      return response;
    };
    const result = h.initialize(params, ctx);
    return result instanceof Promise ? result.then(adopt) : adopt(result);
  }

  protected override admitRequest(method: string, id: RequestId): Promise<void> | undefined {
    if (typeof id === 'number' && !Number.isInteger(id)) {
      throw new ProtocolError(ErrorCodes.InvalidRequest, 'ACP v2 request ids must be strings or integers');
    }
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
   * waits while the client reads slowly.
   */
  sessionUpdate(params: T.UpdateSessionNotification): Promise<void> {
    return this.send('session/update', params);
  }

  /** Asks the user for permission. A `cancelled` outcome means: do not run the tool. */
  requestPermission(
    params: T.RequestPermissionRequest,
    options?: RequestOptions,
  ): Promise<T.RequestPermissionResponse> {
    return this.call('session/request_permission', params, options);
  }

  /** Asks the user for structured input. Needs `capabilities.elicitation.form` or `.url`. */
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

function notCancellable(label: string, data: Record<string, string>): never {
  throw new ProtocolError(ErrorCodes.InvalidParams, `the ${label} is unknown or not cancellable`, data);
}
