/**
 * Growing Markdown, lexed incrementally. As a text grows, only its last two top-level blocks can
 * still change, so only they are lexed again, and a block lexed again to the same text keeps its
 * token object (its laid-out lines are reused). The text is sanitized on the way in (control
 * sequences removed, even when split across chunks); token strings must still be sanitized when
 * drawn, because the lexer decodes character references such as `&#27;`.
 * - `MarkdownStream`: a streamed message, split into the blocks that are final (printed into the
 *   scrollback) and the growing end (drawn live). It keeps only its unsettled end, so each update
 *   costs what arrived plus the growing block, however long the message.
 * - `IncrementalMarkdown`: a text re-rendered whole as it grows (a thought, a tool's content).
 * - `PrintedMarkdown`: final blocks printed into the scrollback, kept as text once written.
 */
import { Lexer, type Links, type Token } from 'marked';
import { TextSanitizer } from '../sanitize/sanitize-text.js';
import { finalBlockCount, lexBlocks } from './final-blocks.js';

/** Whether a token draws nothing (blank lines, link definitions). */
export function isBlankToken(token: Token): boolean {
  return token.type === 'space' || token.type === 'def';
}

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
 * The blocks of `source` after it grew: `tokens` (its blocks before) up to the first one that may
 * have changed, then the rest lexed again; a block lexed to the same text keeps its object.
 * `links` (reference definitions seen so far) is read and extended. The whole text is lexed
 * when the lexer did not account for every character of the part lexed again.
 */
function relex(
  tokens: readonly Token[],
  source: string,
  links: Links,
  keep = firstUnstableIndex(tokens),
): Token[] {
  let offset = 0;
  for (let i = 0; i < keep; i++) offset += tokens[i]?.raw.length ?? 0;
  const lexer = new Lexer({ gfm: true });
  Object.assign(lexer.tokens.links, links);
  // What `lexer.lex` does, but the inline pass only for the blocks that changed: a block lexed
  // to the text it had keeps its object, whose inline tokens are done (the block before the
  // growing one, at nearly every update: half the inline work of each frame).
  const fresh = lexBlocks(lexer, source.slice(offset));
  Object.assign(links, lexer.tokens.links);
  const next = tokens.slice(0, keep);
  const changed = new Set<unknown>();
  fresh.forEach((token, i) => {
    const before = tokens[keep + i];
    if (before && before.type === token.type && before.raw === token.raw) next.push(before);
    else {
      next.push(token);
      collectParts(token, changed);
    }
  });
  for (const { src, tokens: into } of lexer.inlineQueue) {
    if (!changed.has(into)) continue;
    lexer.state.inRawBlock = false;
    lexer.inlineTokens(src, into);
  }
  lexer.inlineQueue = [];
  const covered = next.reduce((sum, token) => sum + token.raw.length, 0);
  return covered === source.length || keep === 0 ? next : relex(tokens, source, links, 0);
}

/** Every array and object inside `value` (a block token), into `into`: where its inline tokens go. */
function collectParts(value: object, into: Set<unknown>): void {
  if (into.has(value)) return;
  into.add(value);
  // Walked without copying keys or values (a long list's items, at every frame).
  if (Array.isArray(value)) {
    for (const part of value as unknown[])
      if (typeof part === 'object' && part !== null) collectParts(part, into);
    return;
  }
  for (const key in value) {
    const part = (value as Record<string, unknown>)[key];
    if (typeof part === 'object' && part !== null) collectParts(part, into);
  }
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
  private handedOut = 0;
  private unchanged = true;

  /** Adds text as it arrives (sanitized on the way in, also when a control sequence is split). */
  append(raw: string): void {
    const text = this.sanitizer.write(raw);
    if (text !== raw) this.unchanged = false;
    if (text === '') return;
    this.tail += text;
    this.lexed = false;
  }

  /** Characters of the sanitized text handed out by {@link takeFinal} so far. */
  get taken(): number {
    return this.handedOut;
  }

  /**
   * Whether the blocks handed out so far came from the very characters appended, at the offsets
   * {@link taken} counts: the sanitizer changed nothing, and the lexer's blocks were as long as
   * their text (it may still write a line's last space as a line break: the same blocks).
   */
  get verbatim(): boolean {
    return this.unchanged;
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
    // The blocks handed out at the end are then not the characters they came from.
    if (end && !exact) this.unchanged = false;
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
    this.handedOut += chars;
    return groups.filter((g) => g.some((token) => !isBlankToken(token)));
  }

  /** The blocks still growing (with the blank tokens between them). */
  get live(): readonly Token[] {
    return this.lex();
  }

  /** The reference definitions (`[id]: url`) seen so far: blocks lexed again alone need them. */
  get references(): Readonly<Links> {
    return this.links;
  }

  private lex(): Token[] {
    if (this.lexed) return this.tokens;
    this.lexed = true;
    this.tokens = relex(this.tokens, this.tail, this.links);
    return this.tokens;
  }
}

/**
 * Keeps the lexed form of a growing Markdown text, all of it.
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
    this.tokens = relex(this.tokens, this.source, this.links);
    return this.tokens;
  }
}

/**
 * Lexes a complete Markdown text once (no incremental state); `references`: link definitions from
 * elsewhere in the same document.
 */
export function lexMarkdown(text: string, references: Readonly<Links> = {}): readonly Token[] {
  return relex([], new TextSanitizer().write(text), { ...references });
}

/**
 * Markdown blocks printed into the scrollback. Once written they are only drawn again when the
 * session is printed again (a resize, another tab), so they drop their tokens (several times the
 * text's size, with the laid-out lines cached for them) when released, and are lexed again, with
 * the message's link definitions, if drawn again. Their text is not kept twice: `source` gives it
 * again from where it is kept anyway (the message in the session's store) when it can, else it is
 * the text itself, joined from the tokens.
 *
 * @example
 * const part = new PrintedMarkdown(stream.takeFinal()[0], stream.references);
 * write(markdownLines(part.blocks, layout).join('\n'));
 * part.release(); // part.blocks still works: lexed again
 */
export class PrintedMarkdown {
  readonly kind = 'markdown' as const;
  private readonly source: string | (() => string);
  private tokens: readonly Token[] | undefined;

  constructor(
    tokens: readonly Token[],
    private readonly references: Readonly<Links>,
    source?: () => string,
  ) {
    this.tokens = tokens;
    this.source = source ?? tokens.map((token) => token.raw).join('');
  }

  /** The sanitized Markdown text of the blocks. */
  get text(): string {
    return typeof this.source === 'string' ? this.source : this.source();
  }

  get blocks(): readonly Token[] {
    return (this.tokens ??= lexMarkdown(this.text, this.references));
  }

  release(): void {
    this.tokens = undefined;
  }
}
