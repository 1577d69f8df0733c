/**
 * A streamed Markdown text split into the blocks that are final (printed into the scrollback) and
 * the growing end (drawn live). It is fed only the text that arrived and keeps only its unsettled
 * end, so each update costs what arrived plus the growing block, however long the message.
 */
import { Lexer, type Links, type Token } from 'marked';
import { TextSanitizer } from '../sanitize/sanitize-text.js';
import { finalBlockCount } from './final-blocks.js';
import { firstUnstableIndex } from './incremental.js';

/** Whether a token draws nothing (blank lines, link definitions). */
export function isBlankToken(token: Token): boolean {
  return token.type === 'space' || token.type === 'def';
}

/**
 * @example
 * const stream = new MarkdownStream();
 * stream.append('## Title\n\nFirst wor');
 * stream.takeFinal(); // [heading]: printed
 * stream.live;        // [space, paragraph 'First wor']: drawn live
 */
export class MarkdownStream {
  private readonly sanitizer = new TextSanitizer();
  /** Sanitized text not handed out yet: the source of `tokens`. */
  private tail = '';
  private tokens: Token[] = [];
  private readonly links: Links = {};
  private lexed = true;

  /** Adds text as it arrives (sanitized on the way in, also when a control sequence is split). */
  append(raw: string): void {
    const text = this.sanitizer.write(raw);
    if (text === '') return;
    this.tail += text;
    this.lexed = false;
  }

  /** Characters kept: the text not handed out yet (what each update lexes at most). */
  get pendingChars(): number {
    return this.tail.length;
  }

  /**
   * Removes and returns the blocks that became final, each with the blank tokens before it;
   * with `end` (no more text will come), everything left, as one group.
   */
  takeFinal(end = false): Token[][] {
    const tokens = this.lex();
    // The lexer rewrote some text (a lazy list line loses its trailing spaces): where the blocks
    // end in the text is not known until the next update, so nothing is final before the end.
    const exact = tokens.reduce((sum, token) => sum + token.raw.length, 0) === this.tail.length;
    const count = end ? tokens.length : exact ? finalBlockCount(tokens) : 0;
    if (count === 0) return [];
    const groups: Token[][] = [];
    let group: Token[] = [];
    let chars = 0;
    for (let i = 0; i < count; i++) {
      const token = tokens[i] as Token;
      chars += token.raw.length;
      group.push(token);
      if (!end && !isBlankToken(token)) {
        groups.push(group);
        group = [];
      }
    }
    // Blank tokens after the last final block stay with the growing end.
    if (group.length > 0) {
      if (end) groups.push(group);
      else chars -= group.reduce((sum, token) => sum + token.raw.length, 0);
    }
    const taken = groups.reduce((sum, g) => sum + g.length, 0);
    this.tokens = tokens.slice(taken);
    this.tail = this.tail.slice(chars);
    return groups.filter((g) => g.some((token) => !isBlankToken(token)));
  }

  /** The blocks still growing (with the blank tokens between them). */
  get live(): readonly Token[] {
    return this.lex();
  }

  private lex(): Token[] {
    if (this.lexed) return this.tokens;
    this.lexed = true;
    const keep = firstUnstableIndex(this.tokens);
    let offset = 0;
    for (let i = 0; i < keep; i++) offset += this.tokens[i]?.raw.length ?? 0;
    this.tokens = this.relex(keep, offset) ?? this.relex(0, 0) ?? [];
    return this.tokens;
  }

  /** Lexes the tail from `offset` (block `keep`), or undefined when the lexer lost characters. */
  private relex(keep: number, offset: number): Token[] | undefined {
    const lexer = new Lexer({ gfm: true });
    Object.assign(lexer.tokens.links, this.links);
    const fresh = lexer.lex(this.tail.slice(offset));
    Object.assign(this.links, fresh.links);
    // A block lexed again to the same text keeps its object, so its laid-out lines are reused.
    const tokens = [
      ...this.tokens.slice(0, keep),
      ...fresh.map((token, i) => {
        const before = this.tokens[keep + i];
        return before && before.type === token.type && before.raw === token.raw ? before : token;
      }),
    ];
    const covered = tokens.reduce((sum, token) => sum + token.raw.length, 0);
    return covered === this.tail.length || keep === 0 ? tokens : undefined;
  }
}
