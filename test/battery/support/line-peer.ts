/**
 * A raw peer on a child process's stdin/stdout: writes lines as given (with backpressure), parses
 * every line it reads, answers the child's own requests (a client that says no to everything), and
 * lets the test wait for replies by id.
 */
import type { ChildProcess } from 'node:child_process';

export type Frame = Record<string, unknown>;

export class LinePeer {
  /** Every reply to one of our requests, by id (JSON-encoded). */
  private readonly replies = new Map<string, Frame>();
  private readonly waiters = new Map<string, (frame: Frame) => void>();
  private partial = '';
  lines = 0;
  ended = false;
  private endWaiters: (() => void)[] = [];

  /**
   * `onLine` sees every parsed line first; returning true means it consumed it (e.g. a fuzz reply).
   * Requests from the child are answered: permission → cancelled, anything else → -32601.
   */
  constructor(
    readonly child: ChildProcess,
    private readonly onLine: (line: string, frame: Frame) => boolean = () => false,
  ) {
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (data: string) => this.read(data));
    child.stdout?.on('end', () => {
      this.ended = true;
      for (const done of this.endWaiters) done();
    });
    child.stdin?.on('error', () => undefined);
  }

  private read(data: string): void {
    this.partial += data;
    let start = 0;
    let newline: number;
    while ((newline = this.partial.indexOf('\n', start)) !== -1) {
      const line = this.partial.slice(start, newline);
      start = newline + 1;
      this.lines++;
      let frame: Frame;
      try {
        frame = JSON.parse(line) as Frame;
      } catch {
        continue;
      }
      if (typeof frame !== 'object' || frame === null) continue;
      this.route(line, frame);
    }
    this.partial = this.partial.slice(start);
  }

  private route(line: string, frame: Frame): void {
    if (this.onLine(line, frame)) return;
    if (typeof frame.method === 'string') {
      if (frame.id === undefined) return;
      const result =
        frame.method === 'session/request_permission'
          ? { result: { outcome: { outcome: 'cancelled' } } }
          : { error: { code: -32601, message: 'Method not found' } };
      void this.write(JSON.stringify({ jsonrpc: '2.0', id: frame.id, ...result }) + '\n');
      return;
    }
    const key = JSON.stringify(frame.id);
    const waiter = this.waiters.get(key);
    if (waiter) {
      this.waiters.delete(key);
      waiter(frame);
    } else this.replies.set(key, frame);
  }

  /** Writes text, waiting for the pipe to drain when it is full. */
  write(text: string): Promise<void> {
    const stdin = this.child.stdin;
    if (!stdin || stdin.destroyed || stdin.writableEnded) return Promise.resolve();
    if (stdin.write(text)) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        stdin.off('drain', done);
        stdin.off('close', done);
        resolve();
      };
      stdin.once('drain', done);
      stdin.once('close', done);
    });
  }

  /** Sends a request and resolves with the reply frame. */
  request(id: string | number, method: string, params: unknown = {}): Promise<Frame> {
    const reply = this.reply(id);
    void this.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
    return reply;
  }

  /** Sends a request written by hand (`text` is the whole frame, without the newline). */
  requestText(id: string | number, text: string): Promise<Frame> {
    const reply = this.reply(id);
    void this.write(text + '\n');
    return reply;
  }

  /** Resolves with the reply to `id` (already received or still to come). */
  reply(id: string | number): Promise<Frame> {
    const key = JSON.stringify(id);
    const known = this.replies.get(key);
    if (known) return Promise.resolve(known);
    return new Promise((resolve) => this.waiters.set(key, resolve));
  }

  /** Resolves when the child's stdout ended. */
  stdoutEnded(): Promise<void> {
    if (this.ended) return Promise.resolve();
    return new Promise((resolve) => this.endWaiters.push(resolve));
  }
}
