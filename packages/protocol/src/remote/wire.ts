/**
 * Names and small helpers of ACP's remote transport (the RFD "Streamable HTTP & WebSocket
 * Transport"), shared by the client and the server. Runtime-neutral.
 */

/** Binds every request after `initialize` to its connection (RFD). */
export const HEADER_CONNECTION_ID = 'Acp-Connection-Id';
/** Scopes a POST or a GET stream to one session (RFD). */
export const HEADER_SESSION_ID = 'Acp-Session-Id';
/** The last event a client saw on a stream, sent when it reconnects (SSE; ours on WebSocket too). */
export const HEADER_LAST_EVENT_ID = 'Last-Event-ID';
/**
 * acp-kit extension. On a POST: the client's message number (1, 2, …), so a POST retried after a
 * cut is not delivered twice. In the 101 answer to a resumed WebSocket: how many client messages
 * the server received, so the client re-sends only the rest.
 */
export const HEADER_MESSAGE_SEQ = 'Acp-Message-Seq';
/** acp-kit extension, in the answer to `initialize` (HTTP) or the upgrade (WebSocket): streams can be resumed. */
export const HEADER_RESUMABLE = 'Acp-Resumable';

export const JSON_MEDIA_TYPE = 'application/json';
export const EVENT_STREAM_MEDIA_TYPE = 'text/event-stream';

/** How `acp serve` tells a remote client what its agent process wrote on stderr (`{ text, dropped? }`). */
export const AGENT_STDERR_NOTIFICATION = '_acp-kit/agent_stderr';
/** How `acp serve` tells a remote client that its agent process ended (`{ exitCode, signal, stderrTail }`). */
export const AGENT_EXIT_NOTIFICATION = '_acp-kit/agent_exit';

/** Methods that create (or reattach) a session at the agent: counted against the session limit. */
export const SESSION_OPENING_METHODS: ReadonlySet<string> = new Set([
  'session/new',
  'session/load',
  'session/resume',
  'session/fork',
]);

/** The two profiles of the RFD. */
export type RemoteProfile = 'websocket' | 'http';

/** A JSON-RPC message seen by the transport: only the fields it routes by. */
export interface RoutedMessage {
  method?: unknown;
  id?: unknown;
  params?: unknown;
  result?: unknown;
  error?: unknown;
}

/** The `sessionId` string in an object's `params` or `result`, if any. */
export function sessionIdIn(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const id = (value as { sessionId?: unknown }).sessionId;
  return typeof id === 'string' ? id : undefined;
}

/** Whether a parsed message is a request (`method` and `id`). */
export function isRequest(message: RoutedMessage): boolean {
  return typeof message.method === 'string' && message.id !== undefined && message.id !== null;
}

/** Whether a parsed message is a response (an `id`, no `method`). */
export function isResponse(message: RoutedMessage): boolean {
  return message.method === undefined && message.id !== undefined;
}

/** A map key for a JSON-RPC id that keeps `1` and `"1"` apart. */
export function idKey(id: unknown): string | undefined {
  if (typeof id === 'string') return `s:${id}`;
  if (typeof id === 'number') return `n:${id}`;
  return undefined;
}

/**
 * Parses one message's JSON text when it is a JSON object; `undefined` otherwise (invalid JSON,
 * scalars, arrays). Never re-serialises anything.
 */
export function parseMessage(text: string): RoutedMessage | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  return value as RoutedMessage;
}

/**
 * The message as one NDJSON line. Raw CR and LF can only be whitespace between tokens in valid
 * JSON (inside strings they are escaped), so replacing them with spaces keeps the same value while
 * making sure one message stays one line; for anything else it keeps one frame one frame.
 */
export function singleLine(text: string): string {
  return text.indexOf('\n') === -1 && text.indexOf('\r') === -1 ? text : text.replace(/[\r\n]/g, ' ');
}

/** Whether a JSON text is (probably) an array: a batch, which ACP v1 does not allow. */
export function looksLikeBatch(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 32 || code === 9 || code === 10 || code === 13 || code === 0xfeff) continue;
    return code === 91; // [
  }
  return false;
}

/** The JSON-RPC error line sent for a frame that cannot be handled (never echoes the frame). */
export function errorLine(id: string | number | null, code: number, message: string, data?: unknown): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    error: data === undefined ? { code, message } : { code, message, data },
  });
}
