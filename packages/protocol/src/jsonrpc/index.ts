export {
  ErrorCodes,
  MAX_ERROR_DATA_BYTES,
  ProtocolError,
  AcpKitError,
  describeClose,
  truncate,
  capErrorData,
} from './errors.js';
export type { ErrorCode, AcpKitErrorCode, CloseDetails } from './errors.js';
export type {
  RequestId,
  JsonRpcRequest,
  JsonRpcNotification,
  JsonRpcErrorObject,
  JsonRpcSuccess,
  JsonRpcFailure,
  JsonRpcResponse,
  JsonRpcMessage,
  LogLevel,
  Logger,
  FrameDirection,
  FrameTrace,
} from './types.js';
export { DEFAULT_MAX_MESSAGE_BYTES, FrameDecoder, encodeFrame, utf8ByteLength } from './framing.js';
export type { FramingMode, FrameDecoderSink, FrameDecoderOptions, ParsedLine } from './framing.js';
export { CANCEL_REQUEST_METHOD, JsonRpcConnection } from './connection.js';
export type {
  JsonRpcConnectionOptions,
  RequestContext,
  RequestHandler,
  NotificationHandler,
  RequestOptions,
} from './connection.js';
