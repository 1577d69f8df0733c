/**
 * The unstable ACP v2 draft schema: types, validators and method table. Opt in per connection with
 * `{ unstable: true }` (the v2 faces then validate against it and allow its methods through
 * `unstableRequest` and friends); unstable features may change in any release.
 */
export type * from '../schema/v2/unstable/types.gen.js';
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
} from '../schema/v2/unstable/methods.gen.js';
export * as validators from '../schema/v2/unstable/validators.gen.js';
