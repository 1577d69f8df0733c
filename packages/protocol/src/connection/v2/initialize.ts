/**
 * ACP v2 version negotiation: the requested version, the `UnsupportedProtocolVersion` error, and
 * the `initialize` params a v2 agent's handler sees.
 */
import { ProtocolError } from '../../jsonrpc/errors.js';
import type { UnsupportedProtocolVersionErrorData } from '../../schema/v2/types.gen.js';
import { checkImplementation } from '../../schema/v2/validators.gen.js';

/** The protocol version of the v2 faces. */
export const PROTOCOL_VERSION_V2 = 2;

/** v2's error code for "no supported version at or below the requested one". */
export const UNSUPPORTED_PROTOCOL_VERSION_CODE = -32022;

/** Stands in for a missing or invalid `info` of an `initialize` written for a newer version. */
const UNKNOWN_IMPLEMENTATION = { name: 'unknown', version: 'unknown' };

/** The -32022 answer, with its typed data. */
export function unsupportedProtocolVersion(requested: number, supported: number[]): ProtocolError {
  const data: UnsupportedProtocolVersionErrorData = { requested, supported };
  return new ProtocolError(UNSUPPORTED_PROTOCOL_VERSION_CODE, 'Unsupported protocol version', data);
}

/**
 * The params of an `initialize` as a v2 agent's handler sees them: `protocolVersion` is 2 (the
 * version it answers in). One written for a newer version keeps what it can: a missing or invalid
 * `info` becomes `{name: "unknown", version: "unknown"}` (invalid capabilities are dropped field by
 * field by the lenient parser anyway). Below 2 it is the -32022 error.
 */
export function v2InitializeParams(params: object, requested: number): object {
  if (requested < PROTOCOL_VERSION_V2) {
    throw unsupportedProtocolVersion(requested, [PROTOCOL_VERSION_V2]);
  }
  const info = (params as { info?: unknown }).info;
  if (requested > PROTOCOL_VERSION_V2 && !checkImplementation(info)) {
    return { ...params, protocolVersion: PROTOCOL_VERSION_V2, info: UNKNOWN_IMPLEMENTATION };
  }
  return { ...params, protocolVersion: PROTOCOL_VERSION_V2 };
}
