/**
 * A piece of the transcript as drawn: one of the engine's transcript items (`@acp-kit/client`'s
 * `TranscriptItem`, the same objects the session store holds), or a part of an agent's message,
 * which is printed block by block. The projector (`app/view/transcript-projector.ts`) makes them.
 */
import type { TranscriptItem } from '@acp-kit/client';
import type { ContentBlock } from '@acp-kit/protocol';
import type { Token } from 'marked';
import type { TerminalSnapshot } from './tool-call.js';

/** Markdown blocks of an agent's message. */
export interface MarkdownPart {
  readonly kind: 'markdown';
  readonly blocks: readonly Token[];
  /**
   * Forgets what can be had again (a printed part's tokens, and through them its laid-out lines:
   * `PrintedMarkdown` in markdown/markdown-stream.ts).
   */
  release?(): void;
}

/** Part of an agent's message: Markdown blocks of its text, or one of its other content blocks. */
export type MessagePart = MarkdownPart | { readonly kind: 'content'; readonly block: ContentBlock };

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
