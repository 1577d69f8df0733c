/**
 * The channel of a peer that runs as a child process itself (usually an agent): our stdin/stdout.
 */
import { NodeStreamChannel, type NodeStreamChannelOptions } from './stream-channel.js';

/**
 * `process.stdin` / `process.stdout` as a channel. `close()` flushes stdout and stops reading
 * stdin (so the process can exit) but leaves stdout open: ending it would turn any later stray
 * write into an uncaught error. Keep logs off stdout: it carries frames only.
 *
 * @example
 * const connection = new JsonRpcConnection(stdioChannel(), { peerName: 'client' });
 * connection.start();
 */
export function stdioChannel(
  options: Pick<NodeStreamChannelOptions, 'closeDetails'> = {},
): NodeStreamChannel {
  return new NodeStreamChannel(process.stdin, process.stdout, {
    ...options,
    endWritableOnClose: false,
    onClose: () => {
      process.stdin.pause();
      process.stdin.destroy();
    },
  });
}
