/**
 * Encoding of outbound JSON-RPC frames and checks on inbound envelopes. Frames are built by
 * concatenating `JSON.stringify` of the parts: one pass, no intermediate envelope object.
 */
import {
  AcpKitError,
  ErrorCodes,
  ProtocolError,
  describeClose,
  truncate,
  type CloseDetails,
} from './errors.js';
import type { RequestId } from './types.js';

/** Ids longer than this are refused: echoing a huge id back would echo the frame. */
export const MAX_ID_LENGTH = 1024;

/**
 * True for a JSON-RPC id the engine can echo from its parsed value: a string (bounded) or a number
 * that survives parsing exactly. A number beyond ±(2^53 − 1) may already have been rounded by
 * `JSON.parse` (2^53 + 1 reads as 2^53): the engine echoes such an id from the frame's text
 * (exact-id.ts).
 */
export function isRequestId(value: unknown): value is RequestId {
  return typeof value === 'number'
    ? Number.isFinite(value) && Math.abs(value) <= Number.MAX_SAFE_INTEGER
    : typeof value === 'string' && value.length <= MAX_ID_LENGTH;
}

/** An id as it may appear in a log line: a number, or a string cut to 64 characters. */
export function loggableId(value: unknown): RequestId | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  return typeof value === 'string' ? truncate(value, 64) : null;
}

/** Serialises a value or throws `INVALID_ARGUMENT` (BigInt, cycles, functions…). */
export function stringifyValue(value: unknown, what: string): string {
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch (error) {
    throw new AcpKitError('INVALID_ARGUMENT', `${what} is not JSON-serialisable`, {}, error);
  }
  if (json === undefined) throw new AcpKitError('INVALID_ARGUMENT', `${what} is not JSON-serialisable`);
  return json;
}

export function encodeRequest(id: number, method: string, params: unknown): string {
  const head = '{"jsonrpc":"2.0","id":' + id + ',"method":' + JSON.stringify(method);
  return params === undefined ? head + '}' : head + ',"params":' + stringifyValue(params, 'params') + '}';
}

export function encodeNotification(method: string, params: unknown): string {
  const head = '{"jsonrpc":"2.0","method":' + JSON.stringify(method);
  return params === undefined ? head + '}' : head + ',"params":' + stringifyValue(params, 'params') + '}';
}

/**
 * A success frame; throws when the result cannot be serialised. `undefined` becomes `null`.
 * `idText`: the id exactly as the peer wrote it, when its parsed value is not (exact-id.ts).
 */
export function encodeResult(id: RequestId, result: unknown, idText?: string): string {
  const json = result === undefined ? 'null' : stringifyValue(result, 'result');
  return '{"jsonrpc":"2.0","id":' + (idText ?? JSON.stringify(id)) + ',"result":' + json + '}';
}

/** An error frame; `data` is capped by `ProtocolError#toJSON`. Never throws. `idText`: as above. */
export function encodeError(id: RequestId | null, error: ProtocolError, idText?: string): string {
  let body: string;
  try {
    body = JSON.stringify(error.toJSON());
  } catch {
    body = JSON.stringify({ code: error.code, message: 'Internal error' });
  }
  const idJson = idText ?? (id === null ? 'null' : JSON.stringify(id));
  return '{"jsonrpc":"2.0","id":' + idJson + ',"error":' + body + '}';
}

/**
 * Checks a response envelope for a pending request: undefined when it carries a result (read it
 * from `message.result`), else the error to reject with. Nothing is allocated for a result.
 * `error: null` is read as absent (some JSON-RPC 1.0-style peers send it next to `result`).
 */
export function responseError(message: Record<string, unknown>, method: string): Error | undefined {
  if (message.jsonrpc !== '2.0') return invalidResponse(message, method, 'jsonrpc must be "2.0"');
  const hasResult = 'result' in message;
  const hasError = message.error !== undefined && message.error !== null;
  if (hasResult && hasError) return invalidResponse(message, method, 'it has both result and error');
  if (hasResult) return undefined;
  if (!hasError) return invalidResponse(message, method, 'it has neither result nor error');
  const error = message.error;
  if (typeof error !== 'object' || error === null || Array.isArray(error))
    return invalidResponse(message, method, 'malformed error');
  const { code, message: text, data } = error as Record<string, unknown>;
  if (typeof code !== 'number' || !Number.isInteger(code))
    return invalidResponse(message, method, 'error code is not an integer');
  const usableText = typeof text === 'string' ? text : `peer error ${code}`;
  return new ProtocolError(code, usableText, data);
}

function invalidResponse(message: Record<string, unknown>, method: string, reason: string): AcpKitError {
  return new AcpKitError('INVALID_RESPONSE', `invalid response to ${method}: ${reason}`, {
    method,
    id: message.id,
  });
}

/** The `-32600` sent for an envelope that is not a valid request. */
export function invalidRequest(note: string): ProtocolError {
  return new ProtocolError(ErrorCodes.InvalidRequest, 'Invalid request', { note });
}

/** The error pending work fails with when the channel ends with `details`. */
export function closeError(peerName: string, details: CloseDetails | undefined): AcpKitError {
  const cause = details?.cause;
  let code: AcpKitError['code'] = 'CONNECTION_CLOSED';
  if (cause instanceof AcpKitError) code = cause.code;
  else if (details && (typeof details.exitCode === 'number' || details.signal)) code = 'PEER_EXITED';
  return new AcpKitError(code, describeClose(peerName, details), { ...details }, cause);
}

export function badMethod(): AcpKitError {
  return new AcpKitError('INVALID_ARGUMENT', 'method must be a string');
}

/** `params`, when present, must be structured; `null` is tolerated as "no params". */
export function isParams(params: unknown): boolean {
  return params === undefined || params === null || typeof params === 'object';
}

export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    value !== null &&
    (typeof value === 'object' || typeof value === 'function') &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}
