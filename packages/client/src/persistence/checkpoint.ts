/**
 * Checkpoints of a session's record: the state that replaying `events.jsonl` up to a byte offset
 * gives, kept beside it in `checkpoint.jsonl` (a header line, then the state), so that reopening a
 * long session parses and replays only what was appended after it instead of every event.
 *
 * A checkpoint is only ever made by replaying the record itself (never from a live store, which
 * holds what the record leaves out: terminal output, stall marks, text not yet redacted), so a
 * session opened from it has exactly the state a full replay would give. It is used only while
 * it still describes the record: the same format and state version, and the same bytes at the
 * end of the part it covers (the record is append-only; a record replaced or cut is replayed
 * whole). Older records without one open as before, by a full replay.
 */
import { createHash } from 'node:crypto';
import { open, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SessionState } from '../session/state.js';
import { SESSION_STATE_VERSION } from '../session/state.js';
import { isRecord, writeFileAtomic } from '../util/json-file.js';
import { CLIENT_VERSION } from '../version.js';

/** The checkpoint's file in a session's directory. */
export const CHECKPOINT_FILE = 'checkpoint.jsonl';
/** Format of the file (its header and state lines). */
const CHECKPOINT_FORMAT = 1;
/**
 * Bytes of the record after its checkpoint (or all of it) past which closing the record writes a
 * new checkpoint: replaying less than this costs a few tens of milliseconds.
 */
export const CHECKPOINT_MIN_BYTES = 1024 * 1024;
/**
 * Nor fewer lines than this since the last checkpoint: replaying a few lines costs what reading a
 * checkpoint of them would, and replaying a few huge ones (a message of tens of MiB) to make it
 * would hold the message a second and third time at the end of the session.
 */
export const CHECKPOINT_MIN_LINES = 1000;
/** Bytes at the end of the covered part whose hash identifies the record. */
const TAIL_BYTES = 4096;

/** The record's state at a byte offset of its `events.jsonl`. */
export interface RecordState {
  /** Bytes of `events.jsonl` replayed (the end of a complete line). */
  readonly bytes: number;
  /** The state they give (before a turn left open by a crash is closed). */
  readonly state: SessionState;
  /** Bytes covered by the checkpoint on disk (0: none). */
  readonly checkpointBytes: number;
  /** Lines of the record after the checkpoint (replayed when it was read). */
  readonly linesAfterCheckpoint?: number;
}

interface Header {
  format: number;
  stateVersion: number;
  client: string;
  bytes: number;
  tail: string;
}

/** Hash of the bytes of `file` just before `bytes`, or undefined when it is shorter. */
async function tailHash(file: string, bytes: number): Promise<string | undefined> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch {
    return undefined;
  }
  try {
    const { size } = await handle.stat();
    if (size < bytes) return undefined;
    const length = Math.min(bytes, TAIL_BYTES);
    const tail = Buffer.alloc(length);
    const { bytesRead } = await handle.read(tail, 0, length, bytes - length);
    return bytesRead === length ? createHash('sha256').update(tail).digest('hex') : undefined;
  } finally {
    await handle.close();
  }
}

/**
 * The checkpoint of the session in `dir` when there is one that still describes `eventsFile`;
 * undefined otherwise (none, another version, a record that no longer starts with what it
 * covered, or an unreadable file).
 */
export async function readCheckpoint(
  dir: string,
  eventsFile: string,
): Promise<{ bytes: number; state: SessionState } | undefined> {
  let text: string;
  try {
    text = await readFile(join(dir, CHECKPOINT_FILE), 'utf8');
  } catch {
    return undefined;
  }
  const newline = text.indexOf('\n');
  if (newline < 0) return undefined;
  try {
    const header = JSON.parse(text.slice(0, newline)) as unknown;
    if (
      !isRecord(header) ||
      header.format !== CHECKPOINT_FORMAT ||
      header.stateVersion !== SESSION_STATE_VERSION ||
      header.client !== CLIENT_VERSION ||
      typeof header.bytes !== 'number' ||
      typeof header.tail !== 'string'
    )
      return undefined;
    if ((await tailHash(eventsFile, header.bytes)) !== header.tail) return undefined;
    const state = JSON.parse(text.slice(newline + 1)) as unknown;
    if (!isRecord(state) || !Array.isArray(state.items)) return undefined;
    return { bytes: header.bytes, state: state as unknown as SessionState };
  } catch {
    return undefined;
  }
}

/** Writes the checkpoint of `state`, the state of the first `bytes` of `eventsFile` (atomically). */
export async function writeCheckpoint(
  dir: string,
  eventsFile: string,
  bytes: number,
  state: SessionState,
): Promise<void> {
  const tail = await tailHash(eventsFile, bytes);
  if (tail === undefined) return;
  const header: Header = {
    format: CHECKPOINT_FORMAT,
    stateVersion: SESSION_STATE_VERSION,
    client: CLIENT_VERSION,
    bytes,
    tail,
  };
  // In pieces: the state may hold a message of tens of MiB, written without another copy of it.
  await writeFileAtomic(
    join(dir, CHECKPOINT_FILE),
    [`${JSON.stringify(header)}\n`, JSON.stringify(state), '\n'],
    0o600,
  );
}
