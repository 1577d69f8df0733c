/**
 * Atomic file writes that a racing directory↔symlink swap cannot redirect outside the checked
 * directory.
 *
 * Node has no `openat`/`mkdirat`/`renameat`, so on Linux the parent directory is opened once and
 * every later step — creating missing directories, the temp file, the rename, the cleanup — names
 * its file as `/proc/self/fd/N/<name>`: the kernel resolves that through the opened directory
 * itself, never through its path again. Each opened directory and the temp file are checked
 * through `/proc/self/fd` to be exactly the real paths the policy allowed; after the rename the
 * directory is checked again and a file that landed elsewhere (the directory itself was moved) is
 * removed. Without `/proc` (macOS, BSD) the same steps go by path with the real path of the parent
 * checked before and after each of them: the window is narrowed, not closed (docs/reliability.md).
 */
import { randomBytes } from 'node:crypto';
import { constants, existsSync, type Stats } from 'node:fs';
import { lstat, mkdir, open, readlink, realpath, rename, unlink, type FileHandle } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { ClientError } from '../errors.js';
import { refuseSpecial, truncatePath, withinRoots, type WriteTarget } from './path-guard.js';

const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const O_DIRECTORY = constants.O_DIRECTORY ?? 0;
const CREATE_TEMP = constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | O_NOFOLLOW;

/** Whether opened descriptors can be named and resolved through `/proc/self/fd` (Linux). */
export const PROC_FD_AVAILABLE = process.platform === 'linux' && existsSync('/proc/self/fd');

/** What to write where; `shown` is the path the agent sent (messages never show resolved paths). */
export interface AtomicWrite {
  target: WriteTarget;
  content: string;
  /** Real paths of the session roots (to say whether a moved file left them). */
  roots: readonly string[];
  shown: string;
}

/**
 * Writes `content` to `target.path` through a temp file renamed over it, creating missing parent
 * directories; refuses (and leaves nothing behind) when a directory on the way changed.
 */
export function writeAtomic(write: AtomicWrite): Promise<void> {
  return PROC_FD_AVAILABLE ? writeThroughHandle(write) : writeByPath(write);
}

/** The error for a directory that is no longer the checked one. */
function changed(write: AtomicWrite, actual: string | undefined): ClientError {
  if (actual !== undefined && !withinRoots(actual.replace(/ \(deleted\)$/, ''), write.roots)) {
    return new ClientError(
      'PATH_OUTSIDE_ROOTS',
      `${truncatePath(write.shown)} was moved outside the session roots while it was written; nothing was written`,
    );
  }
  return new ClientError(
    'SYMLINK_REFUSED',
    `a directory on the way to ${truncatePath(write.shown)} changed while it was written; nothing was written`,
  );
}

function tempName(): string {
  return `.acp-${randomBytes(6).toString('hex')}.tmp`;
}

async function fill(file: FileHandle, content: string, existing: Stats | undefined): Promise<Stats> {
  if (existing) await file.chmod(existing.mode & 0o7777);
  await file.writeFile(content, 'utf8');
  await file.sync();
  return file.stat();
}

function sameFile(a: Stats | undefined, b: Stats | undefined): boolean {
  return a !== undefined && b !== undefined && a.dev === b.dev && a.ino === b.ino;
}

/** An opened directory, named through `/proc/self/fd`, that must stay at `path`. */
class DirectoryHandle {
  private constructor(
    private readonly handle: FileHandle,
    readonly path: string,
  ) {}

  /** Opens `openPath` (expected to really be `path`) without following a final link, and checks it. */
  static async open(openPath: string, path: string, write: AtomicWrite): Promise<DirectoryHandle> {
    let handle: FileHandle;
    try {
      handle = await open(openPath, constants.O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ELOOP' || code === 'ENOTDIR' || code === 'ENOENT') throw changed(write, undefined);
      throw error;
    }
    const dir = new DirectoryHandle(handle, path);
    try {
      await dir.verify(write);
    } catch (error) {
      await dir.close();
      throw error;
    }
    return dir;
  }

  /** `name` inside this very directory, whatever its path has become. */
  entry(name: string): string {
    return `/proc/self/fd/${this.handle.fd}/${name}`;
  }

  /** Where the directory is now. */
  where(): Promise<string> {
    return readlink(`/proc/self/fd/${this.handle.fd}`);
  }

  async verify(write: AtomicWrite): Promise<void> {
    const actual = await this.where();
    if (actual !== this.path) throw changed(write, actual);
  }

  /** Creates (when missing) and opens the subdirectory `name`. */
  async child(name: string, write: AtomicWrite): Promise<DirectoryHandle> {
    await mkdir(this.entry(name)).catch((error: NodeJS.ErrnoException) => {
      // ENOENT: this directory was removed meanwhile (a swap replaced it).
      if (error.code === 'ENOENT') throw changed(write, undefined);
      if (error.code !== 'EEXIST') throw error;
    });
    return DirectoryHandle.open(this.entry(name), join(this.path, name), write);
  }

  close(): Promise<void> {
    return this.handle.close();
  }
}

/** Linux: every step relative to the opened, verified parent directory. */
export async function writeThroughHandle(write: AtomicWrite): Promise<void> {
  const { target } = write;
  let dir = await DirectoryHandle.open(target.ancestor, target.ancestor, write);
  try {
    for (const name of target.missing) {
      const next = await dir.child(name, write);
      await dir.close();
      dir = next;
    }
    const name = basename(target.path);
    const temp = tempName();
    let created: Stats | undefined;
    const file = await open(dir.entry(temp), CREATE_TEMP, 0o666).catch((error: NodeJS.ErrnoException) => {
      throw error.code === 'ENOENT' ? changed(write, undefined) : error;
    });
    try {
      try {
        created = await fill(file, write.content, target.existing);
        // The temp file itself must be in the checked directory (not only its descriptor's parent).
        if ((await readlink(`/proc/self/fd/${file.fd}`)) !== join(dir.path, temp))
          throw changed(write, undefined);
      } finally {
        await file.close();
      }
      refuseNonFile(await lstat(dir.entry(name)).catch(() => undefined), write.shown);
      await dir.verify(write);
      await rename(dir.entry(temp), dir.entry(name));
    } catch (error) {
      await unlink(dir.entry(temp)).catch(() => undefined);
      // ENOENT: the directory was removed while the file was written.
      throw (error as NodeJS.ErrnoException).code === 'ENOENT' ? changed(write, undefined) : error;
    }
    // After the fact: the directory itself may have been moved between the check and the rename.
    const after = await dir.where();
    if (after !== dir.path) {
      const landed = await lstat(dir.entry(name)).catch(() => undefined);
      if (sameFile(landed, created)) await unlink(dir.entry(name)).catch(() => undefined);
      throw changed(write, after);
    }
  } finally {
    await dir.close();
  }
}

/** A link or a regular file at the target is replaced by the rename; anything else is refused. */
function refuseNonFile(now: Stats | undefined, shown: string): void {
  if (now && !now.isFile() && !now.isSymbolicLink()) refuseSpecial(now, shown);
}

/** Without `/proc`: by path, the parent's real path checked before and after every step. */
export async function writeByPath(write: AtomicWrite): Promise<void> {
  const { target } = write;
  const expectParent = async (): Promise<void> => {
    const actual = await realpath(target.parent).catch(() => undefined);
    if (actual !== target.parent) throw changed(write, actual);
  };
  await mkdir(target.parent, { recursive: true });
  await expectParent();
  const temp = join(target.parent, tempName());
  let created: Stats | undefined;
  const file = await open(temp, CREATE_TEMP, 0o666);
  try {
    try {
      created = await fill(file, write.content, target.existing);
    } finally {
      await file.close();
    }
    await expectParent();
    // The temp file must be where its path says (it was not created in a swapped-in directory).
    if (!sameFile(await lstat(temp).catch(() => undefined), created)) throw changed(write, undefined);
    refuseNonFile(await lstat(target.path).catch(() => undefined), write.shown);
    await rename(temp, target.path);
  } catch (error) {
    if (sameFile(await lstat(temp).catch(() => undefined), created))
      await unlink(temp).catch(() => undefined);
    throw error;
  }
  const actual = await realpath(target.parent).catch(() => undefined);
  const landed = await lstat(target.path).catch(() => undefined);
  if (actual !== target.parent || !sameFile(landed, created)) throw changed(write, actual);
}
