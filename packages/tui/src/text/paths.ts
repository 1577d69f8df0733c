/** Paths shown relative to the session's working directory when inside it. */
import { sanitizeInline } from '../sanitize/sanitize-text.js';

/**
 * A path for display: sanitized, relative to `cwd` when inside it, with `:line` when given.
 *
 * @example
 * displayPath('/work/src/a.ts', '/work', 12); // 'src/a.ts:12'
 */
export function displayPath(path: string, cwd?: string, line?: number | null): string {
  let shown = path;
  if (cwd) {
    const root = cwd.endsWith('/') ? cwd : `${cwd}/`;
    if (path.startsWith(root) && path.length > root.length) shown = path.slice(root.length);
  }
  const safe = sanitizeInline(shown);
  return line != null ? `${safe}:${line}` : safe;
}
