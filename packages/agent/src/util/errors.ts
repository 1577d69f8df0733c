/** Wire errors with a message a user can read (the JSON-RPC message itself, not only `data`). */
import { ErrorCodes, ProtocolError } from '@acp-kit/protocol';

/** -32602 with `message` as the error message. */
export function invalidParams(message: string, data?: Record<string, unknown>): ProtocolError {
  return new ProtocolError(ErrorCodes.InvalidParams, message, data);
}
