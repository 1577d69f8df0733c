/**
 * Small JSON files written atomically (temp file + rename), read leniently.
 */
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { ClientError } from '../errors.js';
import { appendTexts } from './append-texts.js';

/**
 * A random name part for a temp file. node:crypto is loaded here, on the first write, not at import:
 * reading this file is part of the UI's first frame, and loading crypto costs several milliseconds.
 */
function randomHex(): string {
  return process.getBuiltinModule('node:crypto').randomBytes(6).toString('hex');
}

/** Reads and parses a JSON file; `undefined` when it does not exist. Throws CONFIG_INVALID when it is not JSON. */
export async function readJsonFile(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new ClientError('CONFIG_INVALID', `${path} is not valid JSON: ${(error as Error).message}`, {
      path,
    });
  }
}

/**
 * Writes `text` to `path` so that readers see the old or the new content, never a mix: a temp file
 * in the same directory, flushed, then renamed over the target. `text` may come in pieces (written
 * in order, none copied: a checkpoint holding a message of tens of MiB).
 */
export async function writeFileAtomic(
  path: string,
  text: string | readonly string[],
  mode = 0o644,
): Promise<void> {
  const dir = dirname(path);
  await mkdir(dir, { recursive: true });
  const temp = join(dir, `.${basename(path)}.${randomHex()}.tmp`);
  const handle = await open(temp, 'wx', mode);
  try {
    await appendTexts(handle, typeof text === 'string' ? [text] : text);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/** Writes a value as pretty JSON, atomically. */
export function writeJsonFile(path: string, value: unknown, mode?: number): Promise<void> {
  return writeFileAtomic(path, `${JSON.stringify(value, null, 2)}\n`, mode);
}

/** A plain object (not an array or null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An array of strings. */
export function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}
