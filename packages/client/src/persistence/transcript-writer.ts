/**
 * Appending to a session's record (`events.jsonl`), and its checkpoint when the record is closed.
 * Events are redacted as they are written (credential fields, token-looking strings, credential
 * options in command lines); consecutive text chunks of one message are written as one event.
 */
import { open } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { EPHEMERAL_EVENTS, type SessionEvent } from '../session/events.js';
import { reduceSessionEvents } from '../session/reducer.js';
import { initialSessionState } from '../session/state.js';
import { writeJsonFile } from '../util/json-file.js';
import { appendTexts, JsonStringBody, LONG_TEXT_CHARS, textsLength } from '../util/append-texts.js';
import { BATCH_BACKLOG_CHARS, LineBatch } from '../util/line-batch.js';
import { stringifyJson } from '../util/stringify-json.js';
import {
  CHECKPOINT_MIN_BYTES,
  CHECKPOINT_MIN_LINES,
  writeCheckpoint,
  type RecordState,
} from './checkpoint.js';
import { readEventLines } from './event-lines.js';
import { mayNeedRedaction, redactCommandLine, redactReplacer, redactString } from './redact.js';
import type { AttachMode } from '../session/events.js';
import { TRANSCRIPT_VERSION, type SessionMeta } from './transcript-store.js';

/**
 * Appends events to one session's record. Writes are batched (at most every 500 ms, at once past
 * 256 KB, and at the end of each turn) and never interleave. While the session is detached (its
 * agent exited) the file is not held open: each write opens and closes it.
 */
export class TranscriptWriter {
  private readonly batch = new LineBatch(() => void this.flush());
  /** Consecutive text chunks of one message, merged into one event when written. */
  private chunk: { event: UpdateEvent; parts: string[]; length: number } | undefined;
  private chain: Promise<void> = Promise.resolve();
  private closed = false;
  private keepOpen = true;
  /** Lines in the record after its checkpoint: those it had (unknown: Infinity) and those queued. */
  private linesAfterCheckpoint: number;
  /** The first write error, if any (the session goes on; the record is incomplete). */
  error: Error | undefined;

  private constructor(
    readonly dir: string,
    private handle: FileHandle | undefined,
    public meta: SessionMeta,
    private readonly base: RecordState | undefined,
    linesBefore: number,
    private readonly checkpoints: boolean,
  ) {
    this.linesAfterCheckpoint = linesBefore;
  }

  /**
   * Opens the record for appending. `base`: the state the record had when it was read (from
   * `TranscriptStore.loadState`); without it, the record is new (or read by no one) and its
   * checkpoint, if one is due at close, is made by replaying all of it.
   */
  static async open(
    dir: string,
    meta: SessionMeta,
    base?: RecordState,
    checkpoints = true,
  ): Promise<TranscriptWriter> {
    const handle = await open(join(dir, 'events.jsonl'), 'a+', 0o600);
    const size = await cutTornLine(handle);
    // A record nobody read may hold any number of lines: a checkpoint is made as before.
    const linesBefore = base?.linesAfterCheckpoint ?? (size === 0 ? 0 : Infinity);
    return new TranscriptWriter(dir, handle, meta, base, linesBefore, checkpoints);
  }

  /** Queues an event (ephemeral ones are skipped). */
  append(event: SessionEvent): void {
    if (this.closed || EPHEMERAL_EVENTS.has(event.type)) return;
    const text = plainChunkText(event);
    if (text !== undefined && text.length >= LONG_TEXT_CHARS) {
      // Never merged: joining would copy it, and it is written without serialising it again.
      this.queueChunk();
      this.queueLongText(event as UpdateEvent, text);
      return;
    }
    if (text !== undefined && this.chunk && sameMessage(this.chunk.event, event)) {
      this.chunk.parts.push(text);
      this.chunk.length += text.length;
      if (this.chunk.length >= MAX_MERGED_CHUNK_CHARS) this.queueChunk();
      return;
    }
    this.queueChunk();
    if (text !== undefined) {
      // Held back to merge the chunks that follow; the batch's timer still writes it in time.
      this.chunk = { event: event as UpdateEvent, parts: [text], length: text.length };
      this.batch.schedule();
      return;
    }
    this.queue(event);
  }

  /** Queues one event's line: redacted only when its text shows something to redact. */
  private queue(event: SessionEvent): void {
    // Serialising without the replacer is several times faster; the replacer runs only when the
    // text shows something it could act on.
    this.linesAfterCheckpoint++;
    const plain = stringifyJson(event);
    // The line and its newline apart: a long line is then written as it is, never copied.
    this.batch.push(mayNeedRedaction(plain) ? stringifyJson(event, redactReplacer) : plain);
    this.batch.push('\n');
  }

  /**
   * Queues a message chunk with a long text: the line around its text serialised with an empty
   * text, and the text in between as a {@link JsonStringBody} (escaped slice by slice as it is
   * written). Written exactly as {@link queue} would write it: the replacer's only rule for a
   * text is `redactString`, applied here to the text alone.
   */
  private queueLongText(event: UpdateEvent, text: string): void {
    const content = { type: 'text', text: '' };
    const skeleton = { ...event, update: { ...event.update, content } as UpdateEvent['update'] };
    let line = stringifyJson(skeleton);
    if (mayNeedRedaction(line)) line = stringifyJson(skeleton, redactReplacer);
    // The only `text` key of the event (plainChunkText allows no other object in it); a quote
    // inside a string value would be escaped, so this cannot match there.
    const at = line.lastIndexOf(EMPTY_TEXT_FIELD);
    if (at === -1) return this.queue(event);
    this.linesAfterCheckpoint++;
    const split = at + EMPTY_TEXT_FIELD.length - 1;
    this.batch.push(line.slice(0, split));
    this.batch.push(new JsonStringBody(redactString(text)));
    this.batch.push(line.slice(split));
    this.batch.push('\n');
  }

  /** Queues the held message chunk, as one event with the text of every chunk merged into it. */
  private queueChunk(): void {
    const chunk = this.chunk;
    if (!chunk) return;
    this.chunk = undefined;
    if (chunk.parts.length === 1) return this.queue(chunk.event);
    const content = { type: 'text', text: chunk.parts.join('') };
    this.queue({
      ...chunk.event,
      update: { ...chunk.event.update, content } as UpdateEvent['update'],
      merged: chunk.parts.length,
    });
  }

  /** Writes what is queued; with `sync`, also forces it to disk. */
  flush(sync = false): Promise<void> {
    this.queueChunk();
    const texts = this.batch.take();
    this.chain = this.chain.then(async () => {
      try {
        if (texts.length > 0) {
          this.handle ??= await open(join(this.dir, 'events.jsonl'), 'a', 0o600);
          await appendTexts(this.handle, texts);
        }
        if (sync) await this.handle?.datasync();
      } catch (error) {
        this.error ??= error as Error;
      } finally {
        this.batch.settled(textsLength(texts));
      }
      if (!this.keepOpen) await this.release();
    });
    return this.chain;
  }

  /**
   * Writes what is queued and stops holding the file open (the session's agent is gone; a session
   * nobody closes must not keep it open): later writes open and close it each time.
   */
  suspend(): void {
    this.keepOpen = false;
    void this.flush(true);
  }

  /** Holds the file open again (the session is attached again). */
  resume(): void {
    this.keepOpen = true;
  }

  /** While the file lags far behind (a flood), a promise to wait on before producing more. */
  pressure(): Promise<void> | undefined {
    return this.batch.backlog > BATCH_BACKLOG_CHARS ? this.flush() : undefined;
  }

  /** Replaces fields of the meta and writes it (atomically). */
  async updateMeta(patch: Partial<SessionMeta>): Promise<void> {
    this.meta = { ...this.meta, ...patch, version: TRANSCRIPT_VERSION, updatedAt: new Date().toISOString() };
    const meta = this.meta;
    this.chain = this.chain.then(async () => {
      try {
        await writeJsonFile(join(this.dir, 'meta.json'), redactMeta(meta), 0o600);
      } catch (error) {
        this.error ??= error as Error;
      }
    });
    await this.chain;
  }

  /** Records in the meta that the session was attached to an agent session. */
  recordAttachment(
    agent: { id: string; name: string },
    agentSessionId: string,
    how: AttachMode,
  ): Promise<void> {
    return this.updateMeta({
      agentId: agent.id,
      agentName: agent.name,
      agentSessionId,
      attachments: [
        ...this.meta.attachments,
        { agentId: agent.id, agentSessionId, how, at: new Date().toISOString() },
      ],
    });
  }

  /**
   * Flushes to disk and closes the file; then, when the record has grown by
   * {@link CHECKPOINT_MIN_BYTES} since its last checkpoint, writes a new one (by replaying what
   * was appended since it was read onto the state it had then).
   */
  async close(): Promise<void> {
    if (this.closed) return;
    await this.flush(true);
    this.closed = true;
    await this.chain;
    await this.release();
    if (!this.error && this.checkpoints) await this.checkpoint().catch(() => undefined);
  }

  private async checkpoint(): Promise<void> {
    if (this.linesAfterCheckpoint < CHECKPOINT_MIN_LINES) return;
    const file = join(this.dir, 'events.jsonl');
    const from = this.base?.bytes ?? 0;
    const appended = await readEventLines(file, from);
    if (appended.end - (this.base?.checkpointBytes ?? 0) < CHECKPOINT_MIN_BYTES) return;
    const start =
      this.base?.state ??
      initialSessionState(this.meta.localId, this.meta.cwd, this.meta.additionalDirectories);
    await writeCheckpoint(this.dir, file, appended.end, reduceSessionEvents(start, appended.events));
  }

  private async release(): Promise<void> {
    const handle = this.handle;
    this.handle = undefined;
    await handle?.close().catch(() => undefined);
  }
}

type UpdateEvent = Extract<SessionEvent, { type: 'update' }>;

/** How the content's text appears in a chunk's line serialised with an empty text. */
const EMPTY_TEXT_FIELD = '"text":""';

/** Longest merged chunk text before it is queued (keeps each line well under the batch size). */
const MAX_MERGED_CHUNK_CHARS = 16 * 1024;

/**
 * The text of a message chunk that can be merged with its neighbours: a plain text block and
 * nothing else (no annotations, no `_meta`), else undefined. Replaying merged chunks gives the
 * same message; only the moments between them are lost.
 */
function plainChunkText(event: SessionEvent): string | undefined {
  if (event.type !== 'update' || event.update.kind !== 'message_chunk') return undefined;
  for (const key in event)
    if (key !== 'type' && key !== 'at' && key !== 'update' && key !== 'replay') return undefined;
  for (const key in event.update)
    if (key !== 'kind' && key !== 'role' && key !== 'content' && key !== 'messageId') return undefined;
  const content = event.update.content as { type?: unknown; text?: unknown };
  if (content.type !== 'text' || typeof content.text !== 'string') return undefined;
  for (const key in content) if (key !== 'type' && key !== 'text') return undefined;
  return content.text;
}

/** Whether `next` continues the message `held` belongs to. */
function sameMessage(held: UpdateEvent, next: SessionEvent): next is UpdateEvent {
  if (next.type !== 'update' || next.replay !== held.replay) return false;
  const a = held.update;
  const b = next.update;
  return (
    a.kind === 'message_chunk' &&
    b.kind === 'message_chunk' &&
    a.role === b.role &&
    a.messageId === b.messageId
  );
}

/**
 * Cuts an incomplete last line (left by a crash) so that the next append starts a clean line;
 * returns the record's size afterwards.
 */
async function cutTornLine(handle: FileHandle): Promise<number> {
  const { size } = await handle.stat();
  if (size === 0) return 0;
  const last = Buffer.alloc(1);
  await handle.read(last, 0, 1, size - 1);
  if (last[0] === 0x0a) return size;
  const chunk = Buffer.alloc(64 * 1024);
  let end = size;
  while (end > 0) {
    const start = Math.max(0, end - chunk.length);
    const { bytesRead } = await handle.read(chunk, 0, end - start, start);
    const newline = chunk.subarray(0, bytesRead).lastIndexOf(0x0a);
    if (newline >= 0) {
      await handle.truncate(start + newline + 1);
      return start + newline + 1;
    }
    end = start;
  }
  await handle.truncate(0);
  return 0;
}

/**
 * The meta as stored: an agent id or name holding a command line (`acp run -- CMD ARGS`) loses its
 * credentials (`--api-key X`), which `acp sessions list` would print.
 */
export function redactMeta(meta: SessionMeta): SessionMeta {
  return {
    ...meta,
    ...(meta.agentId !== undefined ? { agentId: redactCommandLine(meta.agentId) } : {}),
    ...(meta.agentName !== undefined ? { agentName: redactCommandLine(meta.agentName) } : {}),
    attachments: meta.attachments.map((a) => ({ ...a, agentId: redactCommandLine(a.agentId) })),
  };
}
