/**
 * The agent as a child process spoken to in raw NDJSON: for frames our typed client would refuse
 * to build (too deep to `JSON.stringify`) and for ending the agent's input at a chosen point.
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { agentCommand } from './harness.js';

export type RawFrame = { id?: unknown; method?: string; params?: unknown; result?: unknown; error?: unknown };

export class RawAgent {
  /** Every frame the agent wrote, parsed, in order. */
  readonly frames: RawFrame[] = [];
  /** The exit code (null after a signal), once the process exited and its output was read. */
  readonly exited: Promise<number | null>;
  private readonly child: ChildProcessByStdio<Writable, Readable, null>;
  private buffer = '';
  private waiters: { id: unknown; resolve: (frame: RawFrame) => void }[] = [];

  constructor(args: readonly string[], options: { cwd: string; env: NodeJS.ProcessEnv }) {
    const { command, args: argv } = agentCommand(args);
    this.child = spawn(command, argv, {
      cwd: options.cwd,
      env: options.env,
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    // 'close' comes after stdout is drained, so every frame is in `frames` by then.
    this.exited = new Promise((resolve) => this.child.once('close', resolve));
    this.child.stdout.setEncoding('utf8').on('data', (chunk: string) => this.onData(chunk));
  }

  /** Writes lines as given (each gets a newline). */
  write(...lines: string[]): void {
    this.child.stdin.write(lines.map((line) => `${line}\n`).join(''));
  }

  /** Sends a request and resolves with its response. `raw` replaces the serialised frame. */
  request(id: number, method: string, params: unknown, raw?: string): Promise<RawFrame> {
    const response = this.response(id);
    this.write(raw ?? JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    return response;
  }

  /** The response with `id` (already received or future). */
  response(id: unknown): Promise<RawFrame> {
    const seen = this.frames.find((frame) => frame.id === id && frame.method === undefined);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => this.waiters.push({ id, resolve }));
  }

  /** Ends the agent's input (after `lines`, if any). */
  end(...lines: string[]): void {
    this.child.stdin.end(lines.map((line) => `${line}\n`).join(''));
  }

  kill(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }

  private onData(chunk: string): void {
    this.buffer += chunk;
    for (let end = this.buffer.indexOf('\n'); end >= 0; end = this.buffer.indexOf('\n')) {
      const frame = JSON.parse(this.buffer.slice(0, end)) as RawFrame;
      this.buffer = this.buffer.slice(end + 1);
      this.frames.push(frame);
      if (frame.method !== undefined) continue;
      for (const waiter of this.waiters.filter((w) => w.id === frame.id)) {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        waiter.resolve(frame);
      }
    }
  }
}
