/**
 * Path checks shared by the fs and terminal services: validation of what the agent sent, real
 * paths (symlinks resolved), roots, and the deepest existing ancestor of a file to be created.
 */
import { lstat, realpath } from 'node:fs/promises';
import type { BigIntStats, Stats } from 'node:fs';
import { dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { ClientError } from '../errors.js';
import { isInside } from '../permissions/rules.js';

/** Longest path accepted from an agent. */
export const MAX_PATH_LENGTH = 4096;

/**
 * Checks a path sent by the agent: a non-empty string, absolute (ACP paths are absolute; `~` is not
 * expanded), without NUL, at most {@link MAX_PATH_LENGTH} characters. Returns it normalised.
 */
export function validateAgentPath(path: unknown, what = 'path'): string {
  if (typeof path !== 'string' || path === '')
    throw new ClientError('PATH_INVALID', `${what} must be a non-empty string`);
  if (path.includes('\0')) throw new ClientError('PATH_INVALID', `${what} contains a NUL character`);
  if (path.length > MAX_PATH_LENGTH) {
    throw new ClientError('PATH_INVALID', `${what} is longer than ${MAX_PATH_LENGTH} characters`);
  }
  if (!isAbsolute(path))
    throw new ClientError('PATH_INVALID', `${what} must be absolute: ${truncatePath(path)}`);
  return resolve(path);
}

/** Shortens a path for messages. */
export function truncatePath(path: string): string {
  return path.length <= 200 ? path : `${path.slice(0, 100)}…${path.slice(-99)}`;
}

/** The real paths of the roots that exist (a root that vanished protects nothing and allows nothing). */
export async function realRoots(roots: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const root of roots) {
    try {
      out.push(await realpath(root));
    } catch {
      // Ignored: see above.
    }
  }
  return out;
}

/** Whether a real path is inside one of the real roots. */
export function withinRoots(path: string, roots: readonly string[]): boolean {
  return roots.some((root) => isInside(path, root));
}

/** Where a write would land. */
export interface WriteTarget {
  /** Real path of the file (its parent's real path + its name). */
  path: string;
  /** Real path of the parent directory, whether it exists yet or not. */
  parent: string;
  /** Real path of the deepest ancestor that exists (the parent itself when it exists). */
  ancestor: string;
  /** Names of the directories to create under `ancestor` to make `parent`, outermost first. */
  missing: string[];
  /** lstat of the file when it exists (never followed). */
  existing: Stats | undefined;
}

/**
 * Resolves where writing `path` would land without following a symlink in the final component:
 * the deepest existing ancestor is resolved with realpath, the missing components are appended.
 */
export async function resolveWriteTarget(path: string): Promise<WriteTarget> {
  const name = path.slice(path.lastIndexOf(sep) + 1);
  if (name === '' || name === '.' || name === '..')
    throw new ClientError('PATH_INVALID', 'path names a directory');
  const missing: string[] = [];
  let ancestor = dirname(path);
  let realAncestor: string | undefined;
  for (;;) {
    try {
      realAncestor = await realpath(ancestor);
      break;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
      const parent = dirname(ancestor);
      if (parent === ancestor) throw new ClientError('FILE_NOT_FOUND', 'no existing ancestor directory');
      missing.unshift(ancestor.slice(ancestor.lastIndexOf(sep) + 1));
      ancestor = parent;
    }
  }
  const parent = missing.length > 0 ? join(realAncestor, ...missing) : realAncestor;
  const target = join(parent, name);
  let existing: Stats | undefined;
  if (missing.length === 0) {
    try {
      existing = await lstat(target);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  return { path: target, parent, ancestor: realAncestor, missing, existing };
}

/** Refuses a link or anything but a regular file (`path` is what the messages show). */
export function refuseSpecial(stats: Stats | undefined, path: string): void {
  if (!stats) return;
  if (stats.isSymbolicLink()) {
    throw new ClientError(
      'SYMLINK_REFUSED',
      `${truncatePath(path)} is a symbolic link; acp does not write through links`,
    );
  }
  if (!stats.isFile())
    throw new ClientError('NOT_A_REGULAR_FILE', `${truncatePath(path)} is ${describeFileType(stats)}`);
}

/**
 * Whether a regular file has other names (hard links) besides this one: they may be outside the
 * roots, so such a file is treated as outside them (finding every name would mean scanning disks).
 */
export function isHardLinked(stats: Stats | BigIntStats | undefined): boolean {
  return stats !== undefined && stats.isFile() && stats.nlink > 1;
}

/** Describes a file type for error messages. */
export function describeFileType(stats: Stats): string {
  if (stats.isDirectory()) return 'a directory';
  if (stats.isSymbolicLink()) return 'a symbolic link';
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  return 'not a regular file';
}
