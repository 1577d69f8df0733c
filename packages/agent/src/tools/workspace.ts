/**
 * The session's workspace roots (`cwd` plus `additionalDirectories`) and path confinement.
 * Confinement compares real paths: a symlink inside a root that points outside counts as outside,
 * including a dangling one that a write would create through.
 */
import { lstat, readlink, realpath, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, relative, resolve, sep } from 'node:path';

/** A path as a tool sees it. */
export interface ResolvedPath {
  /** Absolute path as the user wrote it (relative paths resolved against `cwd`), for display and the client. */
  path: string;
  /** Where it really points (symlinks resolved, also for a path that does not exist yet). */
  real: string;
  /** Whether `real` is inside one of the roots. */
  inside: boolean;
}

/** Thrown when a root does not exist or is not a directory. */
export class WorkspaceRootError extends Error {
  override readonly name = 'WorkspaceRootError';
}

const MAX_LINK_DEPTH = 40;

/**
 * Resolves `path` to where it really points, like `realpath`, but also for paths that do not exist
 * (the missing tail is appended to the real path of the nearest existing ancestor).
 */
export async function realPathLoose(path: string, depth = 0): Promise<string> {
  try {
    return await realpath(path);
  } catch {
    // Not there (or a dangling symlink): work it out piece by piece below.
  }
  if (depth > MAX_LINK_DEPTH) return path;
  const info = await lstat(path).catch(() => undefined);
  if (info?.isSymbolicLink()) {
    const target = await readlink(path);
    return realPathLoose(resolve(dirname(path), target), depth + 1);
  }
  const parent = dirname(path);
  if (parent === path) return path;
  return resolve(await realPathLoose(parent, depth + 1), basename(path));
}

/**
 * The roots a session's file tools are bounded to.
 *
 * @example
 * const ws = await Workspace.create('/repo', ['/shared/lib']);
 * const target = await ws.resolve('src/index.ts'); // { path: '/repo/src/index.ts', inside: true, … }
 */
export class Workspace {
  private constructor(
    /** The session's working directory as given by the client. */
    readonly cwd: string,
    /** Additional roots as given by the client. */
    readonly additionalDirectories: readonly string[],
    /** Real paths of all roots, `cwd` first. */
    readonly realRoots: readonly string[],
  ) {}

  static async create(cwd: string, additionalDirectories: readonly string[] = []): Promise<Workspace> {
    const roots: string[] = [];
    for (const dir of [cwd, ...additionalDirectories]) {
      if (!isAbsolute(dir)) throw new WorkspaceRootError(`Not an absolute path: ${dir}`);
      const info = await stat(dir).catch(() => undefined);
      if (!info?.isDirectory()) throw new WorkspaceRootError(`Not a directory: ${dir}`);
      roots.push(await realpath(dir));
    }
    return new Workspace(
      resolve(cwd),
      additionalDirectories.map((dir) => resolve(dir)),
      roots,
    );
  }

  /** Whether a real path lies inside (or is) one of the roots. */
  contains(real: string): boolean {
    return this.realRoots.some(
      (root) => real === root || real.startsWith(root.endsWith(sep) ? root : root + sep),
    );
  }

  async resolve(path: string): Promise<ResolvedPath> {
    const absolute = resolve(this.cwd, expandFileUri(path));
    const real = await realPathLoose(absolute);
    return { path: absolute, real, inside: this.contains(real) };
  }

  /** A short form for titles: relative to `cwd` when below it, else absolute. */
  display(path: string): string {
    const rel = relative(this.cwd, path);
    if (rel === '') return '.';
    return rel.startsWith('..') || isAbsolute(rel) ? path : rel;
  }
}

/** Accepts `file://` URIs wherever a path is expected (prompts carry them in resource links). */
export function expandFileUri(path: string): string {
  if (!path.startsWith('file://')) return path;
  try {
    return decodeURIComponent(new URL(path).pathname);
  } catch {
    return path;
  }
}
