/**
 * Runs a command as our own child process (when the client has no terminals), streaming its
 * combined output. The command gets its own process group so that cancelling stops everything it
 * started.
 */
import { spawn } from 'node:child_process';
import { AbortedError } from '../../util/abort.js';
import { keepTail } from '../../util/text.js';
import { shellInvocation, type CommandOutcome } from './shell.js';

export interface LocalRunOptions {
  commandLine: string;
  cwd: string;
  outputByteLimit: number;
  timeoutMs: number;
  signal: AbortSignal;
  /** Each chunk as it arrives, with the retained output so far. */
  onOutput?(chunk: string, retained: string): void;
}

/** Grace between SIGTERM and SIGKILL. */
const KILL_GRACE_MS = 1_000;
/** Longest wait for the output pipes after the process exited. */
const PIPE_DRAIN_MS = 500;

/**
 * Resolves when the command has exited; rejects with {@link AbortedError} when `signal` aborts
 * (after the process group was told to stop).
 */
export function runLocalCommand(options: LocalRunOptions): Promise<CommandOutcome> {
  const { command, args } = shellInvocation(options.commandLine);
  return new Promise<CommandOutcome>((resolve, reject) => {
    if (options.signal.aborted) return reject(new AbortedError());
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: process.platform !== 'win32',
      windowsHide: true,
    });
    let retained = '';
    let truncated = false;
    let timedOut = false;
    let aborted = false;
    let settled = false;
    let killTimer: NodeJS.Timeout | undefined;

    const onData = (buffer: Buffer): void => {
      const chunk = buffer.toString('utf8');
      const kept = keepTail(retained + chunk, options.outputByteLimit);
      retained = kept.text;
      truncated ||= kept.truncated;
      options.onOutput?.(chunk, retained);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);

    const stop = (): void => {
      signalGroup(child.pid, 'SIGTERM');
      killTimer ??= setTimeout(() => signalGroup(child.pid, 'SIGKILL'), KILL_GRACE_MS);
      killTimer.unref();
    };
    // On cancel we still wait for the process to go, so nothing keeps running behind a "cancelled" call.
    const onAbort = (): void => {
      aborted = true;
      stop();
    };
    const timeout = setTimeout(() => {
      timedOut = true;
      stop();
    }, options.timeoutMs);
    timeout.unref();
    options.signal.addEventListener('abort', onAbort, { once: true });

    const finish = (settle: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timeout);
      if (killTimer) clearTimeout(killTimer);
      options.signal.removeEventListener('abort', onAbort);
      settle();
    };
    child.on('error', (error) => finish(() => reject(error)));
    const done = (code: number | null, signal: NodeJS.Signals | null): void => {
      // Whatever the command started in its group goes with it.
      if (aborted || timedOut) signalGroup(child.pid, 'SIGKILL');
      finish(() =>
        aborted
          ? reject(new AbortedError())
          : resolve({ exitCode: code, signal, output: retained, truncated, timedOut }),
      );
    };
    child.on('close', done);
    // 'close' waits for the pipes; a background grandchild holding them open must not hang the
    // tool, so once the process itself has exited we give the pipes a bounded moment to drain.
    child.on('exit', (code, signal) => {
      setTimeout(() => done(code, signal), PIPE_DRAIN_MS).unref();
    });
  });
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
