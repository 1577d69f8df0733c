/**
 * Which blocks of a streamed Markdown text are final: the projector prints those into the
 * scrollback while the message is still being written, so the live region holds little more
 * than the block being written.
 */
import { Lexer, type Token } from 'marked';

/** A `#` heading (the other kind is a line underlined with `=` or `-`). */
function isAtxHeading(token: Token): boolean {
  return token.type === 'heading' && /^ {0,3}#{1,6}(?=[ \t\n]|$)/.test(token.raw);
}

/** An ATX heading, a rule or a closed code fence: none of them takes in the lines after it. */
function isClosedBlock(token: Token): boolean {
  return (
    isAtxHeading(token) ||
    token.type === 'hr' ||
    (token.type === 'code' && /^ {0,3}(`{3,}|~{3,})/.test(token.raw))
  );
}

/** The text of `growing` up to the end of its `lines`-th line, or undefined while that line is incomplete. */
function completeLines(growing: Token, lines: number): string | undefined {
  let end = -1;
  for (let n = 0; n < lines; n++) {
    end = growing.raw.indexOf('\n', end + 1);
    if (end < 0) return undefined;
  }
  return growing.raw.slice(0, end + 1);
}

/**
 * How many of `tokens` (the lexed blocks of a text that is still growing) are final: all but
 * the last, growing block when the block before it can no longer change, else all but the last
 * two. The block before is final when
 * - it is closed (a `#` heading, a rule, a fence): nothing after it joins it;
 * - or a blank line separates the two and it is not a list (`1. a`, a blank line and `2` become
 *   one loose list at `2.`): after a blank line only a list takes in more;
 * - or the line that decides the growing block is complete (its first line; the second for a
 *   table or an underlined heading) and the lexer splits the two blocks at the same place from
 *   those complete lines alone, and still does with a `=` line under them. (marked splits some
 *   paragraphs by looking at an incomplete line and joins them again once it grows, and takes
 *   some lines that it lexes as a list item, such as `-\t# h`, into a paragraph underlined
 *   below them.)
 * The property test of this module checks it against the lexer for any way a text may arrive.
 * `knownFinal`: characters at the start known to be final (printed), not checked again.
 *
 * @example
 * finalBlockCount(new Lexer().lex('## Title\n\nfirst wor')); // 1: the heading
 */
export function finalBlockCount(tokens: readonly Token[], knownFinal = 0): number {
  let last = -1;
  let previous = -1;
  for (let i = tokens.length - 1; i >= 0; i--) {
    if (tokens[i]?.type === 'space') continue;
    if (last < 0) last = i;
    else {
      previous = i;
      break;
    }
  }
  if (previous < 0) return 0;
  const before = tokens[previous] as Token;
  const growing = tokens[last] as Token;
  if (isClosedBlock(before)) return last;
  let end = 0;
  for (let i = 0; i <= previous; i++) end += tokens[i]?.raw.length ?? 0;
  if (end <= knownFinal) return last;
  let gap = '';
  for (let i = previous + 1; i < last; i++) gap += tokens[i]?.raw ?? '';
  const spacing = (/\s*$/.exec(before.raw)?.[0] ?? '') + gap;
  if (before.type !== 'list' && (spacing.match(/\n/g)?.length ?? 0) >= 2) return last;
  const underlined = growing.type === 'table' || (growing.type === 'heading' && !isAtxHeading(growing));
  const deciding = completeLines(growing, underlined ? 2 : 1);
  if (deciding === undefined) return previous;
  const text = before.raw + gap + deciding;
  return splitAt(text, before) && splitAt(`${text}=`, before) ? last : previous;
}

/**
 * What `Lexer.lex` does before its inline pass (line endings included): `text`'s blocks, into the
 * lexer's own token list, their inline text queued in `lexer.inlineQueue`. Their kinds and extents
 * do not depend on the inline pass, which costs as much again.
 */
export function lexBlocks(lexer: Lexer, text: string): Token[] {
  return lexer.blockTokens(text.replace(/\r\n|\r/g, '\n'), lexer.tokens);
}

/** Whether `text` lexes to `first` as its first block, and more after it (blocks only). */
function splitAt(text: string, first: Token): boolean {
  const block = lexBlocks(new Lexer({ gfm: true }), text).find((t) => t.type !== 'space');
  return block?.type === first.type && block.raw === first.raw;
}
