/**
 * Runs a peer (usually an agent) as a child process and talks to it over its stdin/stdout.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { AcpKitError, type CloseDetails } from '../jsonrpc/errors.js';
import { NodeStreamChannel } from './stream-channel.js';
import { DEFAULT_STDERR_TAIL_BYTES, StderrTail } from './stderr-tail.js';

export interface SpawnPeerOptions {
  /** Working directory of the process (default: ours). */
  cwd?: string;
  /** Environment of the process (default: ours). Pass an explicit, filtered object to avoid leaking secrets. */
  env?: NodeJS.ProcessEnv;
  /** How much of the end of stderr to keep for error messages (default 8 KiB). */
  stderrTailBytes?: number;
  /** Receives every stderr chunk as it arrives (stderr is always drained, with or without it). */
  onStderr?: (chunk: Buffer) => void;
  /** How long to wait for the exit status after stdout ended, and for stdout to end after the exit (default 2000 ms). */
  exitWaitMs?: number;
}

export interface ShutdownOptions {
  /** Time given to each step (stdin closed, then SIGTERM) before the next, harsher one (default 2000 ms). */
  graceMs?: number;
}

/** A running peer process. */
export interface SpawnedPeer {
  /** Its stdin/stdout as a channel; when stdout ends, `end()` carries exit code, signal and stderr tail. */
  readonly channel: NodeStreamChannel;
  readonly child: ChildProcess;
  /** Undefined when the process could not be started. */
  readonly pid: number | undefined;
  /** The last `stderrTailBytes` of stderr, without escape sequences or control characters. */
  stderrTail(): string;
  /** Resolves when the process has exited (or failed to start), never rejects. */
  readonly exited: Promise<CloseDetails>;
  /**
   * Stops the process: closes its stdin, waits `graceMs`, sends SIGTERM to its process group,
   * waits `graceMs`, then SIGKILL. Leftover members of the group (grandchildren) get the same
   * treatment. Resolves once it has exited. Idempotent.
   */
  shutdown(options?: ShutdownOptions): Promise<CloseDetails>;
}

const DEFAULT_EXIT_WAIT_MS = 2000;
const DEFAULT_GRACE_MS = 2000;
/** After the exit, stderr usually ends within milliseconds; don't wait long for a grandchild's copy. */
const STDERR_SETTLE_MS = 250;
const GROUP_POLL_MS = 25;

type ExitInfo = { exitCode: number | null; signal: string | null } | { cause: AcpKitError };

/**
 * Spawns `command` without a shell, in its own process group, with piped stdio.
 *
 * @example
 * const agent = spawnPeer('my-agent', ['--acp'], { cwd: projectDir });
 * const connection = new JsonRpcConnection(agent.channel, { peerName: 'agent' });
 * connection.start();
 * // …
 * await agent.shutdown({ graceMs: 1000 });
 */
export function spawnPeer(
  command: string,
  args: readonly string[] = [],
  options: SpawnPeerOptions = {},
): SpawnedPeer {
  return new PeerProcess(command, args, options);
}

class PeerProcess implements SpawnedPeer {
  readonly channel: NodeStreamChannel;
  readonly child: ChildProcess;
  readonly exited: Promise<CloseDetails>;
  private readonly tail: StderrTail;
  private readonly exitInfo: Promise<ExitInfo>;
  private readonly stderrEnded: Promise<void>;
  private shutdownPromise: Promise<CloseDetails> | undefined;

  constructor(command: string, args: readonly string[], options: SpawnPeerOptions) {
    const tail = new StderrTail(options.stderrTailBytes ?? DEFAULT_STDERR_TAIL_BYTES);
    this.tail = tail;
    const exitWaitMs = options.exitWaitMs ?? DEFAULT_EXIT_WAIT_MS;
    let child;
    try {
      // detached: a new process group, so shutdown can signal the peer and everything it started.
      child = spawn(command, [...args], {
        cwd: options.cwd,
        env: options.env,
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: true,
        windowsHide: true,
      });
    } catch (error) {
      throw spawnFailed(command, options.cwd, error);
    }
    this.child = child;
    this.exitInfo = new Promise<ExitInfo>((resolve) => {
      child.once('exit', (exitCode, signal) => resolve({ exitCode, signal }));
      child.on('error', (error) => {
        // Later errors (a failed kill) change nothing: only a failed start matters here.
        if (child.pid === undefined) resolve({ cause: spawnFailed(command, options.cwd, error) });
      });
    });
    this.stderrEnded = new Promise<void>((resolve) => {
      child.stderr.once('close', resolve);
      child.stderr.once('end', resolve);
    });
    child.stderr.on('error', () => undefined);
    child.stderr.on('data', (chunk: Buffer) => {
      tail.push(chunk);
      options.onStderr?.(chunk);
    });
    this.exited = this.exitInfo.then(async (info) => {
      await within(this.stderrEnded, STDERR_SETTLE_MS);
      return { ...info, stderrTail: tail.text() };
    });
    this.channel = new NodeStreamChannel(child.stdout, child.stdin, {
      closeDetails: async (cause) => {
        const info = await within(this.exitInfo, exitWaitMs);
        if (info && 'cause' in info) return { cause: info.cause };
        await within(this.stderrEnded, STDERR_SETTLE_MS);
        const stderrTail = tail.text();
        if (info) return { exitCode: info.exitCode, signal: info.signal, stderrTail };
        return cause ? { stderrTail, cause } : { stderrTail };
      },
    });
    // A grandchild may hold stdout open after the exit: end the channel anyway, after a while.
    void this.exitInfo.then(() => {
      setTimeout(() => this.channel.terminate(), exitWaitMs).unref();
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  stderrTail(): string {
    return this.tail.text();
  }

  shutdown(options: ShutdownOptions = {}): Promise<CloseDetails> {
    this.shutdownPromise ??= this.runShutdown(options.graceMs ?? DEFAULT_GRACE_MS);
    return this.shutdownPromise;
  }

  private async runShutdown(graceMs: number): Promise<CloseDetails> {
    this.channel.close();
    const pid = this.child.pid;
    if (pid === undefined) return this.exited;
    if ((await within(this.exitInfo, graceMs)) === undefined) {
      signalGroup(this.child, 'SIGTERM');
      if ((await within(this.exitInfo, graceMs)) === undefined) {
        signalGroup(this.child, 'SIGKILL');
        await this.exitInfo;
      }
    }
    await reapGroup(pid, graceMs);
    return this.exited;
  }
}

function spawnFailed(command: string, cwd: string | undefined, error: unknown): AcpKitError {
  const code = (error as { code?: unknown }).code;
  let reason: string;
  if (code === 'ENOENT') {
    reason =
      cwd !== undefined && !existsSync(cwd) ? `working directory ${cwd} does not exist` : 'command not found';
  } else if (code === 'EACCES') {
    reason = 'permission denied';
  } else {
    reason = error instanceof Error ? error.message : String(error);
  }
  return new AcpKitError('SPAWN_FAILED', `failed to start ${command}: ${reason}`, { command, code }, error);
}

/** Resolves with the promise's value, or undefined after `ms`. */
function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  const pid = child.pid;
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      child.kill(signal);
    } catch {
      // Already gone.
    }
  }
}

/** After the leader exited, stops what is left of its process group: SIGTERM, then SIGKILL. */
async function reapGroup(pgid: number, graceMs: number): Promise<void> {
  if (!groupAlive(pgid)) return;
  for (const [signal, wait] of [
    ['SIGTERM', graceMs],
    ['SIGKILL', 1000],
  ] as const) {
    try {
      process.kill(-pgid, signal);
    } catch {
      return;
    }
    const deadline = Date.now() + wait;
    while (Date.now() < deadline) {
      await new Promise<void>((resolve) => setTimeout(resolve, GROUP_POLL_MS));
      if (!groupAlive(pgid)) return;
    }
  }
}

/** Whether any live (non-zombie) process is left in the group. */
function groupAlive(pgid: number): boolean {
  if (process.platform === 'linux') {
    const alive = liveGroupMembersLinux(pgid);
    if (alive !== undefined) return alive;
  }
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

// Zombies still answer kill(-pgid, 0) until reaped, so on Linux look at their state in /proc.
function liveGroupMembersLinux(pgid: number): boolean | undefined {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return undefined;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) === pgid && fields[0] !== 'Z') return true;
  }
  return false;
}
