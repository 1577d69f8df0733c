/**
 * Runs a peer (usually an agent) as a child process and talks to it over its stdin/stdout.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { AcpKitError, type CloseDetails } from '../jsonrpc/errors.js';
import { NodeStreamChannel } from './stream-channel.js';
import {
  processGroupAlive,
  reapProcessGroup,
  signalProcessGroup,
  trackProcessGroup,
  untrackProcessGroup,
} from './process-groups.js';
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
  /** How long to wait for stdout to end after the exit (a grandchild may hold it open; default 2000 ms). */
  exitWaitMs?: number;
  /**
   * After stdout ended or a write to stdin failed, how long to wait for the exit status before
   * deciding the process is still running with a broken connection (default 200 ms).
   */
  exitStatusWaitMs?: number;
  /**
   * Stop the process (the {@link SpawnedPeer.shutdown} sequence) as soon as its connection is lost
   * while it keeps running: it closed its stdout or its stdin (default true).
   */
  stopOnDisconnect?: boolean;
}

export interface ShutdownOptions {
  /**
   * Time given to each step (stdin closed, then SIGTERM) before the next, harsher one (default
   * 2000 ms). Calling `shutdown` again with a smaller value while it runs hurries it: the current
   * wait ends at once and the next ones are that short (0: straight to SIGKILL).
   */
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
   * treatment. Resolves once it has exited. Idempotent; a second call with a smaller `graceMs`
   * hurries the one in progress (it never skips a step's signal, only the waiting).
   */
  shutdown(options?: ShutdownOptions): Promise<CloseDetails>;
}

const DEFAULT_EXIT_WAIT_MS = 2000;
const DEFAULT_EXIT_STATUS_WAIT_MS = 200;
const DEFAULT_GRACE_MS = 2000;
/** After the exit, stderr usually ends within milliseconds; don't wait long for a grandchild's copy. */
const STDERR_SETTLE_MS = 250;

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
  /** The grace of the shutdown in progress (lowered by a hurried second call). */
  private graceMs = DEFAULT_GRACE_MS;
  /** Ends the shutdown's current wait early. */
  private hurry: (() => void) | undefined;

  constructor(command: string, args: readonly string[], options: SpawnPeerOptions) {
    const tail = new StderrTail(options.stderrTailBytes ?? DEFAULT_STDERR_TAIL_BYTES);
    this.tail = tail;
    const exitWaitMs = options.exitWaitMs ?? DEFAULT_EXIT_WAIT_MS;
    const statusWaitMs = options.exitStatusWaitMs ?? DEFAULT_EXIT_STATUS_WAIT_MS;
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
    if (child.pid !== undefined) trackProcessGroup(child.pid);
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
      // A failed write (the peer closed its stdin): decide quickly whether it exited or not.
      readableGraceMs: statusWaitMs,
      closeDetails: async (cause) => {
        const info = await within(this.exitInfo, statusWaitMs);
        if (info && 'cause' in info) return { cause: info.cause };
        if (info) {
          await within(this.stderrEnded, STDERR_SETTLE_MS);
          return { exitCode: info.exitCode, signal: info.signal, stderrTail: tail.text() };
        }
        // Still running, but one of its pipes is gone: the connection is lost for good.
        if (options.stopOnDisconnect ?? true) void this.shutdown();
        return { stderrTail: tail.text(), cause: connectionLost(cause) };
      },
    });
    // A grandchild may hold stdout open after the exit: end the channel anyway, after a while.
    void this.exitInfo.then(() => {
      setTimeout(() => this.channel.terminate(), exitWaitMs).unref();
      // An empty group's id may be reused: forget it (a group with members left keeps its id).
      if (child.pid !== undefined && !processGroupAlive(child.pid)) untrackProcessGroup(child.pid);
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  stderrTail(): string {
    return this.tail.text();
  }

  shutdown(options: ShutdownOptions = {}): Promise<CloseDetails> {
    const graceMs = Math.max(0, options.graceMs ?? DEFAULT_GRACE_MS);
    if (this.shutdownPromise) {
      if (graceMs < this.graceMs) {
        this.graceMs = graceMs;
        this.hurry?.();
      }
      return this.shutdownPromise;
    }
    this.graceMs = graceMs;
    this.shutdownPromise = this.runShutdown();
    return this.shutdownPromise;
  }

  private async runShutdown(): Promise<CloseDetails> {
    this.channel.close();
    const pid = this.child.pid;
    if (pid === undefined) return this.exited;
    if (!(await this.waitForExit())) {
      signalGroup(this.child, 'SIGTERM');
      if (!(await this.waitForExit())) {
        signalGroup(this.child, 'SIGKILL');
        await this.exitInfo;
      }
    }
    await reapProcessGroup(pid, () => this.graceMs);
    untrackProcessGroup(pid);
    return this.exited;
  }

  /** Waits up to the current grace (or until hurried) for the exit; true when it exited. */
  private async waitForExit(): Promise<boolean> {
    const hurried = new Promise<undefined>((resolve) => {
      this.hurry = () => resolve(undefined);
    });
    const info = await within(Promise.race([this.exitInfo, hurried]), this.graceMs);
    this.hurry = undefined;
    return info !== undefined;
  }
}

/** Why a running peer's connection is lost: a failed write means its stdin is gone, else its stdout. */
function connectionLost(writeError: Error | undefined): AcpKitError {
  const which = writeError ? 'stdin' : 'stdout';
  return new AcpKitError(
    'CONNECTION_CLOSED',
    `the process closed its ${which} but kept running; it is being stopped`,
    { closed: which },
    writeError,
  );
}

function spawnFailed(command: string, cwd: string | undefined, error: unknown): AcpKitError {
  const code = (error as { code?: unknown }).code;
  let reason: string;
  if (code === 'ENOENT') {
    reason =
      cwd !== undefined && !existsSync(cwd) ? `working directory ${cwd} does not exist` : 'command not found';
  } else if (code === 'EACCES') {
    reason = 'not executable (permission denied)';
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
  if (pid === undefined || signalProcessGroup(pid, signal)) return;
  try {
    child.kill(signal);
  } catch {
    // Already gone.
  }
}
