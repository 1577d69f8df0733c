/**
 * The remote server for the battery's R cases: `acp serve` from source as a real process on
 * 127.0.0.1, and raw clients that speak its two profiles frame by frame (a WebSocket from `ws`,
 * and Streamable HTTP POSTs with SSE streams read by the protocol's parser), so the cases can send
 * what no well-behaved client would.
 */
import type { ChildProcess } from 'node:child_process';
import { SseParser } from '@acp-kit/protocol/remote';
import { WebSocket } from 'ws';
import { Collected, exitOf, killQuietly, pollUntil, spawnAcp, type BatteryHome } from './procs.js';

/** A running `acp serve`. */
export interface Served {
  readonly child: ChildProcess;
  readonly url: string;
  readonly port: number;
  /** Its stderr so far (connection lines, agent starts and ends). */
  stderr(): string;
  /** Agents it started so far (its `started … pid N` lines). */
  started(): number;
  /** Connections it closed so far. */
  closed(): number;
  /** Whether it logged the close of connection `id` (a full `Acp-Connection-Id`). */
  hasClosed(id: string): boolean;
  /** Ctrl-C, then its exit. */
  stop(): Promise<void>;
}

/** `acp serve --port 0 ARGS` from source; resolves once it listens. */
export async function startServe(home: BatteryHome, args: readonly string[]): Promise<Served> {
  const child = spawnAcp(['serve', '--port', '0', ...args], { cwd: home.work, env: home.env });
  const stdout = new Collected(child.stdout);
  const stderr = new Collected(child.stderr);
  await pollUntil(
    () => /^connect:/m.test(stdout.text) || child.exitCode !== null,
    'acp serve listening',
    120_000,
  );
  const url = /at (http:\/\/\S+\/acp)/.exec(stdout.text)?.[1];
  if (!url) throw new Error(`acp serve did not start: ${stderr.text.slice(-2000)}`);
  const count = (pattern: RegExp): number => stderr.text.match(pattern)?.length ?? 0;
  return {
    child,
    url,
    port: Number(new URL(url).port),
    stderr: () => stderr.text,
    started: () => count(/: started .*, pid \d+/g),
    closed: () => count(/connection \w+ closed/g),
    hasClosed: (id) => stderr.text.includes(`connection ${id.slice(0, 8)} closed`),
    stop: async () => {
      killQuietly(child.pid, 'SIGINT');
      await exitOf(child, 30_000).catch(() => killQuietly(child.pid, 'SIGKILL'));
    },
  };
}

export const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 'init',
  method: 'initialize',
  params: { protocolVersion: 1, clientCapabilities: {} },
});

export function newSessionFrame(id: string, cwd: string): string {
  return JSON.stringify({ jsonrpc: '2.0', id, method: 'session/new', params: { cwd, mcpServers: [] } });
}

export function promptFrame(id: string, sessionId: string, text: string): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'session/prompt',
    params: { sessionId, prompt: [{ type: 'text', text }] },
  });
}

type Frame = Record<string, unknown>;

/**
 * What a raw client received: every message, and waiters for a reply by id. The agent's own
 * requests are answered as a client that says no to everything would (permission: cancelled;
 * anything else: -32601), so its turns end.
 */
class Received {
  count = 0;
  private readonly waiters: { test: (frame: Frame) => boolean; resolve: (f: Frame) => void }[] = [];

  constructor(
    private readonly respond: (line: string) => void,
    private readonly onFrame?: (line: string, frame: Frame) => void,
  ) {}

  take(line: string): void {
    this.count++;
    let frame: Frame;
    try {
      frame = JSON.parse(line) as Frame;
    } catch {
      frame = {};
    }
    this.onFrame?.(line, frame);
    if (typeof frame.method === 'string' && frame.id !== undefined) {
      const answer =
        frame.method === 'session/request_permission'
          ? { result: { outcome: { outcome: 'cancelled' } } }
          : { error: { code: -32601, message: 'Method not found' } };
      this.respond(JSON.stringify({ jsonrpc: '2.0', id: frame.id, ...answer }));
    }
    for (const waiter of this.waiters.filter((w) => w.test(frame))) {
      this.waiters.splice(this.waiters.indexOf(waiter), 1);
      waiter.resolve(frame);
    }
  }

  /** The next message matching `test`. */
  next(test: (frame: Frame) => boolean): Promise<Frame> {
    return new Promise((resolve) => this.waiters.push({ test, resolve }));
  }

  /** The reply to request `id`. */
  reply(id: unknown): Promise<Frame> {
    return this.next((frame) => frame.id === id && frame.method === undefined);
  }
}

/** A WebSocket to the endpoint, text frame by text frame. */
export class RawSocket {
  readonly received: Received;
  readonly closed: Promise<{ code: number; reason: string }>;
  /** The server's `Acp-Connection-Id` for this socket. */
  connectionId = '';
  /** When it closed (`performance.now()`). */
  closedAt: number | undefined;

  private constructor(
    readonly ws: WebSocket,
    onFrame?: (line: string, frame: Frame) => void,
  ) {
    this.received = new Received((line) => void this.send(line), onFrame);
    ws.on('message', (data: Buffer, isBinary: boolean) => {
      if (!isBinary) this.received.take(data.toString('utf8'));
    });
    ws.on('error', () => undefined);
    this.closed = new Promise((resolve) =>
      ws.once('close', (code: number, reason: Buffer) => {
        this.closedAt = performance.now();
        resolve({ code, reason: reason.toString() });
      }),
    );
  }

  /** Opens a socket (resolves once the upgrade is done). */
  static async open(
    url: string,
    options: { onFrame?: (line: string, frame: Frame) => void; maxPayload?: number } = {},
  ): Promise<RawSocket> {
    const ws = new WebSocket(url.replace(/^http/, 'ws'), {
      perMessageDeflate: false,
      ...(options.maxPayload ? { maxPayload: options.maxPayload } : {}),
    });
    const socket = new RawSocket(ws, options.onFrame);
    ws.once('upgrade', (res) => (socket.connectionId = String(res.headers['acp-connection-id'] ?? '')));
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
      ws.once('error', reject);
    });
    return socket;
  }

  /** Sends a text frame; resolves once it was handed to the OS. */
  send(text: string): Promise<void> {
    return new Promise((resolve) => this.ws.send(text, () => resolve()));
  }

  /** initialize and session/new; resolves with the session id. */
  async openSession(cwd: string): Promise<string> {
    const init = this.received.reply('init');
    await this.send(INITIALIZE);
    await init;
    const created = this.received.reply('new');
    await this.send(newSessionFrame('new', cwd));
    return String(((await created).result as { sessionId: string }).sessionId);
  }
}

/** Streamable HTTP, message by message: POSTs answered by status, SSE streams read into `received`. */
export class RawHttp {
  readonly received: Received;
  connectionId = '';
  private readonly streams: AbortController[] = [];

  constructor(
    readonly url: string,
    onFrame?: (line: string, frame: Frame) => void,
  ) {
    this.received = new Received((line) => void this.post(line).catch(() => undefined), onFrame);
  }

  /** POSTs `initialize`, opens the connection's stream; then session/new and its stream. */
  async openSession(cwd: string): Promise<string> {
    await this.initializeOnly();
    await this.openStream(undefined);
    const created = this.received.reply('new');
    await this.post(newSessionFrame('new', cwd));
    const sessionId = String(((await created).result as { sessionId: string }).sessionId);
    await this.openStream(sessionId);
    return sessionId;
  }

  /** POSTs one message (with `Acp-Session-Id` when given); resolves with the status. */
  async post(body: string, session?: string): Promise<number> {
    const headers: Record<string, string> = {
      'Content-Type': 'application/json',
      'Acp-Connection-Id': this.connectionId,
    };
    if (session !== undefined) headers['Acp-Session-Id'] = session;
    const response = await fetch(this.url, { method: 'POST', headers, body });
    await response.arrayBuffer();
    return response.status;
  }

  /** Opens the connection's SSE stream (`session` undefined) or a session's, read until closed. */
  private async openStream(session: string | undefined): Promise<void> {
    const controller = new AbortController();
    this.streams.push(controller);
    const headers: Record<string, string> = {
      Accept: 'text/event-stream',
      'Acp-Connection-Id': this.connectionId,
    };
    if (session !== undefined) headers['Acp-Session-Id'] = session;
    const response = await fetch(this.url, { headers, signal: controller.signal });
    if (response.status !== 200 || !response.body) throw new Error(`stream: HTTP ${response.status}`);
    const parser = new SseParser((event) => this.received.take(event.data), {
      maxEventBytes: 64 * 1024 * 1024,
    });
    void (async () => {
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      for (;;) {
        const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
        if (done || !value) return;
        parser.feed(value);
      }
    })();
  }

  /** POSTs `initialize` only (the connection and its agent exist; no stream is opened). */
  async initializeOnly(): Promise<void> {
    const init = await fetch(this.url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: INITIALIZE,
    });
    await init.text();
    if (init.status !== 200) throw new Error(`initialize: HTTP ${init.status}`);
    this.connectionId = init.headers.get('acp-connection-id') ?? '';
  }

  /** Stops reading the streams without a DELETE: a client that vanished. */
  drop(): void {
    for (const controller of this.streams) controller.abort();
  }

  /** DELETE, and stops reading the streams. */
  async close(): Promise<void> {
    await fetch(this.url, { method: 'DELETE', headers: { 'Acp-Connection-Id': this.connectionId } })
      .then((response) => response.arrayBuffer())
      .catch(() => undefined);
    for (const controller of this.streams) controller.abort();
  }
}
