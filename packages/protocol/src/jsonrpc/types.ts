/** JSON-RPC 2.0 message shapes and the hooks the engine exposes. */

export type RequestId = string | number;

export interface JsonRpcRequest {
  jsonrpc: '2.0';
  id: RequestId;
  method: string;
  params?: unknown;
}

export interface JsonRpcNotification {
  jsonrpc: '2.0';
  method: string;
  params?: unknown;
}

export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

export interface JsonRpcSuccess {
  jsonrpc: '2.0';
  id: RequestId;
  result: unknown;
}

export interface JsonRpcFailure {
  jsonrpc: '2.0';
  id: RequestId | null;
  error: JsonRpcErrorObject;
}

export type JsonRpcResponse = JsonRpcSuccess | JsonRpcFailure;
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

/** Log levels, least to most severe. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/**
 * Where acp-kit writes diagnostics. Off by default; never stdout of a stdio peer.
 *
 * @example
 * const logger: Logger = { log: (level, message, fields) => process.stderr.write(`${level} ${message}\n`) };
 */
export interface Logger {
  log(level: LogLevel, message: string, fields?: Record<string, unknown>): void;
}

/** Direction of a traced frame, seen from this side. */
export type FrameDirection = 'in' | 'out';

/**
 * Receives every frame as text, for recording traffic. Called synchronously; keep it cheap.
 * `text` is the frame without its trailing newline. For inbound frames, `parsed` is the parsed
 * JSON (undefined when the line is not JSON); it is the object handed to handlers next: read it,
 * never change it.
 */
export type FrameTrace = (direction: FrameDirection, text: string, parsed?: unknown) => void;
