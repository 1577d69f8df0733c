/**
 * An agent child process: spawned without a shell in its own process group (by
 * `@acp-kit/protocol/node`'s spawnPeer), stderr drained and tailed, stdout noise spotted, and the
 * exit reason kept.
 */
import type { ByteChannel, CloseDetails } from '@acp-kit/protocol';
import { spawnPeer, type SpawnedPeer } from '@acp-kit/protocol/node';
import { TextSanitizer, sanitizeText } from '../text/sanitize-text.js';
import { ClientError } from '../errors.js';
import type { LaunchSpec } from '../catalog/types.js';
import { lookupCommand } from '../catalog/which.js';
import { agentEnvironment } from './agent-env.js';

/** Options of {@link startAgentProcess}. */
export interface AgentProcessOptions {
  /** Working directory (default: the launch spec's, else ours). */
  cwd?: string;
  /**
   * Base environment (default: ours). Credential-named variables are left out unless the launch
   * spec's `passEnv` or `passEnv` here names them; the launch spec's `env` is added on top.
   */
  env?: NodeJS.ProcessEnv;
  /** More names or `PREFIX*` patterns of credential variables to pass (the user's global `passEnv`). */
  passEnv?: readonly string[];
  /** Receives stderr text as it arrives (sanitised: no escape sequences). */
  onStderr?: (text: string) => void;
}

/** A running agent process. */
export interface AgentProcess {
  readonly peer: SpawnedPeer;
  readonly command: string;
  readonly args: readonly string[];
  /** Resolves with the exit details once the process has exited. */
  readonly exited: Promise<CloseDetails>;
  /** Stops it: close stdin, SIGTERM, SIGKILL to the whole group. */
  shutdown(graceMs?: number): Promise<CloseDetails>;
}

/**
 * What `AgentConnection` runs an agent through: a local process (`startAgentProcess`) or a remote
 * connection (`startRemoteAgent`, for entries with a `url`).
 */
export interface AgentLink {
  readonly channel: ByteChannel;
  /** Process id; undefined for a remote agent. */
  readonly pid: number | undefined;
  readonly command: string;
  readonly args: readonly string[];
  readonly exited: Promise<CloseDetails>;
  shutdown(graceMs?: number): Promise<CloseDetails>;
  /** Set for a remote agent: its URL and the notification that carries the remote agent's stderr. */
  readonly remote?: { url: string; stderrMethod: `_${string}` };
}

/** A local process as an {@link AgentLink}. */
export function processLink(process: AgentProcess): AgentLink {
  return {
    channel: process.peer.channel,
    pid: process.peer.pid,
    command: process.command,
    args: process.args,
    exited: process.exited,
    shutdown: (graceMs) => process.shutdown(graceMs),
  };
}

/**
 * Resolves the command on PATH and starts the agent. Throws AGENT_NOT_INSTALLED when the command
 * cannot be found, AGENT_START_FAILED when it cannot be started.
 */
export async function startAgentProcess(
  spec: LaunchSpec,
  options: AgentProcessOptions = {},
): Promise<AgentProcess> {
  const { env } = agentEnvironment(options.env ?? process.env, spec, options.passEnv);
  const cwd = options.cwd ?? spec.cwd;
  const found = await lookupCommand(spec.command, env, cwd ?? process.cwd());
  if (!found.found && found.reason === 'not-executable') {
    throw new ClientError(
      'AGENT_START_FAILED',
      `${found.path} is not executable (permission denied); make it executable (chmod +x) or fix the agent's command`,
      { command: spec.command, path: found.path, reason: 'not-executable' },
    );
  }
  if (!found.found) {
    const where = spec.command.includes('/') ? 'was not found' : 'was not found on PATH';
    throw new ClientError('AGENT_NOT_INSTALLED', `${spec.command} ${where}`, {
      command: spec.command,
      reason: 'not-found',
    });
  }
  const resolved = found.path;
  let peer: SpawnedPeer;
  try {
    const decoder = new TextDecoder();
    // Streaming: a sequence split across two chunks of stderr is still recognised.
    const sanitizer = new TextSanitizer();
    peer = spawnPeer(resolved, spec.args, {
      cwd,
      env,
      onStderr: options.onStderr
        ? (chunk) => {
            const text = sanitizer.write(decoder.decode(chunk, { stream: true }).replace(/\r\n?/g, '\n'));
            if (text !== '') options.onStderr?.(text);
          }
        : undefined,
    });
  } catch (error) {
    throw startFailed(spec.command, error);
  }
  // A late start failure (the binary vanished after the lookup) ends the channel with a
  // SPAWN_FAILED cause, which the connection reports when `initialize` fails.
  return {
    peer,
    command: resolved,
    args: spec.args,
    exited: peer.exited,
    shutdown: (graceMs = 2000) => peer.shutdown({ graceMs }),
  };
}

function startFailed(command: string, error: unknown): ClientError {
  const message = error instanceof Error ? error.message : String(error);
  return new ClientError('AGENT_START_FAILED', `cannot start ${command}: ${message}`, { command }, error);
}

/**
 * Watches inbound lines for non-JSON noise on stdout (banners, logs printed to the wrong stream).
 * Frames are tolerated by the engine; this only counts them and reports the first.
 */
export class NoiseDetector {
  count = 0;
  sample: string | undefined;

  constructor(
    private readonly onFirst: (sample: string) => void,
    /** Every noise line (sanitised, at most 500 characters), for who wants them all. */
    private readonly onLine?: (line: string) => void,
  ) {}

  /**
   * Looks at one inbound frame's text; `parsed`: its value when it parsed. A JSON object is a
   * frame, whatever its text: not looked at (reading a long frame's first character would make V8
   * join its text, which the engine hands on in the pieces it was read in).
   */
  inspect(text: string, parsed?: unknown): void {
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return;
    let i = 0;
    while (i < text.length && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9)) i++;
    if (text.charCodeAt(i) === 123 /* { */) return;
    this.count++;
    if (this.count === 1) {
      this.sample = sanitizeText(text.slice(0, 200));
      this.onFirst(this.sample);
    }
    this.onLine?.(sanitizeText(text.slice(0, 500)));
  }
}
