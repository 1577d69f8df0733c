/**
 * One command run for an agent: its own process group, stdout and stderr captured together,
 * killed as a group.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import {
  processGroupAlive,
  signalProcessGroup,
  trackProcessGroup,
  untrackProcessGroup,
} from '@acp-kit/protocol/node';
import { OutputBuffer } from './output-buffer.js';

/** How a terminal's command ended. */
export interface ExitStatus {
  exitCode: number | null;
  signal: string | null;
}

/** Options of {@link ManagedTerminal.start}. */
export interface StartOptions {
  program: string;
  args: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  outputLimit: number;
  /** Called with each chunk of output as it arrives (already in the buffer). */
  onOutput?: (chunk: Buffer) => void;
}

/** After the leader's exit, how long to wait for the pipes to deliver the last output. */
const OUTPUT_SETTLE_MS = 250;

/** A running (or finished) command. */
export class ManagedTerminal {
  readonly output: OutputBuffer;
  /** Resolves once the command exited and its output was collected. */
  readonly exited: Promise<ExitStatus>;
  private status: ExitStatus | undefined;
  private readonly child: ChildProcess;
  private killing: Promise<void> | undefined;
  private killGraceMs = Infinity;

  private constructor(child: ChildProcess, output: OutputBuffer, exited: Promise<ExitStatus>) {
    this.child = child;
    this.output = output;
    this.exited = exited.then((status) => {
      this.status = status;
      return status;
    });
  }

  /** Starts the command; rejects when it cannot be started (e.g. not found). */
  static start(options: StartOptions): Promise<ManagedTerminal> {
    const output = new OutputBuffer(options.outputLimit);
    const child = spawn(options.program, [...options.args], {
      cwd: options.cwd,
      env: options.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
      shell: false,
      windowsHide: true,
    });
    return new Promise((resolve, reject) => {
      child.once('error', (error) => {
        if (child.pid === undefined) reject(error);
      });
      child.once('spawn', () => {
        const pid = child.pid as number;
        // Killed with our process if it exits before the terminal was released (no orphans).
        trackProcessGroup(pid);
        const onData = (chunk: Buffer): void => {
          output.push(chunk);
          options.onOutput?.(chunk);
        };
        child.stdout?.on('data', onData);
        child.stderr?.on('data', onData);
        const streamsEnded = Promise.all(
          [child.stdout, child.stderr].map(
            (stream) => new Promise<void>((done) => (stream ? stream.once('close', () => done()) : done())),
          ),
        );
        const exited = new Promise<ExitStatus>((done) => {
          child.once('exit', (exitCode, signal) => {
            let timer: ReturnType<typeof setTimeout> | undefined;
            const settle = new Promise<void>((ok) => {
              timer = setTimeout(ok, OUTPUT_SETTLE_MS);
              timer.unref();
            });
            void Promise.race([streamsEnded, settle]).then(() => {
              clearTimeout(timer);
              if (!processGroupAlive(pid)) untrackProcessGroup(pid);
              done({ exitCode, signal });
            });
          });
        });
        resolve(new ManagedTerminal(child, output, exited));
      });
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** The exit status once the command ended. */
  get exitStatus(): ExitStatus | undefined {
    return this.status;
  }

  /**
   * Kills the whole process group: SIGTERM, then SIGKILL after `graceMs`. Also stops what the
   * command left running in the background after it exited. Resolves once the leader has exited.
   */
  kill(graceMs: number): Promise<void> {
    // Asked again with less patience (shutting down in a hurry): SIGKILL the group now.
    if (this.killing && graceMs < this.killGraceMs && this.child.pid !== undefined)
      signalProcessGroup(this.child.pid, 'SIGKILL');
    this.killGraceMs = Math.min(this.killGraceMs, graceMs);
    this.killing ??= this.runKill(graceMs);
    return this.killing;
  }

  private async runKill(graceMs: number): Promise<void> {
    const pid = this.child.pid;
    if (pid === undefined) return;
    signalProcessGroup(pid, 'SIGTERM');
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), graceMs);
    });
    const result = await Promise.race([this.exited.then(() => 'exited' as const), timedOut]);
    clearTimeout(timer);
    // SIGKILL the group either way: background children may ignore SIGTERM or outlive the leader.
    signalProcessGroup(pid, 'SIGKILL');
    if (result === 'timeout') await this.exited;
    untrackProcessGroup(pid);
    this.killing = undefined;
    this.killGraceMs = Infinity;
  }
}
