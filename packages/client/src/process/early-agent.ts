/**
 * An agent process started before the connection that will use it: the terminal UI starts the
 * agent it was asked for while it loads, so that the agent's own start (another process, on
 * another core) overlaps the UI's instead of following it. The first connection to the same
 * launch spec, directory and environment adopts it; anything else stops it.
 */
import { isDeepStrictEqual } from 'node:util';
import type { LaunchSpec } from '../catalog/types.js';
import { agentEnvironment } from './agent-env.js';
import { startAgentProcess, type AgentProcess } from './agent-process.js';

/** Stderr text kept until the process is adopted (its tail, as the process's own tail keeps). */
const HELD_STDERR_CHARS = 64 * 1024;

/** Where and how an agent runs: what must be the same for a connection to adopt an early start. */
export interface AgentLaunch {
  readonly spec: LaunchSpec;
  /** Working directory (default: the launch spec's, else ours). */
  readonly cwd?: string | undefined;
  /** Base environment (default: ours). */
  readonly env?: NodeJS.ProcessEnv | undefined;
  /** Credential variables every agent may see, besides the spec's. */
  readonly passEnv?: readonly string[] | undefined;
}

/** An agent started early (see {@link startEarlyAgent}). */
export interface EarlyAgent {
  /** Whether a connection that would start `launch` can take this process instead. */
  matches(launch: AgentLaunch): boolean;
  /**
   * Hands the process over (once; undefined after): what it wrote on stderr so far goes to
   * `onStderr` at once, the rest as it comes.
   */
  adopt(onStderr?: (text: string) => void): AgentProcess | undefined;
  /** Stops the process unless it was adopted. */
  discard(): Promise<void>;
}

/** What the process of `launch` gets: its command, arguments, directory and environment. */
function processOf(launch: AgentLaunch): unknown {
  const { env } = agentEnvironment(launch.env ?? process.env, launch.spec, launch.passEnv);
  return {
    command: launch.spec.command,
    args: launch.spec.args,
    cwd: launch.cwd ?? launch.spec.cwd,
    env,
  };
}

/**
 * Starts the agent of `launch` now. Throws as `startAgentProcess` does (not installed, cannot
 * start): the caller then leaves the start to the connection, which reports it.
 *
 * @example
 * const early = await startEarlyAgent({ spec: catalog.require('demo'), cwd });
 * const agent = await client.connect('demo', { cwd, early });
 */
export async function startEarlyAgent(launch: AgentLaunch): Promise<EarlyAgent> {
  let held = '';
  let consumer: ((text: string) => void) | undefined;
  const started = await startAgentProcess(launch.spec, {
    ...(launch.cwd !== undefined ? { cwd: launch.cwd } : {}),
    ...(launch.env ? { env: launch.env } : {}),
    ...(launch.passEnv ? { passEnv: launch.passEnv } : {}),
    onStderr: (text) => {
      if (consumer) consumer(text);
      else held = (held + text).slice(-HELD_STDERR_CHARS);
    },
  });
  const identity = processOf(launch);
  let taken = false;
  return {
    matches: (other) => !taken && isDeepStrictEqual(processOf(other), identity),
    adopt(onStderr) {
      if (taken) return undefined;
      taken = true;
      consumer = onStderr ?? (() => undefined);
      if (held !== '') onStderr?.(held);
      held = '';
      return started;
    },
    async discard() {
      if (taken) return;
      taken = true;
      await started.shutdown();
    },
  };
}
