/**
 * A per-session record of the raw wire traffic, secrets redacted: `<session dir>/trace.jsonl`,
 * one `{"t": ms, "dir": "in"|"out", "frame": …}` per line. Frames are routed to sessions by their
 * `sessionId` (responses by the id of their request); frames about no session in particular
 * (`initialize`, `authenticate`, `session/list`) go to every session of the connection, and those
 * sent before a session existed open its trace.
 */
import { open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { FrameDirection } from '@acp-kit/protocol';
import { isRecord } from '../util/json-file.js';
import { redactString, redactValue } from './redact.js';

/** Largest trace file; past it, one marker line and nothing more. */
export const MAX_TRACE_BYTES = 64 * 1024 * 1024;

/** One session's trace file. */
export class TraceWriter {
  private buffer: string[] = [];
  private scheduled = false;
  private chain: Promise<void> = Promise.resolve();
  private written = 0;
  private full = false;
  private closed = false;

  private constructor(private readonly handle: FileHandle) {}

  /** Opens (appending to) `<dir>/trace.jsonl`. */
  static async open(dir: string): Promise<TraceWriter> {
    const handle = await open(join(dir, 'trace.jsonl'), 'a', 0o600);
    const writer = new TraceWriter(handle);
    writer.written = (await handle.stat()).size;
    return writer;
  }

  /** Queues a redacted frame line. */
  write(line: string): void {
    if (this.closed || this.full) return;
    if (this.written + line.length > MAX_TRACE_BYTES) {
      this.full = true;
      line = `${JSON.stringify({ t: Date.now(), note: 'trace size limit reached; later frames are not recorded' })}\n`;
    }
    this.written += line.length;
    this.buffer.push(line);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        void this.flush();
      });
    }
  }

  flush(): Promise<void> {
    const lines = this.buffer;
    this.buffer = [];
    if (lines.length > 0)
      this.chain = this.chain.then(() =>
        this.handle.write(lines.join('')).then(
          () => undefined,
          () => undefined,
        ),
      );
    return this.chain;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.flush();
    this.closed = true;
    await this.chain;
    await this.handle.close();
  }
}

/** Formats one frame as a trace line (redacted). */
export function traceLine(direction: FrameDirection, text: string, parsed: unknown): string {
  const frame = parsed === undefined ? { raw: redactString(text.slice(0, 2000)) } : redactValue(parsed);
  return `${JSON.stringify({ t: Date.now(), dir: direction, frame })}\n`;
}

/** Routes a connection's frames to the traces of its sessions. */
export class TraceRouter {
  private readonly writers = new Map<string, TraceWriter>();
  /** Frames before any session existed, replayed into each new session's trace. */
  private readonly preamble: string[] = [];
  /** Frames of a session whose trace is not open yet (its updates arrive before `session/new` returns). */
  private readonly held = new Map<string, string[]>();
  /** Request key (`out:7`) → agent session id, for routing responses. */
  private readonly requests = new Map<string, string | null>();

  /** Records one frame (call from the connection's `trace` hook). */
  frame(direction: FrameDirection, text: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text) as unknown;
    } catch {
      parsed = undefined;
    }
    const line = traceLine(direction, text, parsed);
    const sessionId = this.route(direction, parsed);
    if (sessionId) {
      const writer = this.writers.get(sessionId);
      if (writer) writer.write(line);
      else this.hold(sessionId, line);
      return;
    }
    if (this.writers.size === 0) {
      if (this.preamble.length < 200) this.preamble.push(line);
      return;
    }
    for (const writer of this.writers.values()) writer.write(line);
  }

  /** Starts recording a session into `writer` (with the frames that came before it). */
  attach(agentSessionId: string, writer: TraceWriter): void {
    for (const line of this.preamble) writer.write(line);
    for (const line of this.held.get(agentSessionId) ?? []) writer.write(line);
    this.held.delete(agentSessionId);
    this.writers.set(agentSessionId, writer);
  }

  private hold(sessionId: string, line: string): void {
    let lines = this.held.get(sessionId);
    if (!lines) {
      if (this.held.size >= 16) this.held.delete(this.held.keys().next().value as string);
      lines = [];
      this.held.set(sessionId, lines);
    }
    if (lines.length < 1000) lines.push(line);
  }

  /** Stops recording a session (the caller closes the writer). */
  detach(agentSessionId: string): void {
    this.writers.delete(agentSessionId);
  }

  private route(direction: FrameDirection, frame: unknown): string | undefined {
    if (!isRecord(frame)) return undefined;
    const id = frame.id;
    const hasId = typeof id === 'string' || typeof id === 'number';
    if (typeof frame.method === 'string') {
      const params = isRecord(frame.params) ? frame.params : undefined;
      const sessionId = typeof params?.sessionId === 'string' ? params.sessionId : undefined;
      if (hasId) {
        this.requests.set(`${direction}:${String(id)}`, sessionId ?? null);
        if (this.requests.size > 10_000) this.requests.delete(this.requests.keys().next().value as string);
      }
      return sessionId;
    }
    if (!hasId) return undefined;
    const key = `${direction === 'in' ? 'out' : 'in'}:${String(id)}`;
    const sessionId = this.requests.get(key);
    this.requests.delete(key);
    if (sessionId) return sessionId;
    // session/new answers with the id of the session it created.
    const result = isRecord(frame.result) ? frame.result : undefined;
    return typeof result?.sessionId === 'string' ? result.sessionId : undefined;
  }
}
