/**
 * Ignore rules as git applies them: the `.gitignore` (and ripgrep-style `.ignore`) files of each
 * directory, the deepest file with a matching rule deciding, then `.git/info/exclude`. Matching
 * itself is the `ignore` package's (the implementation eslint and many others use).
 */
import { readFile, lstat } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ignore, { type Ignore } from 'ignore';

/** The ignore files read in every directory, highest precedence first (as ripgrep does). */
export const IGNORE_FILE_NAMES: readonly string[] = ['.ignore', '.gitignore'];
/** Ignore files larger than this are not read (a real one is a few KiB). */
const MAX_IGNORE_FILE_BYTES = 1024 * 1024;
/** Git on macOS and Windows matches case-insensitively by default (`core.ignorecase`). */
const IGNORE_CASE = process.platform === 'darwin' || process.platform === 'win32';

/** The rules of one ignore file, and the directory (relative to the walk's top, `/`-terminated or '') they apply below. */
interface Scope {
  readonly base: string;
  readonly rules: Ignore;
}

/**
 * A chain of scopes from the deepest directory up to the repository: immutable, so that every
 * queued directory of a walk can share its parent's chain.
 */
export class IgnoreChain {
  private constructor(
    private readonly scope: Scope | undefined,
    private readonly parent: IgnoreChain | undefined,
  ) {}

  static readonly empty = new IgnoreChain(undefined, undefined);

  /** This chain with the rules of `text` (an ignore file's content) applying below `base`. */
  with(base: string, text: string): IgnoreChain {
    const rules = ignore({ ignorecase: IGNORE_CASE }).add(text);
    return new IgnoreChain({ base, rules }, this);
  }

  /**
   * Whether `path` (relative to the walk's top, `/`-separated, with a trailing `/` for a directory)
   * is ignored: the deepest scope with a rule matching it decides.
   */
  ignores(path: string): boolean {
    const scope = this.scope;
    if (scope && path.startsWith(scope.base)) {
      const result = scope.rules.test(path.slice(scope.base.length));
      if (result.ignored) return true;
      if (result.unignored) return false;
    }
    return this.parent ? this.parent.ignores(path) : false;
  }
}

/** Reads an ignore file; undefined when it is missing, unreadable or too large. */
export async function readIgnoreFile(path: string): Promise<string | undefined> {
  try {
    const info = await lstat(path);
    if (!info.isFile() || info.size > MAX_IGNORE_FILE_BYTES) return undefined;
    return await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** Adds the ignore files found in `dir` (named in `present`, or probed when undefined) to `chain`. */
export async function withDirectoryRules(
  chain: IgnoreChain,
  dir: string,
  base: string,
  present?: ReadonlySet<string>,
): Promise<IgnoreChain> {
  // Lowest precedence first: the last scope added is consulted first.
  for (const name of [...IGNORE_FILE_NAMES].reverse()) {
    if (present && !present.has(name)) continue;
    const text = await readIgnoreFile(join(dir, name));
    if (text !== undefined) chain = chain.with(base, text);
  }
  return chain;
}

/** The nearest directory at or above `dir` holding `.git` (a directory, or a worktree's file). */
async function findRepositoryRoot(dir: string): Promise<{ root: string; dotGit: string } | undefined> {
  for (let current = dir; ; current = dirname(current)) {
    const dotGit = join(current, '.git');
    if (await lstat(dotGit).catch(() => undefined)) return { root: current, dotGit };
    if (dirname(current) === current) return undefined;
  }
}

/** `info/exclude` of the repository whose `.git` is `dotGit` (following a worktree's `gitdir:` file). */
async function excludeFileOf(dotGit: string): Promise<string | undefined> {
  const info = await lstat(dotGit).catch(() => undefined);
  if (!info) return undefined;
  if (info.isDirectory()) return readIgnoreFile(join(dotGit, 'info', 'exclude'));
  const pointer = await readIgnoreFile(dotGit);
  const gitDir = /^gitdir:\s*(.+)$/m.exec(pointer ?? '')?.[1]?.trim();
  if (!gitDir) return undefined;
  const absolute = resolve(dirname(dotGit), gitDir);
  const common = (await readIgnoreFile(join(absolute, 'commondir')))?.trim();
  return readIgnoreFile(join(common ? resolve(absolute, common) : absolute, 'info', 'exclude'));
}

/** Where a walk's rules come from. */
export interface RuleOrigin {
  /** The directory paths are matched relative to: the repository root, or the start directory. */
  top: string;
  /** The start directory relative to `top` (`/`-terminated, or '' when they are the same). */
  startPrefix: string;
  /** Rules of `top` and the directories between it and the start (not of the start itself). */
  chain: IgnoreChain;
}

/**
 * The rules that apply to a walk starting at `start`: `.git/info/exclude` and the ignore files of
 * the directories from the repository root down to `start`'s parent. A start directory that those
 * rules ignore was asked for explicitly, so it is walked with its own rules only.
 */
export async function rulesAbove(start: string): Promise<RuleOrigin> {
  const fresh: RuleOrigin = { top: start, startPrefix: '', chain: IgnoreChain.empty };
  const repository = await findRepositoryRoot(start);
  if (!repository) return fresh;
  const { root } = repository;
  let chain = IgnoreChain.empty;
  const exclude = await excludeFileOf(repository.dotGit);
  if (exclude !== undefined) chain = chain.with('', exclude);
  const parts = relative(root, start).split(sep).filter(Boolean);
  let prefix = '';
  let dir = root;
  for (const part of parts) {
    chain = await withDirectoryRules(chain, dir, prefix);
    prefix += `${part}/`;
    dir = join(dir, part);
    if (part === '.git' || chain.ignores(prefix)) return fresh;
  }
  return { top: root, startPrefix: prefix, chain };
}
