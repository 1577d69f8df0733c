/**
 * Runs a proxy chain as child processes: spawns every component (proxies, then the final agent),
 * routes between them with a {@link Conductor}, and ends them all when any one ends, the way
 * {@link spawnPeer} stops a peer (stdin closed → SIGTERM → SIGKILL, whole process groups).
 */
import type { CloseDetails } from '../jsonrpc/errors.js';
import { Conductor, type ChainEnd, type ConductorOptions } from '../proxy/conductor.js';
import type { ByteChannel } from '../transport/types.js';
import { spawnPeer, type SpawnedPeer, type SpawnPeerOptions } from './spawn.js';

/** A component to spawn: a command and its arguments (no shell). */
export interface ChainCommand {
  readonly command: string;
  readonly args?: readonly string[];
  /** How errors name it (default: the command's base name, with `proxy N` or `agent`). */
  readonly name?: string;
}

export interface StartChainOptions
  extends ConductorOptions, Pick<SpawnPeerOptions, 'cwd' | 'env' | 'onStderr'> {
  /** Grace of each shutdown step for the components left when one ends (default 2000 ms). */
  graceMs?: number;
}

/** A running chain. */
export interface RunningChain {
  readonly conductor: Conductor;
  readonly peers: readonly SpawnedPeer[];
  /** Resolves once the chain ended and every component has exited: the first end, and each exit. */
  readonly done: Promise<{ end: ChainEnd; exits: CloseDetails[] }>;
  /** Ends the chain now (as if the client had left). */
  stop(): Promise<void>;
}

/**
 * Spawns `components` (the last is the agent) and serves them to the client on `client`.
 *
 * @example
 * const chain = startChain(stdioChannel(), [
 *   { command: 'acp', args: ['proxy', 'trace', '--out', 'chain.jsonl'] },
 *   { command: 'my-agent', args: ['--acp'] },
 * ]);
 * const { end } = await chain.done;
 */
export function startChain(
  client: ByteChannel,
  components: readonly ChainCommand[],
  options: StartChainOptions = {},
): RunningChain {
  const { cwd, env, onStderr, graceMs, ...conductorOptions } = options;
  const peers = components.map((component) =>
    spawnPeer(component.command, component.args ?? [], { cwd, env, onStderr }),
  );
  const conductor = new Conductor(
    client,
    peers.map((peer, index) => ({
      name: components[index]?.name ?? componentName(components, index),
      channel: peer.channel,
    })),
    conductorOptions,
  );
  const done = conductor.ended.then(async (end) => {
    const exits = await Promise.all(peers.map((peer) => peer.shutdown({ graceMs: graceMs ?? 2000 })));
    await conductor.close();
    return { end, exits };
  });
  conductor.start();
  return {
    conductor,
    peers,
    done,
    stop: async () => {
      await conductor.close();
      await done;
    },
  };
}

/** `proxy 1 (trace.js)`, `agent (demo)`: which one, and what it runs. */
export function componentName(components: readonly ChainCommand[], index: number): string {
  const component = components[index];
  const base = baseName(component?.command ?? '?');
  const words = [base, ...(component?.args ?? []).slice(0, 2)].join(' ');
  return index === components.length - 1 ? `agent (${words})` : `proxy ${index + 1} (${words})`;
}

function baseName(path: string): string {
  const parts = path.split(/[\\/]/);
  return parts[parts.length - 1] || path;
}
