export type * from './types.gen.js';
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
  type MethodInfo,
} from './methods.gen.js';
export * as validators from './validators.gen.js';
export {
  FAIL,
  UNKNOWN_VARIANT,
  ParseContext,
  isUnknownVariant,
  parseWith,
  type Checker,
  type Diagnostic,
  type Parser,
  type ParseResult,
  type UnknownValue,
  type UnknownVariant,
  type ValidationIssue,
} from './runtime.js';
