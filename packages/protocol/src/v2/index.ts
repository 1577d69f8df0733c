/**
 * `@acp-kit/protocol/v2`: the ACP v2 draft on the same engine as v1, and the entries that speak
 * both: `serveAgent` (an agent answering each connection in the version it asks for) and
 * `connectAgent` (a client asking for v2 and continuing in v1 when the agent answers 1).
 *
 * Runtime-neutral. The engine, transports, errors and the v1 faces come from `@acp-kit/protocol`;
 * the v2 unstable schema from `@acp-kit/protocol/v2/unstable`. The draft may change in any release.
 */
export type * from '../schema/v2/types.gen.js';
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
} from '../schema/v2/methods.gen.js';
export * as validators from '../schema/v2/validators.gen.js';
export { AgentSideConnection, type AgentHandlers } from '../connection/v2/agent-side.js';
export { ClientSideConnection, type ClientHandlers } from '../connection/v2/client-side.js';
export {
  V2_AGENT_CAPABILITY_GATE,
  V2_CLIENT_CAPABILITY_GATE,
  assertV2AgentSupports,
} from '../connection/v2/capabilities.js';
export {
  PROTOCOL_VERSION_V2 as PROTOCOL_VERSION,
  UNSUPPORTED_PROTOCOL_VERSION_CODE,
  unsupportedProtocolVersion,
} from '../connection/v2/initialize.js';
export {
  serveAgent,
  type AgentVersions,
  type NegotiatedAgentConnection,
  type ServedAgent,
} from '../connection/negotiate/serve-agent.js';
export {
  connectAgent,
  type ClientVersions,
  type ConnectAgentOptions,
  type NegotiatedClientConnection,
} from '../connection/negotiate/connect-agent.js';
export { selectProtocolVersion, v1InitializeParams } from '../connection/negotiate/select-version.js';
export type { CapabilityGate, CapabilityRule } from '../connection/capability-gate.js';
