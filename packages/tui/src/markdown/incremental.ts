/**
 * Incremental Markdown lexing for streamed messages. As a message grows, only its last two
 * top-level blocks can still change, so only they are lexed again.
 * Blocks that did not change keep their identity, which lets memoised components skip them.
 */
import { Lexer, type Links, type Token } from 'marked';
import { TextSanitizer } from '../sanitize/sanitize-text.js';

/**
 * Index of the first block that may still change: the second-to-last non-space block. The last
 * block is still growing, and when it does it can turn out to continue the block before it (a
 * `*` that looked like a new list becomes `**bold**`, a lazy continuation line of that list).
 */
export function firstUnstableIndex(tokens: readonly Token[]): number {
  let seen = 0;
  for (let i = tokens.length - 1; i >= 0; i--) {
    if (tokens[i]?.type !== 'space' && ++seen === 2) return i;
  }
  return 0;
}

/**
 * Keeps the lexed form of a growing Markdown text. The text is sanitized on the way in (control
 * sequences removed, even when split across chunks); token strings must still be sanitized when
 * rendered, because the lexer decodes character references such as `&#27;`.
 *
 * @example
 * const md = new IncrementalMarkdown();
 * md.update('# Title\n\nFirst para');
 * md.update('# Title\n\nFirst paragraph, longer'); // the heading token is the same object
 */
export class IncrementalMarkdown {
  private raw = '';
  private source = '';
  private sanitizer = new TextSanitizer();
  private tokens: Token[] = [];
  private links: Links = {};
  /** Characters lexed by the last update (for tests and profiling). */
  lastLexedLength = 0;

  /** The sanitized source the tokens describe. */
  get text(): string {
    return this.source;
  }

  /** Lexes `raw` (reusing earlier blocks when it extends the previous text) and returns the blocks. */
  update(raw: string): readonly Token[] {
    if (raw === this.raw) return this.tokens;
    if (raw.startsWith(this.raw)) {
      this.source += this.sanitizer.write(raw.slice(this.raw.length));
    } else {
      this.sanitizer = new TextSanitizer();
      this.source = this.sanitizer.write(raw);
      this.tokens = [];
      this.links = {};
    }
    this.raw = raw;
    const keep = firstUnstableIndex(this.tokens);
    let offset = 0;
    for (let i = 0; i < keep; i++) offset += this.tokens[i]?.raw.length ?? 0;
    this.relex(keep, offset);
    return this.tokens;
  }

  private relex(keep: number, offset: number): void {
    const lexer = new Lexer({ gfm: true });
    Object.assign(lexer.tokens.links, this.links);
    const tail = lexer.lex(this.source.slice(offset));
    this.lastLexedLength = this.source.length - offset;
    // A block lexed again to the same text keeps its object, so its memoised view is not redrawn.
    const tokens = [
      ...this.tokens.slice(0, keep),
      ...tail.map((token, i) => {
        const before = this.tokens[keep + i];
        return before && before.type === token.type && before.raw === token.raw ? before : token;
      }),
    ];
    Object.assign(this.links, tail.links);
    const covered = tokens.reduce((sum, token) => sum + token.raw.length, 0);
    if (covered !== this.source.length && keep > 0) {
      // The lexer did not account for every character; lex everything rather than guess.
      this.tokens = [];
      this.relex(0, 0);
      return;
    }
    this.tokens = tokens;
  }
}

/** Lexes a complete Markdown text once (no incremental state). */
export function lexMarkdown(text: string): readonly Token[] {
  return new IncrementalMarkdown().update(text);
}
