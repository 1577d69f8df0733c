/**
 * Fuzzy matching for the command palette and file mentions: the query's characters must appear
 * in order; matches at the start, after a separator and in a row score higher.
 */

/** A match: the candidate, its score and the matched character offsets. */
export interface FuzzyMatch {
  readonly value: string;
  readonly score: number;
  readonly positions: readonly number[];
}

const SEPARATORS = new Set(['/', '\\', '.', '_', '-', ' ', ':']);

/** Scores one candidate; undefined when the query is not a subsequence of it. Case-insensitive. */
export function fuzzyScore(query: string, candidate: string): FuzzyMatch | undefined {
  if (query === '') return { value: candidate, score: 0, positions: [] };
  const q = query.toLowerCase();
  const c = candidate.toLowerCase();
  const positions: number[] = [];
  let score = 0;
  let from = 0;
  const basenameStart = candidate.lastIndexOf('/') + 1;
  for (const ch of q) {
    const at = c.indexOf(ch, from);
    if (at < 0) return undefined;
    const previous = positions[positions.length - 1];
    if (at === 0) score += 10;
    else if (SEPARATORS.has(c[at - 1] ?? '')) score += 8;
    if (previous !== undefined && at === previous + 1) score += 6;
    if (at >= basenameStart) score += 2;
    score -= Math.min(3, at - from);
    positions.push(at);
    from = at + 1;
  }
  score -= Math.floor(candidate.length / 16);
  return { value: candidate, score, positions };
}

/**
 * The best `limit` candidates for `query`, best first (ties: shorter, then alphabetical).
 *
 * @example
 * fuzzyFilter('prs', ['src/parser.ts', 'README.md']); // [{ value: 'src/parser.ts', … }]
 */
export function fuzzyFilter(query: string, candidates: readonly string[], limit = 8): FuzzyMatch[] {
  const matches: FuzzyMatch[] = [];
  for (const candidate of candidates) {
    const match = fuzzyScore(query, candidate);
    if (match) matches.push(match);
  }
  matches.sort(
    (a, b) =>
      b.score - a.score ||
      a.value.length - b.value.length ||
      (a.value < b.value ? -1 : a.value > b.value ? 1 : 0),
  );
  return matches.slice(0, limit);
}
