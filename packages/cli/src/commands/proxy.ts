/**
 * `acp proxy trace|rules`: the built-in proxies of a chain, served on stdin/stdout to a conductor
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

/** Runs the rules proxy until its conductor goes away; says on stderr which questions a rule answered. */
export async function rulesProxyCommand(options: { agent?: string }, io: CliIo): Promise<number> {
  const { resolveClientPaths, startRulesProxy } = await import('@acp-kit/client');
  const { stdioChannel } = await import('@acp-kit/protocol/node');
  const proxy = await startRulesProxy(stdioChannel(), {
    rulesFile: resolveClientPaths(io.env).rulesFile,
    ...(options.agent === undefined ? {} : { agentId: options.agent }),
    logger: {
      log: (_level, message, fields) =>
        io.stderr.write(
          `acp proxy rules: ${message} (${fields?.kind}: ${fields?.decision}, rule ${fields?.rule})\n`,
        ),
    },
  });
  const unsubscribe = io.onSignal(() => void proxy.close());
  try {
    await proxy.closed;
  } finally {
    unsubscribe();
  }
  return EXIT_CODES.OK;
}
