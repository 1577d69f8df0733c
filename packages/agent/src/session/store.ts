/**
 * The durable session store: one append-only JSONL event log per session plus a small metadata
 * file, under `<dataDir>/sessions/<agent>/`. Events are written synchronously before they are sent
 * to the client, so a killed agent loses nothing it had already streamed.
 *
 * Log formats: 1 (acp-kit 0.x before ACP v2) stored each `session/update` as sent to a v1 client
 * (`update` records); 2 stores the agent's own events (`event` records, `core/events.ts`), whatever
 * version the client spoke. A session's metadata names the newest format written to its log; a
 * log may hold records of both formats (a session of format 1 opened again), and every reader
 * reads both (`log-events.ts` translates format 1 through the v1 face's translation).
 */
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '@acp-kit/protocol';
import type { AgentEvent } from '../core/events.js';
import { MAX_STORED_DEPTH, capDepth } from './depth-cap.js';

/** The log format new records are written in (see above). */
export const LOG_FORMAT = 2 as const;

/** Which agent wrote a session; each agent lists and loads only its own sessions. */
export type AgentKind = 'demo' | 'model';

/** A permission decision remembered for the rest of a session (`allow_always` / `reject_always`). */
export type RememberedDecision = 'allow' | 'reject';

/** What `<id>.meta.json` holds: everything `session/list` shows and what a resumed session restores. */
export interface SessionMeta {
  /** The newest log format written to this session's log (1 or {@link LOG_FORMAT}). */
  version: 1 | 2;
  sessionId: string;
  agent: AgentKind;
  cwd: string;
  additionalDirectories: string[];
  title: string | null;
  createdAt: string;
  updatedAt: string;
  modeId: string;
  /** Current values of config options other than `mode` (for example `model`). */
  config: Record<string, string | boolean>;
  permissions: Record<string, RememberedDecision>;
  /** Cumulative cost of the session when the model has a price. */
  cost?: { amount: number; currency: string };
}

/** One line of `<id>.jsonl`. */
export type SessionRecord =
  /** An event of the session (format 2). */
  | { type: 'event'; at: string; event: AgentEvent }
  /** Format 1: a v1 `session/update` as sent (user prompts as `user_message_chunk`s). */
  | { type: 'update'; at: string; update: unknown }
  /** A message of the model's conversation (AI SDK `ModelMessage` JSON), for the model agent. */
  | { type: 'model'; message: unknown }
  /** `/compact` ran: the model's context restarts from this summary. */
  | { type: 'compaction'; at: string; summary: string };

const SESSION_ID = /^[A-Za-z0-9_-]{1,128}$/;

/** True when `id` can name a session file (guards against path traversal from the wire). */
export function isValidSessionId(id: string): boolean {
  return SESSION_ID.test(id);
}

/** An opened event log: appends are synchronous writes to one file descriptor. */
export class SessionLog {
  private fd: number | undefined;

  constructor(
    private readonly path: string,
    private readonly logger: Logger,
  ) {
    this.fd = openSync(path, 'a');
  }

  /**
   * Appends `record`; parts nested deeper than {@link MAX_STORED_DEPTH} levels (a pathological
   * `_meta`) are stored as a marker, so the record itself (a prompt, say) is never lost.
   */
  append(record: SessionRecord): void {
    if (this.fd === undefined) return;
    try {
      const storable = capDepth(record);
      if (storable !== record) {
        this.logger.log('warn', 'stored a record cut at its nesting limit', {
          path: this.path,
          maxDepth: MAX_STORED_DEPTH,
        });
      }
      writeSync(this.fd, `${JSON.stringify(storable)}\n`);
    } catch (error) {
      // A full disk must not break the live session; the client still gets the update.
      this.logger.log('error', 'could not write the session log', { path: this.path, error });
    }
  }

  close(): void {
    if (this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
  }
}

export interface ListPage {
  sessions: SessionMeta[];
  nextCursor?: string;
}

/**
 * Sessions of one agent kind on disk.
 *
 * @example
 * const store = new SessionStore('/home/me/.local/share/acp-kit/agent', 'model', logger);
 * const log = store.create(meta);
 * log.append({ type: 'event', at: new Date().toISOString(), event });
 */
export class SessionStore {
  readonly dir: string;

  constructor(
    dataDir: string,
    readonly agent: AgentKind,
    private readonly logger: Logger,
  ) {
    this.dir = join(dataDir, 'sessions', agent);
  }

  private logPath(id: string): string {
    return join(this.dir, `${id}.jsonl`);
  }

  private metaPath(id: string): string {
    return join(this.dir, `${id}.meta.json`);
  }

  /** Creates the files of a new session and opens its log. */
  create(meta: SessionMeta): SessionLog {
    mkdirSync(this.dir, { recursive: true });
    this.writeMeta(meta);
    return new SessionLog(this.logPath(meta.sessionId), this.logger);
  }

  /** Opens the log of an existing session for appending. */
  openLog(id: string): SessionLog {
    return new SessionLog(this.logPath(id), this.logger);
  }

  exists(id: string): boolean {
    return isValidSessionId(id) && existsSync(this.metaPath(id));
  }

  /** Replaces the metadata file atomically (write, then rename), so a crash never leaves half of it. */
  writeMeta(meta: SessionMeta): void {
    const path = this.metaPath(meta.sessionId);
    const temp = `${path}.${process.pid}.tmp`;
    writeFileSync(temp, `${JSON.stringify(meta, null, 2)}\n`);
    renameSync(temp, path);
  }

  readMeta(id: string): SessionMeta | undefined {
    if (!isValidSessionId(id)) return undefined;
    try {
      const meta = JSON.parse(readFileSync(this.metaPath(id), 'utf8')) as SessionMeta;
      return meta.sessionId === id && meta.agent === this.agent ? meta : undefined;
    } catch {
      return undefined;
    }
  }

  /** Every record of a session, in order; a torn last line (the agent was killed mid-write) is skipped. */
  readRecords(id: string): SessionRecord[] {
    let text: string;
    try {
      text = readFileSync(this.logPath(id), 'utf8');
    } catch {
      return [];
    }
    const records: SessionRecord[] = [];
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      try {
        records.push(JSON.parse(line) as SessionRecord);
      } catch {
        this.logger.log('warn', 'skipped an unreadable line of a session log', { sessionId: id });
      }
    }
    return records;
  }

  delete(id: string): boolean {
    if (!this.exists(id)) return false;
    rmSync(this.logPath(id), { force: true });
    rmSync(this.metaPath(id), { force: true });
    return true;
  }

  /**
   * Sessions, most recently updated first, optionally only those whose `cwd` is `cwd`. Paged by an
   * opaque cursor naming the last session of the previous page, so pages stay stable while
   * sessions are added.
   */
  list(options: { cwd?: string | null; cursor?: string | null; pageSize: number }): ListPage {
    const after = options.cursor ? decodeCursor(options.cursor) : undefined;
    let names: string[];
    try {
      names = readdirSync(this.dir).filter((name) => name.endsWith('.meta.json'));
    } catch {
      names = [];
    }
    const all: SessionMeta[] = [];
    for (const name of names) {
      const meta = this.readMeta(name.slice(0, -'.meta.json'.length));
      if (meta && (!options.cwd || meta.cwd === options.cwd)) all.push(meta);
    }
    all.sort(compareRecentFirst);
    const start = after ? all.findIndex((meta) => compareRecentFirst(meta, after) > 0) : 0;
    const from = start === -1 ? all.length : start;
    const sessions = all.slice(from, from + options.pageSize);
    const last = sessions[sessions.length - 1];
    const more = from + options.pageSize < all.length;
    return more && last ? { sessions, nextCursor: encodeCursor(last) } : { sessions };
  }
}

interface CursorKey {
  updatedAt: string;
  sessionId: string;
}

function compareRecentFirst(a: CursorKey, b: CursorKey): number {
  if (a.updatedAt !== b.updatedAt) return a.updatedAt < b.updatedAt ? 1 : -1;
  return a.sessionId < b.sessionId ? -1 : a.sessionId > b.sessionId ? 1 : 0;
}

function encodeCursor(meta: SessionMeta): string {
  return Buffer.from(JSON.stringify([meta.updatedAt, meta.sessionId])).toString('base64url');
}

/** Thrown for a cursor we did not issue; the agent answers -32602. */
export class InvalidCursorError extends Error {
  override readonly name = 'InvalidCursorError';
}

function decodeCursor(cursor: string): CursorKey {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && typeof value[0] === 'string' && typeof value[1] === 'string') {
      return { updatedAt: value[0], sessionId: value[1] };
    }
  } catch {
    // fall through
  }
  throw new InvalidCursorError('invalid cursor');
}
