/**
 * A command run as our own child process, streaming its combined output. The command gets its own
 * process group so that stopping it stops everything it started.
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { AbortedError } from '../../util/abort.js';
import { keepTail } from '../../util/text.js';
import { shellInvocation, type CommandOutcome } from './shell.js';

export interface LocalStartOptions {
  commandLine: string;
  cwd: string;
  outputByteLimit: number;
  timeoutMs: number;
  /** Each chunk as it arrives (whole characters), with the retained output so far. */
  onOutput?(chunk: string, retained: string): void;
}

/** Grace between SIGTERM and SIGKILL. */
const KILL_GRACE_MS = 1_000;
/** Longest wait for the output pipes after the process exited. */
const PIPE_DRAIN_MS = 500;

/**
 * A running command. `exited` resolves once it has ended (by itself, at its timeout, or stopped by
 * {@link stop}) and never rejects for the command's own failure; it rejects only when the process
 * could not be started.
 *
 * @example
 * const proc = new LocalProcess({ commandLine: 'npm test', cwd, outputByteLimit: 65536, timeoutMs: 120_000 });
 * const outcome = await proc.exited;
 */
export class LocalProcess {
  readonly exited: Promise<CommandOutcome>;
  /** True once {@link stop} was called. */
  stopped = false;
  private readonly child: ChildProcessByStdio<null, Readable, Readable>;
  private killTimer: NodeJS.Timeout | undefined;

  constructor(options: LocalStartOptions) {
    const { command, args } = shellInvocation(options.commandLine);
    this.child = spawn(command, args, {
      cwd: options.cwd,
      env: process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: process.platform !== 'win32',
      windowsHide: true,
    });
    let retained = '';
    let truncated = false;
    let timedOut = false;
    const listen = (stream: Readable): void => {
      // One decoder per stream: a character split across two reads is not turned into U+FFFD.
      const decoder = new StringDecoder('utf8');
      stream.on('data', (buffer: Buffer) => {
        const chunk = decoder.write(buffer);
        if (chunk === '') return;
        const kept = keepTail(retained + chunk, options.outputByteLimit);
        retained = kept.text;
        truncated ||= kept.truncated;
        options.onOutput?.(chunk, retained);
      });
    };
    listen(this.child.stdout);
    listen(this.child.stderr);

    this.exited = new Promise<CommandOutcome>((resolve, reject) => {
      let settled = false;
      const timeout = setTimeout(() => {
        timedOut = true;
        this.terminate();
      }, options.timeoutMs);
      timeout.unref();
      const finish = (settle: () => void): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timeout);
        if (this.killTimer) clearTimeout(this.killTimer);
        settle();
      };
      this.child.on('error', (error) => finish(() => reject(error)));
      const done = (code: number | null, signal: NodeJS.Signals | null): void => {
        // Whatever the command started in its group goes with it.
        if (this.stopped || timedOut) signalGroup(this.child.pid, 'SIGKILL');
        finish(() => resolve({ exitCode: code, signal, output: retained, truncated, timedOut }));
      };
      this.child.on('close', done);
      // 'close' waits for the pipes; a background grandchild holding them open must not hang the
      // command, so once the process itself has exited the pipes get a bounded moment to drain.
      this.child.on('exit', (code, signal) => {
        this.resume();
        setTimeout(() => done(code, signal), PIPE_DRAIN_MS).unref();
      });
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Stops the command and its process group (SIGTERM, then SIGKILL after a grace period). */
  stop(): void {
    this.stopped = true;
    this.terminate();
  }

  /** Stops reading its output: the command blocks once the pipe fills (the reader is behind). */
  pause(): void {
    this.child.stdout.pause();
    this.child.stderr.pause();
  }

  resume(): void {
    this.child.stdout.resume();
    this.child.stderr.resume();
  }

  private terminate(): void {
    signalGroup(this.child.pid, 'SIGTERM');
    this.killTimer ??= setTimeout(() => signalGroup(this.child.pid, 'SIGKILL'), KILL_GRACE_MS);
    this.killTimer.unref();
  }
}

export interface LocalRunOptions extends LocalStartOptions {
  signal: AbortSignal;
}

/**
 * Runs a command to its end; rejects with {@link AbortedError} when `signal` aborts (after the
 * process group was told to stop and has gone, so nothing keeps running behind a cancelled call).
 */
export async function runLocalCommand(options: LocalRunOptions): Promise<CommandOutcome> {
  if (options.signal.aborted) throw new AbortedError();
  const proc = new LocalProcess(options);
  const onAbort = (): void => proc.stop();
  options.signal.addEventListener('abort', onAbort, { once: true });
  try {
    const outcome = await proc.exited;
    if (options.signal.aborted) throw new AbortedError();
    return outcome;
  } finally {
    options.signal.removeEventListener('abort', onAbort);
  }
}

function signalGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    if (process.platform === 'win32') process.kill(pid, signal);
    else process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}
