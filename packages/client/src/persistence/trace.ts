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
import { appendTexts, textsLength } from '../util/append-texts.js';
import { BATCH_BACKLOG_CHARS, LineBatch } from '../util/line-batch.js';
import { redactString, redactValue, unchangedInTrace } from './redact.js';

/** Largest trace file; past it, one marker line and nothing more. */
export const MAX_TRACE_BYTES = 64 * 1024 * 1024;

/** One session's trace file. Lines are written in batches (at most every 500 ms). */
export class TraceWriter {
  private readonly batch = new LineBatch(() => void this.flush());
  private chain: Promise<void> = Promise.resolve();
  private written = 0;
  private full = false;
  private closed = false;

  private constructor(private readonly handle: FileHandle) {}

  /** Opens (appending to) `<dir>/trace.jsonl`. */
  static open(dir: string): Promise<TraceWriter> {
    return TraceWriter.openFile(join(dir, 'trace.jsonl'));
  }

  /** Opens (appending to) a trace file at any path (the `trace` proxy's `--out`). */
  static async openFile(path: string): Promise<TraceWriter> {
    const handle = await open(path, 'a', 0o600);
    const writer = new TraceWriter(handle);
    writer.written = (await handle.stat()).size;
    return writer;
  }

  /**
   * Queues a redacted frame line, given whole or in pieces (a frame's own text between the
   * record's head and tail: a long one is then written as it is, never joined into a copy).
   */
  write(line: string | readonly string[]): void {
    if (this.closed || this.full) return;
    const pieces = typeof line === 'string' ? [line] : line;
    const length = textsLength(pieces);
    if (this.written + length > MAX_TRACE_BYTES) {
      this.full = true;
      const note = `${JSON.stringify({ t: Date.now(), note: 'trace size limit reached; later frames are not recorded' })}\n`;
      this.written += note.length;
      this.batch.push(note);
      return;
    }
    this.written += length;
    for (const piece of pieces) this.batch.push(piece);
  }

  /** Writes what is queued; resolves when everything queued so far is written. */
  flush(): Promise<void> {
    const texts = this.batch.take();
    if (texts.length > 0) {
      const settle = () => this.batch.settled(textsLength(texts));
      this.chain = this.chain.then(() => appendTexts(this.handle, texts).then(settle, settle));
    }
    return this.chain;
  }

  /** While the file lags far behind (a flood), a promise to wait on before producing more. */
  pressure(): Promise<void> | undefined {
    return this.batch.backlog > BATCH_BACKLOG_CHARS ? this.flush() : undefined;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.flush();
    this.closed = true;
    await this.chain;
    await this.handle.close();
  }
}

/** One frame of a session's traffic, secrets redacted: a line of `trace.jsonl`, parsed. */
export interface TraceFrame {
  /** When it was sent or received (ms). */
  readonly t: number;
  /** `out`: sent to the agent; `in`: received from it. */
  readonly dir: FrameDirection;
  /** The redacted JSON-RPC message (`{ raw }` for a line that was not JSON). */
  readonly frame: unknown;
}

/** Redacts one frame. */
export function traceFrame(direction: FrameDirection, text: string, parsed: unknown): TraceFrame {
  const frame = parsed === undefined ? { raw: redactString(text.slice(0, 2000)) } : redactValue(parsed);
  return { t: Date.now(), dir: direction, frame };
}

/** Formats one frame as a trace line (redacted). */
export function traceLine(direction: FrameDirection, text: string, parsed: unknown): string {
  return `${JSON.stringify(traceFrame(direction, text, parsed))}\n`;
}

/**
 * Where the router delivers one session's frames: each redacted frame, and its trace line (also
 * in `pieces` when the frame's own text is part of it, to be written without joining them).
 */
export interface TraceSink {
  frame(record: TraceFrame, line: string, pieces?: readonly string[]): void;
}

/** A sink writing the lines to a trace file. */
export function writerSink(writer: TraceWriter): TraceSink {
  return { frame: (_record, line, pieces) => writer.write(pieces ?? line) };
}

interface RoutedFrame {
  readonly record: TraceFrame;
  readonly line: string;
  readonly pieces?: readonly string[];
}

/**
 * Routes a connection's frames to its sessions (their trace files and live feeds): each frame is
 * redacted once and delivered with its trace line.
 */
export class TraceRouter {
  private readonly sinks = new Map<string, TraceSink>();
  /** Frames before any session existed, replayed into each new session's sink. */
  private readonly preamble: RoutedFrame[] = [];
  /** Frames of a session whose sink is not attached yet (its updates arrive before `session/new` returns). */
  private readonly held = new Map<string, RoutedFrame[]>();
  /** Request key (`out:7`) → agent session id, for routing responses. */
  private readonly requests = new Map<string, string | null>();

  /**
   * Records one frame (call from the connection's `trace` hook, passing the parsed frame when the
   * hook has it; it is only read).
   */
  frame(direction: FrameDirection, text: string, parsed?: unknown): void {
    if (parsed === undefined) {
      try {
        parsed = JSON.parse(text) as unknown;
      } catch {
        parsed = undefined;
      }
    }
    let routed: RoutedFrame;
    if (parsed !== undefined && unchangedInTrace(text)) {
      // Nothing to redact: the frame as it came, and its own text in the line (no copy, no
      // second serialisation: the common case of a streamed chunk).
      const record: TraceFrame = { t: Date.now(), dir: direction, frame: parsed };
      const head = `{"t":${record.t},"dir":"${direction}","frame":`;
      // The line is a concatenation that refers to `text` (no copy unless someone reads it whole);
      // the trace file gets the pieces.
      routed = { record, line: head + text + '}\n', pieces: [head, text, '}\n'] };
    } else {
      const record = traceFrame(direction, text, parsed);
      routed = { record, line: `${JSON.stringify(record)}\n` };
    }
    this.deliver(direction, parsed, routed);
  }

  /** Hands a routed frame to its session's sink (held until it is attached), or to every sink. */
  private deliver(direction: FrameDirection, parsed: unknown, routed: RoutedFrame): void {
    const sessionId = this.route(direction, parsed);
    if (sessionId) {
      const sink = this.sinks.get(sessionId);
      if (sink) sink.frame(routed.record, routed.line, routed.pieces);
      else this.hold(sessionId, routed);
      return;
    }
    if (this.sinks.size === 0) {
      if (this.preamble.length < 200) this.preamble.push(routed);
      return;
    }
    for (const sink of this.sinks.values()) sink.frame(routed.record, routed.line, routed.pieces);
  }

  /**
   * Records a frame known only by its value (a long line the engine parsed as it arrived and did
   * not keep as text): its record is the redacted value, long strings cut as for any frame.
   */
  parsedFrame(direction: FrameDirection, parsed: unknown): void {
    const record = traceFrame(direction, '', parsed);
    this.deliver(direction, parsed, { record, line: `${JSON.stringify(record)}\n` });
  }

  /**
   * Starts delivering a session's frames to `sink` (with the frames that came before it); a
   * `TraceWriter` is wrapped with {@link writerSink}.
   */
  attach(agentSessionId: string, sink: TraceSink | TraceWriter): void {
    const target = sink instanceof TraceWriter ? writerSink(sink) : sink;
    for (const { record, line, pieces } of this.preamble) target.frame(record, line, pieces);
    for (const { record, line, pieces } of this.held.get(agentSessionId) ?? [])
      target.frame(record, line, pieces);
    this.held.delete(agentSessionId);
    this.sinks.set(agentSessionId, target);
  }

  private hold(sessionId: string, routed: RoutedFrame): void {
    let frames = this.held.get(sessionId);
    if (!frames) {
      if (this.held.size >= 16) this.held.delete(this.held.keys().next().value as string);
      frames = [];
      this.held.set(sessionId, frames);
    }
    if (frames.length < 1000) frames.push(routed);
  }

  /** Stops delivering a session's frames (the caller closes its writer). */
  detach(agentSessionId: string): void {
    this.sinks.delete(agentSessionId);
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
