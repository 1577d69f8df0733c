/**
 * A piece of the transcript as drawn: one of the engine's transcript items (`@acp-kit/client`'s
 * `TranscriptItem`, the same objects the session store holds), or a part of an agent's message,
 * which is printed block by block. The projector (`app/view/transcript-projector.ts`) makes them.
 */
import type { TranscriptItem } from '@acp-kit/client';
import type { ContentBlock } from '@acp-kit/protocol';
import type { Links, Token } from 'marked';
import { lexMarkdown } from '../markdown/markdown-stream.js';
import type { TerminalSnapshot } from './tool-call.js';

/** Markdown blocks of an agent's message. */
export interface MarkdownPart {
  readonly kind: 'markdown';
  readonly blocks: readonly Token[];
  /** Forgets what can be had again (a printed part's tokens, and through them its laid-out lines). */
  release?(): void;
}

/** Part of an agent's message: Markdown blocks of its text, or one of its other content blocks. */
export type MessagePart = MarkdownPart | { readonly kind: 'content'; readonly block: ContentBlock };

/**
 * Markdown blocks printed into the scrollback. Once written they are only drawn again when the
 * session is printed again (a resize, another tab), so they keep their text and drop their tokens
 * (several times the text's size, with the laid-out lines cached for them) when released; the
 * blocks are lexed again from the text, with the message's link definitions, if drawn again.
 *
 * @example
 * const part = new PrintedMarkdown(stream.takeFinal()[0], stream.references);
 * write(markdownLines(part.blocks, layout).join('\n'));
 * part.release(); // part.blocks still works: lexed again
 */
export class PrintedMarkdown implements MarkdownPart {
  readonly kind = 'markdown';
  private readonly source: string;
  private tokens: readonly Token[] | undefined;

  constructor(
    tokens: readonly Token[],
    private readonly references: Readonly<Links>,
  ) {
    this.tokens = tokens;
    this.source = tokens.map((token) => token.raw).join('');
  }

  get blocks(): readonly Token[] {
    return (this.tokens ??= lexMarkdown(this.source, this.references));
  }

  release(): void {
    this.tokens = undefined;
  }
}

/** One piece of the transcript as drawn. */
export interface TranscriptUnit {
  /** Unique and stable (React key). */
  readonly key: string;
  readonly item: TranscriptItem;
  /** Set for an agent's message, which is drawn part by part. */
  readonly part?: MessagePart;
  /** Still changing (a thought being written shows its spinner). */
  readonly streaming?: boolean;
  /** Only this card's terminals: a change to another terminal does not redraw it. */
  readonly terminals?: ReadonlyMap<string, TerminalSnapshot>;
}
