/**
 * `@acp-kit/protocol`: the Agent Client Protocol (stable v1) wire layer for both sides.
 *
 * Runtime-neutral; Node transports (stdio, child processes) live in `@acp-kit/protocol/node`,
 * the unstable schema in `@acp-kit/protocol/unstable`.
 */
export * from './schema/index.js';
export * from './jsonrpc/index.js';
export * from './transport/index.js';
export * from './connection/index.js';
// Both the schema and the engine name these; the schema's definitions win.
export type { ErrorCode, RequestId } from './schema/index.js';
