/**
 * `acp chain`: one agent for any ACP client, made of proxies in front of an agent (proxy chains,
 * unstable ACP). `acp chain [--trace FILE] [--rules] -- PROXY [ARGS] -- … -- AGENT [ARGS]`: every
 * `--` starts a component, the last is the agent. stdin/stdout carry the client's frames only;
 * the components' stderr and our diagnostics go to stderr.
 */
import type { ChainCommand } from '@acp-kit/protocol/node/chain';
import { EXIT_CODES, UsageError, exitCodeForSignal } from '../exit-codes.js';
import type { CliIo } from '../io.js';

export interface ChainOptions {
  /** Record the chain's traffic (next to the agent) to this file. */
  trace?: string;
  /** Answer permission questions by the saved rules (next to the client). */
  rules?: boolean;
}

/** The components of `tail` (what followed the first `--`), split at each further `--`. */
export function parseComponents(tail: readonly string[] | undefined): ChainCommand[] {
  const components: ChainCommand[] = [];
  let current: string[] = [];
  for (const word of [...(tail ?? []), '--']) {
    if (word !== '--') {
      current.push(word);
      continue;
    }
    const [command, ...args] = current;
    if (command === undefined)
      throw new UsageError('an empty component: every -- must be followed by a command', {
        hint: 'acp chain -- PROXY [ARGS…] -- AGENT [ARGS…]',
      });
    components.push({ command, args });
    current = [];
  }
  return components;
}

/** The whole chain: the given components, the rules proxy next to the client, the trace proxy next to the agent. */
export function chainComponents(
  tail: readonly string[] | undefined,
  options: ChainOptions,
  io: Pick<CliIo, 'self' | 'cwd'>,
): ChainCommand[] {
  if (!tail || tail.length === 0)
    throw new UsageError('acp chain needs an agent command after --', {
      hint: 'acp chain --trace chain.jsonl -- AGENT [ARGS…]',
    });
  const given = parseComponents(tail);
  const builtin = (name: string, args: string[]): ChainCommand => ({
    command: io.self.command,
    args: [...(io.self.args ?? []), 'proxy', name, ...args],
    name: `${name} proxy`,
  });
  const agent = given.pop() as ChainCommand;
  const proxies = [...given];
  if (options.rules) proxies.unshift(builtin('rules', []));
  if (options.trace !== undefined)
    proxies.push(builtin('trace', ['--out', resolvePath(io.cwd, options.trace)]));
  return [...proxies, agent];
}

function resolvePath(cwd: string, path: string): string {
  return path.startsWith('/') ? path : `${cwd}/${path}`;
}

/** Runs the chain on stdin/stdout until the client leaves or a component ends. */
export async function chainCommand(
  tail: readonly string[] | undefined,
  options: ChainOptions,
  io: CliIo,
): Promise<number> {
  const components = chainComponents(tail, options, io);
  const [{ startChain }, { stdioChannel }] = await Promise.all([
    import('@acp-kit/protocol/node/chain'),
    import('@acp-kit/protocol/node'),
  ]);
  const chain = startChain(stdioChannel(), components, {
    cwd: io.cwd,
    env: io.env,
    onStderr: (chunk) => io.stderr.write(chunk.toString('utf8')),
  });
  let stoppedBy: number | undefined;
  const unsubscribe = io.onSignal((signal) => {
    stoppedBy ??= exitCodeForSignal(signal);
    void chain.stop();
  });
  try {
    const { end } = await chain.done;
    if (stoppedBy !== undefined) return stoppedBy;
    if (end.who === 'client') return EXIT_CODES.OK;
    io.stderr.write(`acp chain: ${end.name} ended: ${end.reason.message}\n`);
    return end.who === components.length - 1 ? EXIT_CODES.AGENT_CRASHED : EXIT_CODES.ERROR;
  } finally {
    unsubscribe();
  }
}
