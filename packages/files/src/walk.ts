/**
 * The file walker: breadth first, names sorted, `.gitignore`/`.ignore`/`info/exclude` respected,
 * `.git` always skipped, bounded in files, depth and time, and delivered in batches so that a huge
 * tree never blocks the event loop for long.
 */
import type { Dirent } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { globFilter, type GlobFilter } from './glob.js';
import { IGNORE_FILE_NAMES, IgnoreChain, rulesAbove, withDirectoryRules } from './ignore-rules.js';

/** What to do with symbolic links. None of the choices can loop. */
export type SymlinkPolicy =
  /** Leave them out (the default: a link may point anywhere). */
  | 'skip'
  /** List links to regular files as files; never enter linked directories. */
  | 'files'
  /** List linked files and walk linked directories, each real directory once. */
  | 'follow';

/** Why a walk stopped before seeing everything. */
export type Truncation = 'max-files' | 'max-depth' | 'timeout' | 'aborted';

export interface WalkOptions {
  /** Only files whose path (relative to the start, `/`-separated) matches one of these globs (picomatch, dotfiles included). */
  pattern?: string | readonly string[];
  /** Most files to deliver (default 100,000). */
  maxFiles?: number;
  /** Deepest directory level entered below the start (default 64). */
  maxDepth?: number;
  /** Stop after this long, keeping what was found (default: no limit). */
  timeoutMs?: number;
  /** Stops the walk (it ends with `truncated: 'aborted'`, it does not throw). */
  signal?: AbortSignal;
  /** Respect `.gitignore`, `.ignore` and `.git/info/exclude` (default true). `.git` is skipped either way. */
  ignoreFiles?: boolean;
  /** Symbolic links (default `'skip'`). */
  symlinks?: SymlinkPolicy;
  /** Files per delivered batch (default 512). */
  batchSize?: number;
}

/** A walk's files, and whether it stopped early. */
export interface WalkResult {
  /** Paths relative to the start directory, `/`-separated, in walk order (breadth first, sorted by name). */
  files: string[];
  truncated?: Truncation;
}

const DEFAULT_MAX_FILES = 100_000;
const DEFAULT_MAX_DEPTH = 64;
const DEFAULT_BATCH = 512;
/** Entries handled before giving the event loop a turn, in a very large directory. */
const ENTRIES_PER_TURN = 2048;

interface QueuedDir {
  /** Absolute path. */
  path: string;
  /** Path relative to the rules' top, `/`-terminated ('' for the top). */
  key: string;
  depth: number;
  chain: IgnoreChain;
}

const byName = (a: Dirent, b: Dirent): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * A walk in progress: iterate it for batches of paths; `truncated` tells, once it ends, whether
 * it stopped early.
 *
 * @example
 * const walk = walkFiles('/repo', { pattern: 'src/**\/*.ts', maxFiles: 1000 });
 * for await (const batch of walk) for (const file of batch) console.log(file);
 * if (walk.truncated) console.log(`stopped early: ${walk.truncated}`);
 */
export class FileWalk implements AsyncIterable<string[]> {
  /** Set when the walk stopped before seeing everything. */
  truncated: Truncation | undefined;
  private readonly start: string;
  private readonly options: WalkOptions;
  private readonly filter: GlobFilter | undefined;
  private readonly deadline: number;
  private readonly seenDirs = new Set<string>();
  private delivered = 0;

  constructor(start: string, options: WalkOptions = {}) {
    this.start = resolve(start);
    this.options = options;
    this.filter = options.pattern === undefined ? undefined : globFilter(options.pattern);
    this.deadline = options.timeoutMs === undefined ? Infinity : Date.now() + options.timeoutMs;
  }

  async *[Symbol.asyncIterator](): AsyncIterator<string[]> {
    const origin =
      this.options.ignoreFiles === false
        ? { top: this.start, startPrefix: '', chain: IgnoreChain.empty }
        : await rulesAbove(this.start);
    const queue: QueuedDir[] = [{ path: this.start, key: origin.startPrefix, depth: 0, chain: origin.chain }];
    const strip = origin.startPrefix.length;
    const batchSize = this.options.batchSize ?? DEFAULT_BATCH;
    let batch: string[] = [];
    for (let next = 0; next < queue.length; next++) {
      const dir = queue[next] as QueuedDir;
      // Visited directories are dropped as we go: the queue holds only what is left.
      if (next >= 1024) {
        queue.splice(0, next);
        next = 0;
      }
      if (this.stopped()) break;
      const found = await this.visit(dir, strip, queue);
      for (const file of found) {
        batch.push(file);
        if (batch.length >= batchSize) {
          yield batch;
          batch = [];
        }
      }
      if (this.truncated === 'max-files') break;
    }
    if (batch.length > 0) yield batch;
  }

  /** Lists one directory: queues its subdirectories and returns its files. */
  private async visit(dir: QueuedDir, strip: number, queue: QueuedDir[]): Promise<string[]> {
    let entries: Dirent[];
    try {
      entries = await readdir(dir.path, { withFileTypes: true });
    } catch {
      return []; // vanished or unreadable: nothing to list
    }
    entries.sort(byName);
    let chain = dir.chain;
    if (this.options.ignoreFiles !== false) {
      const present = new Set(entries.filter((e) => IGNORE_FILE_NAMES.includes(e.name)).map((e) => e.name));
      if (present.size > 0) chain = await withDirectoryRules(chain, dir.path, dir.key, present);
    }
    const files: string[] = [];
    const maxFiles = this.options.maxFiles ?? DEFAULT_MAX_FILES;
    const maxDepth = this.options.maxDepth ?? DEFAULT_MAX_DEPTH;
    for (let i = 0; i < entries.length; i++) {
      if (i > 0 && i % ENTRIES_PER_TURN === 0) {
        await nextTurn();
        if (this.stopped()) break;
      }
      const entry = entries[i] as Dirent;
      if (entry.name === '.git') continue;
      const kind = await this.kindOf(entry, dir.path);
      if (kind === undefined) continue;
      const key = dir.key + entry.name + (kind.dir ? '/' : '');
      if (chain.ignores(key)) continue;
      if (kind.dir) {
        if (dir.depth >= maxDepth) this.truncated ??= 'max-depth';
        else if (this.mayHoldMatches(key.slice(strip)) && (await this.firstVisit(kind.realId)))
          queue.push({ path: join(dir.path, entry.name), key, depth: dir.depth + 1, chain });
        continue;
      }
      const path = key.slice(strip);
      if (this.filter && !this.filter.matches(path)) continue;
      if (this.delivered >= maxFiles) {
        this.truncated = 'max-files';
        break;
      }
      this.delivered++;
      files.push(path);
    }
    return files;
  }

  /** Whether a file or directory (and, when following links, which real directory), or undefined to leave it out. */
  private async kindOf(
    entry: Dirent,
    parent: string,
  ): Promise<{ dir: boolean; realId?: string } | undefined> {
    const policy = this.options.symlinks ?? 'skip';
    if (entry.isFile()) return { dir: false };
    if (entry.isDirectory() && policy !== 'follow') return { dir: true };
    if (!entry.isDirectory() && (!entry.isSymbolicLink() || policy === 'skip')) return undefined;
    const target = await stat(join(parent, entry.name)).catch(() => undefined);
    if (target?.isFile()) return { dir: false };
    if (target?.isDirectory() && (policy === 'follow' || entry.isDirectory()))
      return { dir: true, realId: `${target.dev}:${target.ino}` };
    return undefined;
  }

  /** False for a real directory already walked (a link back up the tree): following links never loops. */
  private async firstVisit(realId: string | undefined): Promise<boolean> {
    if (realId === undefined) return true;
    if (this.seenDirs.size === 0) {
      const top = await stat(this.start).catch(() => undefined);
      if (top) this.seenDirs.add(`${top.dev}:${top.ino}`);
    }
    if (this.seenDirs.has(realId)) return false;
    this.seenDirs.add(realId);
    return true;
  }

  /** Whether a directory (relative to the start, `/`-terminated) can hold files the pattern matches. */
  private mayHoldMatches(dir: string): boolean {
    return this.filter ? this.filter.mayEnter(dir) : true;
  }

  private stopped(): boolean {
    if (this.options.signal?.aborted) this.truncated = 'aborted';
    else if (Date.now() > this.deadline) this.truncated = 'timeout';
    return this.truncated === 'aborted' || this.truncated === 'timeout';
  }
}

/** Starts a walk of `start`; see {@link FileWalk}. */
export function walkFiles(start: string, options: WalkOptions = {}): FileWalk {
  return new FileWalk(start, options);
}

/**
 * Every file under `start` that the ignore rules keep (and `pattern` matches), within the bounds.
 *
 * @example
 * const { files, truncated } = await listFiles(process.cwd(), { maxFiles: 5000 });
 */
export async function listFiles(start: string, options: WalkOptions = {}): Promise<WalkResult> {
  const walk = walkFiles(start, options);
  const files: string[] = [];
  for await (const batch of walk) files.push(...batch);
  return walk.truncated ? { files, truncated: walk.truncated } : { files };
}
