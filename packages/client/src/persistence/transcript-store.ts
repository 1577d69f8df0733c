/**
 * The client's own record of every session: `<sessionsDir>/<localId>/events.jsonl` (append-only,
 * one {@link SessionEvent} per line) and `meta.json` (the index entry, replaced atomically).
 * Both are redacted as they are written (credential fields, token-looking strings, credential
 * options in command lines), and events nested deeper than `JSON.stringify` reaches are kept.
 *
 * Crash safety: lines are appended whole; a line torn by a crash is skipped when reading and cut
 * off before appending again, so at most the last event before a crash is lost. Reopening replays
 * the events through the reducer in one batch, from the record's checkpoint (`checkpoint.jsonl`,
 * see checkpoint.ts) when it has one. Appending is transcript-writer.ts.
 */
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { ClientError } from '../errors.js';
import type { AttachMode, SessionEvent } from '../session/events.js';
import { initialSessionState, type SessionState } from '../session/state.js';
import { reduceSessionEvents } from '../session/reducer.js';
import { isRecord, readJsonFile, writeJsonFile } from '../util/json-file.js';
import { readCheckpoint, type RecordState } from './checkpoint.js';
import { readEventLines } from './event-lines.js';
import { redactMeta, TranscriptWriter } from './transcript-writer.js';

export { redactMeta, TranscriptWriter };

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
  /**
   * @param options.checkpoints whether a record is checkpointed when its writer closes (default
   *   true). Making one replays what was appended since the last, holding that state in memory at
   *   once: a one-shot run (`acp run`) that keeps only a light state turns it off, and the next
   *   client that closes the session after reading it writes the checkpoint instead.
   */
  constructor(
    readonly dir: string,
    private readonly options: { checkpoints?: boolean } = {},
  ) {}

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
    return TranscriptWriter.open(dir, current, undefined, this.options.checkpoints !== false);
  }

  /**
   * Opens an existing session for appending; `record`: its state as `loadState` read it (the
   * writer then checkpoints what it appends onto it when closed).
   */
  async append(localId: string, record?: RecordState): Promise<TranscriptWriter> {
    const meta = await this.meta(localId);
    if (!meta) throw new ClientError('SESSION_NOT_FOUND', `no stored session ${localId}`);
    return TranscriptWriter.open(this.sessionDir(localId), meta, record, this.options.checkpoints !== false);
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
    const { events, skippedLines } = await readEventLines(join(this.sessionDir(localId), 'events.jsonl'));
    return { meta, events, skippedLines };
  }

  /**
   * Reads a session and rebuilds its state: from its checkpoint, when one still describes the
   * record, plus the events appended after it; else by replaying every event. `record` is the
   * record's state as read, for the writer that appends to it (`append(localId, record)`).
   */
  async loadState(
    localId: string,
  ): Promise<{ meta: SessionMeta; state: SessionState; skippedLines: number; record: RecordState }> {
    const meta = await this.meta(localId);
    if (!meta) throw new ClientError('SESSION_NOT_FOUND', `no stored session ${localId}`);
    const dir = this.sessionDir(localId);
    const file = join(dir, 'events.jsonl');
    const checkpoint = await readCheckpoint(dir, file);
    const { events, skippedLines, end } = await readEventLines(file, checkpoint?.bytes ?? 0);
    const base = checkpoint?.state ?? initialSessionState(meta.localId, meta.cwd, meta.additionalDirectories);
    const replayed = reduceSessionEvents(base, events);
    const record = {
      bytes: end,
      state: replayed,
      checkpointBytes: checkpoint?.bytes ?? 0,
      linesAfterCheckpoint: events.length + skippedLines,
    };
    let state = replayed;
    if (state.status === 'running' || state.status === 'cancelling') {
      // The client stopped in the middle of a turn: close it the way a crash would have.
      const error = { code: 'INTERRUPTED', message: 'the client stopped during this turn' };
      state = reduceSessionEvents(state, [{ type: 'agent_exited', at: Date.now(), error }]);
    }
    return { meta, state, skippedLines, record };
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
