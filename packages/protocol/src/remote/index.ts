/**
 * `@acp-kit/protocol/remote`: ACP over the network (the RFD "Streamable HTTP & WebSocket
 * Transport"), runtime-neutral: the client channel and the server core. Node's HTTP server and
 * the `ws` WebSocket live in `@acp-kit/protocol/remote/node`.
 */
export { connectRemote } from './client.js';
export { httpChannel } from './client-http.js';
export { openWebSocketChannel, webSocketUrl } from './client-ws.js';
export { RemoteHttpError, redactUrl } from './client-types.js';
export type {
  RemoteChannel,
  RemoteClientOptions,
  RemoteEvent,
  WebSocketConnector,
  WebSocketHandlers,
  WebSocketLike,
} from './client-types.js';
export { CookieJar } from './cookies.js';
export { DEFAULT_REPLAY_LIMITS, OutStream } from './out-stream.js';
export type { AttachResult, ReplayLimits, StreamReceiver } from './out-stream.js';
export { DEFAULT_REMOTE_LIMITS, RemoteServer, isRefusal } from './server.js';
export type { Admission, RemoteConnectionInfo, RemoteServerOptions } from './server.js';
export { RemoteConnection } from './server-connection.js';
export type { Refusal, RemoteAgent, RemoteServerLimits } from './server-connection.js';
export { SseParser, encodeSseEvent } from './sse.js';
export type { SseEvent } from './sse.js';
export {
  AGENT_EXIT_NOTIFICATION,
  AGENT_STDERR_NOTIFICATION,
  HEADER_CONNECTION_ID,
  HEADER_LAST_EVENT_ID,
  HEADER_MESSAGE_SEQ,
  HEADER_RESUMABLE,
  HEADER_SESSION_ID,
} from './wire.js';
export type { RemoteProfile } from './wire.js';
