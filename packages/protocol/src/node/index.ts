export { NodeStreamChannel, nodeStreamChannel } from './stream-channel.js';
export type { NodeStreamChannelOptions } from './stream-channel.js';
export { stdioChannel } from './stdio-channel.js';
export { spawnPeer } from './spawn.js';
export type { SpawnPeerOptions, SpawnedPeer, ShutdownOptions } from './spawn.js';
export { DEFAULT_STDERR_TAIL_BYTES, StderrTail, sanitizeTerminalText } from './stderr-tail.js';
export {
  processGroupAlive,
  reapProcessGroup,
  signalProcessGroup,
  trackProcessGroup,
  untrackProcessGroup,
} from './process-groups.js';
