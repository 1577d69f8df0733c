/**
 * The index of stored sessions: each session's `meta.json` under the sessions directory, read
 * and searched without the rest of the record (events, checkpoint) or the reducer that replays
 * it. The transcript store finds sessions with it; so does a front end that starts a stored
 * session's agent before the engine has loaded (`@acp-kit/client/launch`).
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ClientError } from '../errors.js';
import type { AttachMode } from '../session/events.js';
import { isRecord, readJsonFile } from '../util/json-file.js';

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

/** The directory of session `localId` under `dir`; throws INVALID_ARGUMENT for a name that is no local id. */
export function sessionDirOf(dir: string, localId: string): string {
  if (!LOCAL_ID.test(localId) || localId === '.' || localId === '..') {
    throw new ClientError('INVALID_ARGUMENT', `invalid session id ${JSON.stringify(localId).slice(0, 80)}`);
  }
  return join(dir, localId);
}

/** Session `localId`'s index entry under `dir`, or undefined. */
export async function readSessionMeta(dir: string, localId: string): Promise<SessionMeta | undefined> {
  const raw = await readJsonFile(join(sessionDirOf(dir, localId), 'meta.json')).catch(() => undefined);
  return parseMeta(raw);
}

/** Every stored session under `dir`, most recently updated first. */
export async function listSessionMetas(dir: string): Promise<SessionMeta[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const metas = await Promise.all(
    names.filter((name) => LOCAL_ID.test(name)).map((name) => readSessionMeta(dir, name)),
  );
  return metas
    .filter((meta): meta is SessionMeta => meta !== undefined)
    .sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : 0));
}

/**
 * Finds a session under `dir` by local id, unique local-id prefix, or agent session id; undefined
 * when none matches. A prefix of several local ids throws SESSION_NOT_FOUND naming them
 * (`details.matches`).
 *
 * @example
 * const meta = await findSessionMeta(paths.sessionsDir, 's-00mw');
 */
export async function findSessionMeta(dir: string, id: string): Promise<SessionMeta | undefined> {
  if (LOCAL_ID.test(id)) {
    const exact = await readSessionMeta(dir, id);
    if (exact) return exact;
  }
  const all = await listSessionMetas(dir);
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
