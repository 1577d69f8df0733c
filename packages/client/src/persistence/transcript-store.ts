/**
 * The client's own record of every session: `<sessionsDir>/<localId>/events.jsonl` (append-only,
 * one {@link SessionEvent} per line) and `meta.json` (the index entry, replaced atomically).
 * Both are redacted as they are written (credential fields, token-looking strings, credential
 * options in command lines), and events nested deeper than `JSON.stringify` reaches are kept.
 *
 * Crash safety: lines are appended whole; a line torn by a crash is skipped when reading and cut
 * off before appending again, so at most the last event before a crash is lost. Reopening replays
 * the events through the reducer in one batch.
 */
import { mkdir, open, readFile, readdir, rm, stat } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { ClientError } from '../errors.js';
import { EPHEMERAL_EVENTS, type AttachMode, type SessionEvent } from '../session/events.js';
import { initialSessionState, type SessionState } from '../session/state.js';
import { reduceSessionEvents } from '../session/reducer.js';
import { upgradeV1Event } from '../protocol-v1/v1-events.js';
import { isRecord, readJsonFile, writeJsonFile } from '../util/json-file.js';
import { BATCH_BACKLOG_CHARS, LineBatch } from '../util/line-batch.js';
import { stringifyJson } from '../util/stringify-json.js';
import { mayNeedRedaction, redactCommandLine, redactReplacer } from './redact.js';

/**
 * The format of a session's record. 1: events hold the v1 wire updates the agent sent. 2: events
 * hold the neutral model's updates (`AgentUpdate`); version-1 lines in it (a session recorded
 * before, appended to since) are read through the v1 face. A reader that knows only 1 skips a
 * version-2 record rather than misreading it.
 */
export const TRANSCRIPT_VERSION = 2;

/** The index entry of a stored session. */
export interface SessionMeta {
  /** The record's format, see {@link TRANSCRIPT_VERSION}; written as the current one. */
  version: 1 | 2;
  localId: string;
  agentId?: string;
  agentName?: string;
  /** The agent's session id it was last attached to. */
  agentSessionId?: string;
  cwd: string;
  additionalDirectories: string[];
  title?: string;
  createdAt: string;
  updatedAt: string;
  turns: number;
  lastStopReason?: string;
  /** Every agent session it was attached to, oldest first. */
  attachments: { agentId: string; agentSessionId: string; how: AttachMode; at: string }[];
}

const LOCAL_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** A stored session read back. */
export interface LoadedSession {
  meta: SessionMeta;
  events: SessionEvent[];
  /** Lines that could not be read (a torn last line after a crash). */
  skippedLines: number;
}

/**
 * The transcript store.
 *
 * @example
 * const store = new TranscriptStore(paths.sessionsDir);
 * for (const meta of await store.list()) console.log(meta.localId, meta.title);
 */
export class TranscriptStore {
  constructor(readonly dir: string) {}

  /** Directory of a session. */
  sessionDir(localId: string): string {
    if (!LOCAL_ID.test(localId) || localId === '.' || localId === '..') {
      throw new ClientError('INVALID_ARGUMENT', `invalid session id ${JSON.stringify(localId).slice(0, 80)}`);
    }
    return join(this.dir, localId);
  }

  /** Creates a session's record and opens it for appending. */
  async create(meta: SessionMeta): Promise<TranscriptWriter> {
    const dir = this.sessionDir(meta.localId);
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const current = { ...meta, version: TRANSCRIPT_VERSION } as const;
    await writeJsonFile(join(dir, 'meta.json'), redactMeta(current), 0o600);
    return TranscriptWriter.open(dir, current);
  }

  /** Opens an existing session for appending. */
  async append(localId: string): Promise<TranscriptWriter> {
    const meta = await this.meta(localId);
    if (!meta) throw new ClientError('SESSION_NOT_FOUND', `no stored session ${localId}`);
    return TranscriptWriter.open(this.sessionDir(localId), meta);
  }

  /** A session's meta, or undefined. */
  async meta(localId: string): Promise<SessionMeta | undefined> {
    const raw = await readJsonFile(join(this.sessionDir(localId), 'meta.json')).catch(() => undefined);
    return parseMeta(raw);
  }

  /** Every stored session, most recently updated first. */
  async list(): Promise<SessionMeta[]> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const metas = await Promise.all(
      names.filter((name) => LOCAL_ID.test(name)).map((name) => this.meta(name)),
    );
    return metas
      .filter((meta): meta is SessionMeta => meta !== undefined)
      .sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : 0));
  }

  /**
   * Finds a session by local id, unique local-id prefix, or agent session id; undefined when none
   * matches. A prefix of several local ids throws SESSION_NOT_FOUND naming them (`details.matches`).
   */
  async find(id: string): Promise<SessionMeta | undefined> {
    if (LOCAL_ID.test(id)) {
      const exact = await this.meta(id);
      if (exact) return exact;
    }
    const all = await this.list();
    const byAgent = all.filter(
      (meta) => meta.agentSessionId === id || meta.attachments.some((a) => a.agentSessionId === id),
    );
    if (byAgent.length > 0) return byAgent[0];
    const byPrefix = all.filter((meta) => meta.localId.startsWith(id));
    if (byPrefix.length > 1) {
      const matches = byPrefix.map((meta) => meta.localId);
      const shown = matches.slice(0, 5).join(', ') + (matches.length > 5 ? ', …' : '');
      throw new ClientError(
        'SESSION_NOT_FOUND',
        `${id} matches ${matches.length} sessions (${shown}): give more of the id`,
        { matches },
      );
    }
    return byPrefix[0];
  }

  /** Reads a session's events. */
  async load(localId: string): Promise<LoadedSession> {
    const meta = await this.meta(localId);
    if (!meta) throw new ClientError('SESSION_NOT_FOUND', `no stored session ${localId}`);
    let text = '';
    try {
      text = await readFile(join(this.sessionDir(localId), 'events.jsonl'), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    const events: SessionEvent[] = [];
    let skippedLines = 0;
    let start = 0;
    while (start < text.length) {
      let end = text.indexOf('\n', start);
      if (end < 0) end = text.length;
      if (end > start) {
        try {
          events.push(...upgradeV1Event(JSON.parse(text.slice(start, end)) as SessionEvent));
        } catch {
          skippedLines++;
        }
      }
      start = end + 1;
    }
    return { meta, events, skippedLines };
  }

  /** Reads a session and rebuilds its state. */
  async loadState(
    localId: string,
  ): Promise<{ meta: SessionMeta; state: SessionState; skippedLines: number }> {
    const { meta, events, skippedLines } = await this.load(localId);
    const base = initialSessionState(meta.localId, meta.cwd, meta.additionalDirectories);
    let state = reduceSessionEvents(base, events);
    if (state.status === 'running' || state.status === 'cancelling') {
      // The client stopped in the middle of a turn: close it the way a crash would have.
      const error = { code: 'INTERRUPTED', message: 'the client stopped during this turn' };
      state = reduceSessionEvents(state, [{ type: 'agent_exited', at: Date.now(), error }]);
    }
    return { meta, state, skippedLines };
  }

  /** Deletes a stored session; false when there was none. */
  async delete(localId: string): Promise<boolean> {
    const dir = this.sessionDir(localId);
    try {
      await stat(join(dir, 'meta.json'));
    } catch {
      return false;
    }
    await rm(dir, { recursive: true, force: true });
    return true;
  }
}

/**
 * Appends events to one session's record. Writes are batched (at most every 100 ms, at once past
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
  /** The first write error, if any (the session goes on; the record is incomplete). */
  error: Error | undefined;

  private constructor(
    readonly dir: string,
    private handle: FileHandle | undefined,
    public meta: SessionMeta,
  ) {}

  static async open(dir: string, meta: SessionMeta): Promise<TranscriptWriter> {
    const handle = await open(join(dir, 'events.jsonl'), 'a+', 0o600);
    await cutTornLine(handle);
    return new TranscriptWriter(dir, handle, meta);
  }

  /** Queues an event (ephemeral ones are skipped). */
  append(event: SessionEvent): void {
    if (this.closed || EPHEMERAL_EVENTS.has(event.type)) return;
    const text = plainChunkText(event);
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
    const plain = stringifyJson(event);
    this.batch.push(`${mayNeedRedaction(plain) ? stringifyJson(event, redactReplacer) : plain}\n`);
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
    const text = this.batch.take();
    this.chain = this.chain.then(async () => {
      try {
        if (text.length > 0) {
          this.handle ??= await open(join(this.dir, 'events.jsonl'), 'a', 0o600);
          await this.handle.write(text);
        }
        if (sync) await this.handle?.datasync();
      } catch (error) {
        this.error ??= error as Error;
      } finally {
        this.batch.settled(text.length);
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

  /** Flushes to disk and closes the file. */
  async close(): Promise<void> {
    if (this.closed) return;
    await this.flush(true);
    this.closed = true;
    await this.chain;
    await this.release();
  }

  private async release(): Promise<void> {
    const handle = this.handle;
    this.handle = undefined;
    await handle?.close().catch(() => undefined);
  }
}

type UpdateEvent = Extract<SessionEvent, { type: 'update' }>;

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

/** Cuts an incomplete last line (left by a crash) so that the next append starts a clean line. */
async function cutTornLine(handle: FileHandle): Promise<void> {
  const { size } = await handle.stat();
  if (size === 0) return;
  const last = Buffer.alloc(1);
  await handle.read(last, 0, 1, size - 1);
  if (last[0] === 0x0a) return;
  const chunk = Buffer.alloc(64 * 1024);
  let end = size;
  while (end > 0) {
    const start = Math.max(0, end - chunk.length);
    const { bytesRead } = await handle.read(chunk, 0, end - start, start);
    const newline = chunk.subarray(0, bytesRead).lastIndexOf(0x0a);
    if (newline >= 0) {
      await handle.truncate(start + newline + 1);
      return;
    }
    end = start;
  }
  await handle.truncate(0);
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

function parseMeta(raw: unknown): SessionMeta | undefined {
  if (
    !isRecord(raw) ||
    (raw.version !== 1 && raw.version !== TRANSCRIPT_VERSION) ||
    typeof raw.localId !== 'string' ||
    typeof raw.cwd !== 'string'
  )
    return undefined;
  return {
    ...(raw as unknown as SessionMeta),
    additionalDirectories: Array.isArray(raw.additionalDirectories)
      ? (raw.additionalDirectories as string[])
      : [],
    attachments: Array.isArray(raw.attachments) ? (raw.attachments as SessionMeta['attachments']) : [],
    createdAt: typeof raw.createdAt === 'string' ? raw.createdAt : '',
    updatedAt: typeof raw.updatedAt === 'string' ? raw.updatedAt : '',
    turns: typeof raw.turns === 'number' ? raw.turns : 0,
  };
}
