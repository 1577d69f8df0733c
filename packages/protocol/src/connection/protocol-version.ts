/**
 * Protocol versions, whatever the face: reading the version an `initialize` asks for, and the
 * local error of a client whose agent answers a version it does not speak.
 */
import { AcpKitError, ErrorCodes, ProtocolError } from '../jsonrpc/errors.js';

/** The `protocolVersion` an `initialize` asks for: an integer 0-65535, or -32602. */
export function requestedProtocolVersion(params: unknown): number {
  const v =
    typeof params === 'object' && params !== null && !Array.isArray(params)
      ? (params as { protocolVersion?: unknown }).protocolVersion
      : undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 0xffff) {
    throw new ProtocolError(ErrorCodes.InvalidParams, 'Invalid params', {
      path: 'params.protocolVersion',
      message: 'must be a protocol version (an integer from 0 to 65535)',
    });
  }
  return v;
}

/** UNSUPPORTED_PROTOCOL_VERSION: the agent answered `agentVersion`; this connection speaks `ours`. */
export function unsupportedAnswer(agentVersion: unknown, ours: number | readonly number[]): AcpKitError {
  const speaks = typeof ours === 'number' ? `version ${ours}` : `versions ${ours.join(' and ')}`;
  return new AcpKitError(
    'UNSUPPORTED_PROTOCOL_VERSION',
    `The agent speaks ACP version ${String(agentVersion)}; this client speaks ${speaks}`,
    { agentVersion, clientVersion: ours },
  );
}
