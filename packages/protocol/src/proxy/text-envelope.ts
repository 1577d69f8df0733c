/**
 * The `proxy/successor` envelope and request ids, as text: the conductor and pass-through proxies
 * wrap and open envelopes without parsing what they carry (frame-scan.ts).
 */
import { ProtocolError } from '../jsonrpc/errors.js';
import { PROXY_METHODS } from './envelope.js';
import { innerFrame, paramsAllowed, paramsText, type ScannedFrame } from './frame-scan.js';

/** A message inside an envelope, as JSON texts. */
export interface MessageText {
  readonly methodJson: string;
  readonly params: string | undefined;
}

/** The params of a `proxy/successor` carrying `method` (JSON text) and `params` (JSON text). */
export function envelopeText(method: string, params: string | undefined): string {
  return params === undefined ? `{"method":${method}}` : `{"method":${method},"params":${params}}`;
}

/** Opens a `proxy/successor` envelope as text; -32602 as `unwrapSuccessor` says it. */
export function openEnvelope(frame: ScannedFrame): MessageText | ProtocolError {
  const inner = innerFrame(frame);
  const bad = (reason: string) =>
    ProtocolError.invalidParams({ method: PROXY_METHODS.proxy_successor, reason });
  if (!inner || inner.methodText === undefined || inner.badMethod)
    return bad('params must be an object with a string "method"');
  if (inner.params && !paramsAllowed(inner)) return bad('the wrapped "params" must be an object or an array');
  return { methodJson: inner.methodText, params: paramsText(inner) };
}

/** The key of a request id in the maps: its canonical JSON (`1.0` and `1` are the same id). */
export function idKey(idText: string): string {
  return idText.charCodeAt(0) === 34 ? idText : JSON.stringify(JSON.parse(idText));
}

/** The id value for `encodeError` (which writes `idText` itself when given). */
export function idOf(idText: string): string | number {
  return JSON.parse(idText) as string | number;
}

/** The key of the request a `$/cancel_request` names, or undefined when it names none. */
export function cancelledKey(frame: ScannedFrame): string | undefined {
  const params = paramsText(frame);
  if (params === undefined) return undefined;
  try {
    const requestId = (JSON.parse(params) as { requestId?: unknown }).requestId;
    return typeof requestId === 'string' || typeof requestId === 'number'
      ? JSON.stringify(requestId)
      : undefined;
  } catch {
    return undefined;
  }
}
