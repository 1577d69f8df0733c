/**
 * Glob filters for walks (picomatch, dotfiles included), with the pruning a glob's static part
 * allows: `src/**\/*.ts` never enters `docs/`.
 */
import picomatch from 'picomatch';

/** A compiled set of globs. */
export interface GlobFilter {
  /** Whether a file path (relative, `/`-separated) matches one of the globs. */
  matches(path: string): boolean;
  /** Whether a directory (relative, `/`-terminated) can hold matching files. */
  mayEnter(dir: string): boolean;
}

/**
 * Compiles `pattern` (one glob or several).
 *
 * @example
 * globFilter(['src/**\/*.ts', '*.md']).matches('src/a/b.ts'); // true
 */
export function globFilter(pattern: string | readonly string[]): GlobFilter {
  const patterns = typeof pattern === 'string' ? [pattern] : [...pattern];
  const matchers = patterns.map((p) => picomatch(p, { dot: true }));
  // The directory part before the first wildcard: only it and what lies below it can match.
  const bases = patterns.map((p) => {
    const scan = picomatch.scan(p);
    return scan.negated ? '' : scan.base;
  });
  return {
    matches: (path) => matchers.some((match) => match(path)),
    mayEnter: (dir) =>
      bases.some((base) => base === '' || `${base}/`.startsWith(dir) || dir.startsWith(`${base}/`)),
  };
}
