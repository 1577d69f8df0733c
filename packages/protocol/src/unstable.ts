/**
 * The unstable ACP v1 schema: types, validators and method table. Opt in per connection with
 * `{ unstable: true }`; unstable features may change in any release.
 */
export type * from './schema/unstable/types.gen.js';
export {
  AGENT_METHODS,
  CLIENT_METHODS,
  PROTOCOL_METHODS,
  METHOD_TABLE,
  SCHEMA_SOURCE,
  type AgentRequests,
  type AgentNotifications,
  type ClientRequests,
  type ClientNotifications,
  type ProtocolNotifications,
} from './schema/unstable/methods.gen.js';
export * as validators from './schema/unstable/validators.gen.js';
export {
  MCP_MESSAGE_METHOD,
  MCP_OVER_ACP_PROTOCOL_VERSION,
  MCP_REQUEST_META,
  McpBindingErrorCode,
  acceptsAcpMcpServers,
  handleMcpMessageNotifications,
  handleMcpMessageRequests,
  isAcpMcpServer,
  mcpOutcome,
  notifyMcpMessage,
  requestMcpMessage,
  type McpOutcome,
} from './connection/mcp-over-acp.js';
export { PROXY_METHODS, wrapSuccessor, unwrapSuccessor, type WrappedMessage } from './proxy/envelope.js';
export {
  runProxy,
  type Forward,
  type InterceptedMessage,
  type Interceptor,
  type ProxyHandlers,
  type ProxyOptions,
  type ProxySender,
  type RunningProxy,
} from './proxy/proxy.js';
export { Conductor, type ChainComponent, type ChainEnd, type ConductorOptions } from './proxy/conductor.js';
