/**
 * Fenced code blocks of a Markdown text, found line by line, so the transcript browser can select
 * and copy each one. Fences may be indented (inside list items); indented code blocks (four
 * spaces, no fence) are not code blocks here.
 */

/** A fenced code block: its lines in the text (fences included) and its code. */
export interface FencedBlock {
  /** Line of the opening fence. */
  readonly startLine: number;
  /** Line after the closing fence (or the text's line count when it is not closed). */
  readonly endLine: number;
  /** The info string's first word (`ts`, `bash`), or ''. */
  readonly language: string;
  /** The code, without fences and without the fence's indentation. */
  readonly code: string;
}

const OPENING = /^( *)(`{3,}|~{3,})(.*)$/;
const CLOSING = /^ *(`{3,}|~{3,}) *$/;

/**
 * The fenced code blocks of `lines`, in order. A block is closed by a fence of the same character
 * at least as long as its opening one; an unclosed block runs to the end, as in CommonMark.
 *
 * @example
 * findFencedBlocks(['Run:', '```sh', 'npm test', '```']);
 * // [{ startLine: 1, endLine: 4, language: 'sh', code: 'npm test' }]
 */
export function findFencedBlocks(lines: readonly string[]): FencedBlock[] {
  const blocks: FencedBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = OPENING.exec(lines[i] ?? '');
    if (!open) continue;
    const [, indent = '', fence = '', info = ''] = open;
    // A backtick fence's info string cannot hold a backtick (that is inline code).
    if (fence.startsWith('`') && info.includes('`')) continue;
    let end = i + 1;
    while (end < lines.length) {
      const closing = CLOSING.exec(lines[end] ?? '')?.[1] ?? '';
      if (closing[0] === fence[0] && closing.length >= fence.length) break;
      end++;
    }
    const code = lines
      .slice(i + 1, end)
      .map((line) => stripIndent(line, indent.length))
      .join('\n');
    const closed = end < lines.length;
    blocks.push({
      startLine: i,
      endLine: closed ? end + 1 : end,
      language: info.trim().split(/\s+/)[0] ?? '',
      code,
    });
    i = closed ? end : end - 1;
  }
  return blocks;
}

/** Removes up to `count` leading spaces. */
function stripIndent(line: string, count: number): string {
  let n = 0;
  while (n < count && line[n] === ' ') n++;
  return line.slice(n);
}
