/**
 * Search in a list of lines, as pagers do it: a literal query (no pattern syntax), smart case
 * (case-insensitive unless the query has a capital letter), matches in reading order, and
 * next/previous stepping that wraps around the ends.
 */

/** One match: a range of one line. */
export interface SearchMatch {
  readonly line: number;
  readonly start: number;
  readonly end: number;
}

/** Matches counted at most (the counter then says "10000+"). */
export const MAX_MATCHES = 10_000;

/** Whether a query matches case-sensitively: only when it has a capital letter (smart case). */
export function isCaseSensitive(query: string): boolean {
  return query !== query.toLowerCase();
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Every match of `query` in `lines`, in order; `undefined` lines are not searched (labels). The
 * matches of one line do not overlap. Offsets are in the line's own text, whatever case folding
 * does to its length.
 *
 * @example
 * findMatches(['Read a.ts', 'read b.ts'], 'read'); // two matches, lines 0 and 1
 * findMatches(['Read a.ts', 'read b.ts'], 'Read'); // one match, line 0
 */
export function findMatches(
  lines: readonly (string | undefined)[],
  query: string,
  limit = MAX_MATCHES,
): SearchMatch[] {
  if (query === '') return [];
  const pattern = new RegExp(escapeRegExp(query), isCaseSensitive(query) ? 'gu' : 'giu');
  const matches: SearchMatch[] = [];
  for (let line = 0; line < lines.length && matches.length < limit; line++) {
    const text = lines[line];
    if (text === undefined || text.length < query.length) continue;
    pattern.lastIndex = 0;
    for (let found = pattern.exec(text); found; found = pattern.exec(text)) {
      matches.push({ line, start: found.index, end: found.index + found[0].length });
      if (matches.length >= limit) break;
    }
  }
  return matches;
}

/**
 * The match to show first for a query typed at `line`: the first one on that line or after it,
 * else (wrapping) the first of all; -1 when there is none.
 */
export function firstMatchFrom(matches: readonly SearchMatch[], line: number): number {
  if (matches.length === 0) return -1;
  const index = matches.findIndex((match) => match.line >= line);
  return index < 0 ? 0 : index;
}

/** The result of {@link stepMatch}. */
export interface MatchStep {
  readonly index: number;
  /** The step went past the last match to the first, or past the first to the last. */
  readonly wrapped: boolean;
}

/**
 * The next (`direction` 1) or previous (-1) of `count` matches from `current`, wrapping around.
 * From no current match (-1) the next is the first and the previous the last.
 *
 * @example
 * stepMatch(3, 2, 1); // { index: 0, wrapped: true }
 */
export function stepMatch(count: number, current: number, direction: 1 | -1): MatchStep {
  if (count === 0) return { index: -1, wrapped: false };
  if (current < 0 || current >= count) return { index: direction > 0 ? 0 : count - 1, wrapped: false };
  const next = current + direction;
  if (next >= count) return { index: 0, wrapped: true };
  if (next < 0) return { index: count - 1, wrapped: true };
  return { index: next, wrapped: false };
}

/** The counter shown for a search: `3/17`, `0/0`, `1/10000+`. */
export function matchCounter(matches: readonly SearchMatch[], current: number, limit = MAX_MATCHES): string {
  const total = matches.length >= limit ? `${limit}+` : String(matches.length);
  return `${current >= 0 ? current + 1 : 0}/${total}`;
}
