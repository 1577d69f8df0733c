/**
 * The two error families of acp-kit.
 *
 * - {@link ProtocolError}: an error that travels on the wire, with a numeric JSON-RPC/ACP code.
 * - {@link AcpKitError}: a local failure (peer exited, timeout, missing capability…) with a string code.
 */

/** Numeric error codes defined by JSON-RPC 2.0 and ACP v1. */
export const ErrorCodes = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  AuthRequired: -32000,
  ResourceNotFound: -32002,
  RequestCancelled: -32800,
} as const;

export type ErrorCode = (typeof ErrorCodes)[keyof typeof ErrorCodes];

/** Largest serialised size of an error's `data`; bigger data is replaced by a short summary. */
export const MAX_ERROR_DATA_BYTES = 1024;

/**
 * An error with a JSON-RPC code. Thrown by handlers to answer with that code; rejected from
 * outgoing requests when the peer answers with an error.
 *
 * @example
 * throw new ProtocolError(ErrorCodes.ResourceNotFound, 'Session not found', { sessionId });
 */
export class ProtocolError extends Error {
  override readonly name = 'ProtocolError';
  readonly code: number;
  readonly data: unknown;

  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.code = code;
    this.data = data;
  }

  static parseError(data?: unknown): ProtocolError {
    return new ProtocolError(ErrorCodes.ParseError, 'Parse error', data);
  }
  static invalidRequest(data?: unknown): ProtocolError {
    return new ProtocolError(ErrorCodes.InvalidRequest, 'Invalid request', data);
  }
  static methodNotFound(method: string): ProtocolError {
    return new ProtocolError(ErrorCodes.MethodNotFound, 'Method not found', {
      method: truncate(method, 200),
    });
  }
  static invalidParams(data?: unknown): ProtocolError {
    return new ProtocolError(ErrorCodes.InvalidParams, 'Invalid params', data);
  }
  static internalError(data?: unknown): ProtocolError {
    return new ProtocolError(ErrorCodes.InternalError, 'Internal error', data);
  }
  static authRequired(message = 'Authentication required', data?: unknown): ProtocolError {
    return new ProtocolError(ErrorCodes.AuthRequired, message, data);
  }
  static resourceNotFound(message = 'Resource not found', data?: unknown): ProtocolError {
    return new ProtocolError(ErrorCodes.ResourceNotFound, message, data);
  }
  static requestCancelled(data?: unknown): ProtocolError {
    return new ProtocolError(ErrorCodes.RequestCancelled, 'Request cancelled', data);
  }

  /** The wire form `{code, message, data?}`, with `data` capped at {@link MAX_ERROR_DATA_BYTES}. */
  toJSON(): { code: number; message: string; data?: unknown } {
    const out: { code: number; message: string; data?: unknown } = {
      code: this.code,
      message: truncate(this.message, 512),
    };
    if (this.data !== undefined) out.data = capErrorData(this.data);
    return out;
  }
}

/** String codes of local failures. */
export type AcpKitErrorCode =
  /** The peer process exited (code, signal and stderr tail in `details`). */
  | 'PEER_EXITED'
  /** The connection was closed locally or the stream ended. */
  | 'CONNECTION_CLOSED'
  /** An outgoing request was not answered within its timeout. */
  | 'REQUEST_TIMEOUT'
  /** An outgoing request was aborted through its AbortSignal. */
  | 'REQUEST_ABORTED'
  /** The peer did not advertise the capability the method needs. */
  | 'CAPABILITY_NOT_SUPPORTED'
  /** An inbound frame exceeded the configured maximum message size. */
  | 'MESSAGE_TOO_LARGE'
  /** The peer answered with a result that does not fit the schema. */
  | 'INVALID_RESPONSE'
  /** A value given to a local API was not valid. */
  | 'INVALID_ARGUMENT'
  /** The peer speaks a protocol version we do not. */
  | 'UNSUPPORTED_PROTOCOL_VERSION'
  /** Spawning the peer process failed. */
  | 'SPAWN_FAILED'
  /** The peer does not read: too much is already waiting to be sent to it. */
  | 'OUTBOUND_BUFFER_FULL'
  /** A remote server refused the connection (HTTP status, e.g. 401 bad token, 403 origin, 503 full). */
  | 'REMOTE_REFUSED'
  /** A remote connection was cut and could not be resumed (events lost, connection gone, gave up). */
  | 'RESUME_FAILED';

/** Details of why a connection closed, when known. */
export interface CloseDetails {
  /** Exit code of the peer process. */
  exitCode?: number | null;
  /** Signal that ended the peer process. */
  signal?: string | null;
  /** Last lines the peer wrote to stderr (sanitised, bounded). */
  stderrTail?: string;
  /** The underlying error, if any. */
  cause?: unknown;
  /**
   * The peer ended its output but our output to it is still open (a script piping requests into
   * an agent): the connection answers the requests it already received, then closes.
   */
  peerReading?: boolean;
  /** The peer's output ended inside a frame: how many bytes of it arrived (set by the engine). */
  truncatedFrameBytes?: number;
}

/**
 * A local failure with a string code. Higher layers extend it with codes of their own (the client
 * engine's `ClientError`), so `instanceof AcpKitError` catches every local failure.
 *
 * @example
 * if (err instanceof AcpKitError && err.code === 'PEER_EXITED') console.error(err.message);
 */
export class AcpKitError<Code extends string = AcpKitErrorCode> extends Error {
  override readonly name: string = 'AcpKitError';
  readonly code: Code;
  readonly details: Record<string, unknown>;

  constructor(code: Code, message: string, details: Record<string, unknown> = {}, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.code = code;
    this.details = details;
  }
}

/** Describes a peer exit for humans: `agent exited with code 1: <stderr tail>`. */
export function describeClose(peer: string, details: CloseDetails | undefined): string {
  if (!details) return `${peer} closed the connection`;
  let text: string;
  if (details.signal) text = `${peer} was killed by ${details.signal}`;
  else if (typeof details.exitCode === 'number') text = `${peer} exited with code ${details.exitCode}`;
  else if (details.cause instanceof Error) text = `${peer} connection failed: ${details.cause.message}`;
  else text = `${peer} closed the connection`;
  if (details.truncatedFrameBytes !== undefined)
    text += ` in the middle of a frame (truncated frame: ${details.truncatedFrameBytes} bytes without a line end)`;
  const tail = details.stderrTail?.trim();
  if (tail) text += `\n--- last stderr ---\n${tail}`;
  return text;
}

/** Words for the system errors file and process operations meet. */
const SYSTEM_ERRORS: Readonly<Record<string, string>> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  EISDIR: 'is a directory',
  ENOTDIR: 'not a directory',
  EEXIST: 'already exists',
  EBUSY: 'resource busy',
  EMFILE: 'too many open files',
  ENFILE: 'too many open files in the system',
  ENAMETOOLONG: 'name too long',
  EIO: 'input/output error',
};

/**
 * A system error (an `Error` with a `code` such as `EACCES`, as Node's fs and child_process throw)
 * as words and code — `permission denied (EACCES)` — without Node's message, which names paths.
 */
export function describeSystemError(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null | undefined)?.code;
  if (!(error instanceof Error) || typeof code !== 'string' || !/^E[A-Z0-9]+$/.test(code)) return undefined;
  return `${SYSTEM_ERRORS[code] ?? 'system error'} (${code})`;
}

/** Shortens a string to at most `max` characters, marking the cut. */
export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** Keeps error data small: anything over 1 KiB serialised becomes a short note. */
export function capErrorData(data: unknown): unknown {
  let json: string | undefined;
  try {
    json = JSON.stringify(data);
  } catch {
    return { note: 'error data was not serialisable' };
  }
  if (json === undefined) return undefined;
  // Characters never outnumber UTF-8 bytes, so only short strings need encoding to measure.
  if (json.length <= MAX_ERROR_DATA_BYTES && new TextEncoder().encode(json).length <= MAX_ERROR_DATA_BYTES) {
    return data;
  }
  return { note: `error data truncated (${json.length} characters)` };
}
