/**
 * Local failures of the client engine, and the one place that turns any error into text for
 * people. Wire errors stay `ProtocolError`s and transport failures `AcpKitError`s (both from
 * `@acp-kit/protocol`); this module adds the engine's own string codes.
 */
// The error classes alone: the protocol's index would bring its schema to everything that reports errors.
import { AcpKitError, ErrorCodes, ProtocolError } from '@acp-kit/protocol/errors';

/** String codes of the engine's local failures. */
export type ClientErrorCode =
  /** No catalog entry has that name. */
  | 'AGENT_NOT_FOUND'
  /** The catalog entry's command is not on PATH. */
  | 'AGENT_NOT_INSTALLED'
  /** The agent process could not be started, or did not answer `initialize`. */
  | 'AGENT_START_FAILED'
  /** The agent process exited (code, signal and stderr tail in `details`). */
  | 'AGENT_EXITED'
  /** The agent needs the user to authenticate (`details.authMethods`). */
  | 'AUTH_REQUIRED'
  /** The agent answered a protocol version we do not speak. */
  | 'UNSUPPORTED_PROTOCOL_VERSION'
  /** The agent did not advertise what the operation needs. */
  | 'CAPABILITY_NOT_SUPPORTED'
  /** The agent did not answer in time (`details.method`, `details.timeoutMs`). */
  | 'REQUEST_TIMEOUT'
  /** No such session (locally or at the agent). */
  | 'SESSION_NOT_FOUND'
  /** A prompt is already running in the session. */
  | 'SESSION_BUSY'
  /** A path is not absolute, contains NUL, or is too long. */
  | 'PATH_INVALID'
  /** A path resolves outside the session's roots. */
  | 'PATH_OUTSIDE_ROOTS'
  /** The permission policy (or the user) refused the operation. */
  | 'PERMISSION_DENIED'
  /** The path is a directory, device, FIFO or socket. */
  | 'NOT_A_REGULAR_FILE'
  /** The file or content is over the size cap. */
  | 'FILE_TOO_LARGE'
  /** A write would go through a symbolic link. */
  | 'SYMLINK_REFUSED'
  /** The file does not exist. */
  | 'FILE_NOT_FOUND'
  /** No terminal with that id in the session. */
  | 'TERMINAL_NOT_FOUND'
  /** The session has too many terminals. */
  | 'TERMINAL_LIMIT'
  /** A configuration or rules file is not valid. */
  | 'CONFIG_INVALID'
  /** A value given to an engine API is not valid. */
  | 'INVALID_ARGUMENT'
  /** The agent crashed more often than the restart budget allows. */
  | 'RESTART_BUDGET_EXHAUSTED'
  /** An ACP registry could not be read. */
  | 'REGISTRY_FETCH_FAILED';

/**
 * A local failure of the client engine.
 *
 * @example
 * if (err instanceof ClientError && err.code === 'AUTH_REQUIRED') showLogin(err.details.authMethods);
 */
export class ClientError extends AcpKitError<ClientErrorCode> {
  override readonly name: string = 'ClientError';
}

/** A small, serialisable description of an error (for stores, transcripts and JSON output). */
export interface ErrorInfo {
  /** `ClientError`/`AcpKitError` string code, or the numeric wire code as a string. */
  code: string;
  message: string;
  /** Exit code, signal and stderr tail when an agent exited. */
  exitCode?: number | null;
  signal?: string | null;
  stderrTail?: string;
}

/** Whether `error` is the agent's "authentication required" (-32000) answer. */
export function isAuthRequiredError(error: unknown): error is ProtocolError {
  return error instanceof ProtocolError && error.code === ErrorCodes.AuthRequired;
}

/** Converts anything thrown into an {@link ErrorInfo}. */
export function toErrorInfo(error: unknown): ErrorInfo {
  if (error instanceof ClientError || error instanceof AcpKitError) {
    const info: ErrorInfo = { code: error.code, message: error.message };
    const d = error.details;
    if ('exitCode' in d) info.exitCode = (d.exitCode as number | null | undefined) ?? null;
    if ('signal' in d) info.signal = (d.signal as string | null | undefined) ?? null;
    if (typeof d.stderrTail === 'string' && d.stderrTail !== '') info.stderrTail = d.stderrTail;
    return info;
  }
  if (error instanceof ProtocolError)
    return { code: String(error.code), message: `${error.message}${describeData(error.data)}` };
  if (error instanceof Error) return { code: 'ERROR', message: error.message };
  return { code: 'ERROR', message: String(error) };
}

/**
 * A prompt's error that ends a turn the user cancelled: ACP asks for the stop reason `cancelled`,
 * but some agents answer the cancelled prompt with an error (Qwen Code: -32603 "Request was
 * aborted."). For the user the turn was cancelled; this returns the diagnostic naming the
 * agent's deviation, or undefined when the error is a real failure (the turn was not being
 * cancelled, or the agent exited, or it needs authentication).
 *
 * @example
 * cancelledTurnError('cancelling', new ProtocolError(-32603, 'Internal error'));
 * // 'the agent answered the cancelled turn with error -32603 (Internal error) instead of the stop reason "cancelled"'
 */
export function cancelledTurnError(status: string, error: unknown): string | undefined {
  if (status !== 'cancelling' || !(error instanceof ProtocolError) || error.code === ErrorCodes.AuthRequired)
    return undefined;
  return `the agent answered the cancelled turn with error ${error.code} (${error.message}${describeData(error.data)}) instead of the stop reason "cancelled"`;
}

/**
 * Text for people: what went wrong and, where we know it, what to do.
 *
 * @example
 * catch (err) { process.stderr.write(`acp: ${describeError(err)}\n`); }
 */
export function describeError(error: unknown): string {
  if (error instanceof ProtocolError) {
    if (error.code === ErrorCodes.AuthRequired) return `the agent needs authentication: ${error.message}`;
    if (error.code === ErrorCodes.ResourceNotFound) return `not found: ${error.message}`;
    if (error.code === ErrorCodes.MethodNotFound)
      return `the agent does not implement this method (${error.message})`;
    const detail = describeData(error.data);
    return `the agent answered with error ${error.code}: ${error.message}${detail}`;
  }
  if (error instanceof AcpKitError || error instanceof ClientError) return error.message;
  if (error instanceof Error) return error.message;
  return String(error);
}

function describeData(data: unknown): string {
  if (data === undefined || data === null) return '';
  if (typeof data === 'string') return ` (${data.slice(0, 300)})`;
  try {
    const json = JSON.stringify(data);
    return json.length <= 300 ? ` ${json}` : '';
  } catch {
    return '';
  }
}
