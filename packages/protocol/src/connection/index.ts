export {
  AgentSideConnection,
  NOT_INITIALIZED_MESSAGE,
  TerminalHandle,
  type AgentHandlers,
} from './agent-side.js';
export { ClientSideConnection, PROTOCOL_VERSION, type ClientHandlers } from './client-side.js';
export {
  TypedConnection,
  type ExtensionMethod,
  type HandlerContext,
  type TypedConnectionOptions,
  type ValidationReport,
} from './typed-connection.js';
export { assertAgentSupports, assertClientSupports, clientAccepts } from './capabilities.js';
