/**
 * MCP-over-ACP (unstable): an MCP server declared as `{ type: "acp", name, serverId }` in
 * `session/new` is reached through the ACP connection itself. The consumer (the agent) sends each
 * inner MCP request as an `mcp/message` request; the provider (the client, which hosts the server)
 * answers with the inner outcome inside a successful result, and may send `mcp/message`
 * notifications scoped to a request still running (progress, subscription events). Cancelling an
 * inner request is cancelling its outer request (`$/cancel_request`, through the request's signal).
 *
 * Typed helpers over a connection created with `{ unstable: true }`; either side may use either
 * helper, the schema only fixes who usually does.
 */
import type { RequestOptions } from '../jsonrpc/connection-types.js';
import type {
  McpCapabilities,
  McpError,
  McpServer,
  MessageMcpNotification,
  MessageMcpRequest,
  MessageMcpResponse,
} from '../schema/unstable/types.gen.js';
import type { HandlerContext, TypedConnection } from './typed-connection.js';

/** The ACP method carrying inner MCP requests and request-scoped notifications. */
export const MCP_MESSAGE_METHOD = 'mcp/message';

/** The only inner MCP revision of the binding: stateless MCP, no `initialize`. */
export const MCP_OVER_ACP_PROTOCOL_VERSION = '2026-07-28';

/** Inner `params._meta` keys every inner request of MCP 2026-07-28 carries. */
export const MCP_REQUEST_META = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
} as const;

/**
 * Outer ACP error codes of the binding. An inner MCP error is never one of these: it travels in a
 * successful `mcp/message` result as `{ error }`.
 */
export const McpBindingErrorCode = {
  /** Malformed envelope, or a `(serverId, requestId)` already active. */
  invalidParams: -32602,
  /** The outer request was cancelled. */
  requestCancelled: -32800,
  /** Too many active requests for the server. */
  resourceLimitExceeded: -33000,
  /** No server is registered under `serverId` on this connection. */
  serverUnavailable: -33001,
  /** The server or its transport failed without an MCP outcome. */
  backendFailed: -33002,
} as const;

/** The inner outcome of one `mcp/message` request, narrowed: a result, or an inner MCP error. */
export type McpOutcome = { result: unknown } | { error: McpError };

/** Whether a `session/new` MCP server entry is one provided over the ACP connection. */
export function isAcpMcpServer(server: unknown): server is Extract<McpServer, { type: 'acp' }> {
  const s = server as { type?: unknown; serverId?: unknown; name?: unknown };
  return s.type === 'acp' && typeof s.serverId === 'string' && typeof s.name === 'string';
}

/** Whether an agent that advertised `mcpCapabilities` accepts `type: "acp"` servers. */
export function acceptsAcpMcpServers(mcp: McpCapabilities | null | undefined): boolean {
  return mcp?.acp === true;
}

/**
 * Reads the inner outcome of a successful `mcp/message` result; `result` wins when both are set
 * (as the schema says receivers must).
 */
export function mcpOutcome(response: MessageMcpResponse): McpOutcome {
  if ('result' in response) return { result: response.result };
  return { error: response.error };
}

/**
 * Sends one inner MCP request to the server `params.serverId` of the peer. Aborting
 * `options.signal` cancels the inner request (the outer one is cancelled with `$/cancel_request`).
 *
 * @example
 * const outcome = await requestMcpMessage(conn, {
 *   serverId, requestId: 'r1', method: 'tools/list',
 *   params: { _meta: { [MCP_REQUEST_META.protocolVersion]: MCP_OVER_ACP_PROTOCOL_VERSION, [MCP_REQUEST_META.clientCapabilities]: {} } },
 * });
 */
export async function requestMcpMessage(
  connection: TypedConnection,
  params: MessageMcpRequest,
  options?: RequestOptions,
): Promise<McpOutcome> {
  const response = (await connection.unstableRequest(
    MCP_MESSAGE_METHOD,
    params,
    options,
  )) as MessageMcpResponse;
  return mcpOutcome(response);
}

/** Sends an inner MCP notification scoped to the running inner request `params.requestId`. */
export function notifyMcpMessage(connection: TypedConnection, params: MessageMcpNotification): Promise<void> {
  return connection.unstableNotification(MCP_MESSAGE_METHOD, params);
}

/**
 * Serves the peer's `mcp/message` requests. The handler's `ctx.signal` aborts when the peer cancels
 * the inner request; throw a `ProtocolError` with a {@link McpBindingErrorCode} for binding failures.
 */
export function handleMcpMessageRequests(
  connection: TypedConnection,
  handler: (params: MessageMcpRequest, ctx: HandlerContext) => McpOutcome | Promise<McpOutcome>,
): void {
  connection.onUnstableRequest(MCP_MESSAGE_METHOD, (params, ctx) =>
    handler(params as MessageMcpRequest, ctx),
  );
}

/** Receives the peer's `mcp/message` notifications (scoped to our running inner requests). */
export function handleMcpMessageNotifications(
  connection: TypedConnection,
  handler: (params: MessageMcpNotification) => unknown,
): void {
  connection.onUnstableNotification(MCP_MESSAGE_METHOD, (params) =>
    handler(params as MessageMcpNotification),
  );
}
