/**
 * `acp proxy trace`: the built-in proxies of a chain, served on stdin/stdout to a conductor
 * (`acp chain`, or any other). Run directly by a client they say they need a conductor.
 */
import { EXIT_CODES } from '../exit-codes.js';
import type { CliIo } from '../io.js';

/** Runs the trace proxy until its conductor goes away; the file is complete when it returns. */
export async function traceProxyCommand(out: string, io: CliIo): Promise<number> {
  const { startTraceProxy } = await import('@acp-kit/client');
  const { stdioChannel } = await import('@acp-kit/protocol/node');
  const path = out.startsWith('/') ? out : `${io.cwd}/${out}`;
  const { proxy, done } = await startTraceProxy(stdioChannel(), path);
  // Stopped by the conductor (SIGTERM after stdin closed): finish the file first.
  const unsubscribe = io.onSignal(() => void proxy.close());
  try {
    await done;
  } finally {
    unsubscribe();
  }
  return EXIT_CODES.OK;
}
