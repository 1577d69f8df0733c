/** Which rows of a scrolling list are shown, apart from its component so that the first frame can draw one. */

/** The first row shown and the end (exclusive): `maxVisible` rows around the focused `index`. */
export function listWindow(index: number, count: number, maxVisible: number): { start: number; end: number } {
  const start = Math.min(Math.max(0, index - Math.floor(maxVisible / 2)), Math.max(0, count - maxVisible));
  return { start, end: Math.min(count, start + maxVisible) };
}
