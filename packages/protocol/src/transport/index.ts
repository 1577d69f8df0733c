export type { ByteChannel, ByteSink } from './types.js';
export { createChannelPair } from './memory.js';
export type { ChannelPairOptions, MemoryChannel } from './memory.js';
export { webStreamChannel } from './web-stream.js';
