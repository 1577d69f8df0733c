/**
 * The one place that decides what of a session is printed into the terminal's scrollback and
 * what stays live (drawn by Ink below it, every frame). Its invariants, tested in
 * transcript-projector.test.ts:
 * - every unit is printed once, in the order of the transcript, and printed units never change;
 * - nothing live is also printed, and everything printed was settled when it was printed;
 * - the live region fits its rows (`fitLive`, live-fit.ts): a streamed message shows its last
 *   lines, and tool cards that do not fit are summed up in one line.
 * An agent's message is printed block by block as its Markdown blocks become final, so the live
 * region holds little more than the block being written; a message is only ever read from where
 * the last projection stopped.
 */
import {
  contentTerminalIds,
  toolCallTerminal,
  type MessageItem,
  type SessionState,
  type TerminalView as EngineTerminal,
  type TranscriptItem,
} from '@acp-kit/client';
import { isUnknownVariant, type ContentBlock } from '@acp-kit/protocol';
import { MarkdownStream, PrintedMarkdown } from '../../markdown/markdown-stream.js';
import { noticeOf } from '../../view-model/notice.js';
import {
  displayStatus,
  isFinishedStatus,
  terminalRuns,
  terminalSnapshot,
  type TerminalSnapshot,
} from '../../view-model/tool-call.js';
import type { TranscriptUnit } from '../../view-model/transcript-unit.js';

export type { MessagePart, TranscriptUnit } from '../../view-model/transcript-unit.js';

/** What to draw for a session. */
export interface Projection {
  /** Units printed so far, oldest first; only ever grows (a new array when it does). */
  readonly printed: readonly TranscriptUnit[];
  /** Units still changing, drawn every frame below the printed ones. */
  readonly live: readonly TranscriptUnit[];
  /**
   * Streamed text arrived faster than it is laid out: project again soon (each projection lexes
   * a bounded amount, so a flood of text never blocks the event loop for long).
   */
  readonly behind: boolean;
}

/** Characters of a streamed message lexed per projection. */
export const MAX_LEX_CHARS = 8192;

function isRunning(state: SessionState): boolean {
  return state.status === 'running' || state.status === 'cancelling';
}

/** The terminals of a tool call's content, as its card shows them (undefined: never heard of). */
function cardTerminals(item: TranscriptItem, state: SessionState): (EngineTerminal | undefined)[] {
  if (item.kind !== 'tool_call') return [];
  return contentTerminalIds(item).map((id) => toolCallTerminal(state, item, id));
}

/** Text of a block that is drawn as Markdown with the text around it (no annotations, no `_meta`). */
function plainText(block: ContentBlock): string | undefined {
  if (isUnknownVariant(block) || block.type !== 'text' || block.annotations || block._meta) return undefined;
  return block.text;
}

/**
 * The item a printed part of an agent's message carries: the message without its content. A part
 * needs only what the message is (its key, role, turn); the item as it was when the part was
 * printed would keep that version of the message's text alive (the engine makes a new one with
 * every chunk), one per part: for a 10 MB answer, as much again as the answer.
 */
function printedShell(item: MessageItem): MessageItem {
  return { ...item, content: [] };
}

/**
 * Characters `start` to `end` of a message's plain text: its blocks drawn as Markdown, one after
 * the other (the text a {@link MessageCursor}'s stream was given, in its offsets).
 */
function plainTextSpan(item: MessageItem, start: number, end: number): string {
  let text = '';
  let at = 0;
  for (const block of item.content) {
    const plain = plainText(block);
    if (plain === undefined) continue;
    const next = at + plain.length;
    if (next > start) text += plain.slice(Math.max(0, start - at), end - at);
    at = next;
    if (at >= end) break;
  }
  return text;
}

/** Where reading an agent's message stands. */
interface MessageCursor {
  readonly stream: MarkdownStream;
  /**
   * The message as last read, shared by its printed Markdown parts, which take their text from it
   * when drawn again instead of keeping a copy (its text blocks only grow).
   */
  readonly read: { item: MessageItem };
  /** Content block being read, and characters of it read. */
  block: number;
  offset: number;
  /** The last of its blocks other than text printed (-1: none). */
  printedBlock: number;
  /** Parts printed (for their keys). */
  parts: number;
}

/** Agents' messages printed last that are still read when they grow. */
const RECENT_MESSAGES = 8;

/**
 * Whether a transcript item prints something: messages, tool calls, plans and the items shown
 * as notices (a turn's end, for example, prints nothing).
 */
export function showsItem(item: TranscriptItem): boolean {
  return (
    item.kind === 'message' ||
    item.kind === 'tool_call' ||
    item.kind === 'plan' ||
    noticeOf(item) !== undefined
  );
}

/**
 * Index of the first of the newest `count` items of `items` that print something (0 when there
 * are no more than that): where a projection showing only the newest items starts.
 */
export function newestItemsIndex(items: readonly TranscriptItem[], count: number): number {
  let shown = 0;
  for (let i = items.length - 1; i >= 0; i--) {
    if (!showsItem(items[i] as TranscriptItem)) continue;
    if (++shown === count) return i;
  }
  return 0;
}

/**
 * Whether `item` is an agent's attachment followed at once by another: a session reopened again
 * and again without a turn printed one "Connected to …" line per reopening. Only the last is
 * printed (a live session has printed the earlier one already: the scrollback keeps it).
 */
function supersededAttach(item: TranscriptItem, next: TranscriptItem | undefined): boolean {
  return item.kind === 'attached' && next?.kind === 'attached';
}

/**
 * Projects session states, keeping what was printed. One projector per displayed session.
 * `start`: the first engine item projected (the items before it are neither printed nor read:
 * a long session shown from its newest items costs what those cost).
 *
 * @example
 * const projector = new TranscriptProjector();
 * const { printed, live } = projector.project(session.store.getSnapshot());
 */
export class TranscriptProjector {
  private units: TranscriptUnit[] = [];
  private snapshot: readonly TranscriptUnit[] = [];
  /** Engine items before this index are printed in full. */
  private cursor: number;
  private message: MessageCursor | undefined;
  /** The agents' messages printed last, where reading them stopped, and the item as read. */
  private readonly recent: { index: number; item: MessageItem; at: MessageCursor }[] = [];
  private readonly unitCache = new WeakMap<TranscriptItem, { unit: TranscriptUnit; streaming: boolean }>();
  private readonly terminalCache = new Map<
    string,
    { sources: readonly (EngineTerminal | undefined)[]; map: ReadonlyMap<string, TerminalSnapshot> }
  >();

  constructor(readonly start = 0) {
    this.cursor = start;
  }

  /** Index of the first engine item not printed in full: items before it never change the view. */
  get liveStart(): number {
    return this.cursor;
  }

  /** Projects `state`; call it again with every new snapshot of the same session. */
  project(state: SessionState): Projection {
    const items = state.items;
    const running = isRunning(state);
    const before = this.units.length;
    let behind = false;
    this.readLate(items);
    while (this.cursor < items.length) {
      const item = items[this.cursor] as TranscriptItem;
      const last = this.cursor === items.length - 1;
      const settled = this.isSettled(item, last, running, state);
      if (item.kind === 'message' && item.role === 'agent') {
        // Read what arrived (a bounded amount), print what became final.
        const at = (this.message ??= {
          stream: new MarkdownStream(),
          read: { item },
          block: 0,
          offset: 0,
          printedBlock: -1,
          parts: 0,
        });
        if (!this.readMessage(item, settled, at)) {
          behind = this.unread(item, at) > 0;
          break;
        }
        this.recent.push({ index: this.cursor, item, at });
        if (this.recent.length > RECENT_MESSAGES) this.recent.shift();
      } else if (!settled) break;
      else if (!supersededAttach(item, items[this.cursor + 1])) this.print(this.unitFor(item, state, false));
      this.cursor++;
      this.message = undefined;
    }
    const live: TranscriptUnit[] = [];
    for (let i = this.cursor; i < items.length; i++) {
      const item = items[i] as TranscriptItem;
      const streaming = running && i === items.length - 1;
      if (i === this.cursor && this.message) live.push(...this.liveParts(item as MessageItem, streaming));
      else if (item.kind === 'message' && item.role === 'agent')
        live.push(...this.wholeMessage(item, streaming));
      else {
        const unit = this.unitFor(item, state, streaming);
        if (unit) live.push(unit);
      }
    }
    if (this.units.length !== before) this.snapshot = [...this.units];
    return { printed: this.snapshot, live, behind };
  }

  /** Whether an item will not change any more (so it can be printed). */
  private isSettled(item: TranscriptItem, last: boolean, running: boolean, state: SessionState): boolean {
    if (!running) return true;
    switch (item.kind) {
      case 'message':
        return item.role === 'user' || !last;
      case 'tool_call': {
        const status = displayStatus(item);
        if (!isFinishedStatus(status)) return false;
        return cardTerminals(item, state).every(
          (terminal) => !terminal || !terminalRuns(terminalSnapshot(terminal), status),
        );
      }
      case 'compaction':
        return item.status !== 'in_progress' || !last;
      default:
        return true;
    }
  }

  private print(unit: TranscriptUnit | undefined): void {
    if (unit) this.units.push(unit);
  }

  /** Characters of the message's text not read yet (counted up to the first block not read in full). */
  private unread(item: MessageItem, at: MessageCursor): number {
    let count = 0;
    for (let i = at.block; i < item.content.length; i++) {
      const text = plainText(item.content[i] as ContentBlock);
      if (text === undefined) break;
      count += text.length - (i === at.block ? at.offset : 0);
    }
    return count;
  }

  /**
   * Reads an agent's message from where reading it stopped (at most {@link MAX_LEX_CHARS} of
   * text) and prints its parts that are final: Markdown blocks once the lexer says so, its other
   * content blocks once something follows them. Reading stops at the end of the message's last
   * block, which may still grow. True when the message is settled and printed in full.
   */
  private readMessage(item: MessageItem, settled: boolean, at: MessageCursor): boolean {
    at.read.item = item;
    let budget = MAX_LEX_CHARS;
    for (;;) {
      const block = item.content[at.block];
      if (block === undefined) break;
      const text = plainText(block);
      const lastBlock = at.block === item.content.length - 1;
      if (text !== undefined) {
        let end = Math.min(text.length, at.offset + budget);
        // Never split a surrogate pair.
        if (end < text.length && end > at.offset && /[\ud800-\udbff]/.test(text.charAt(end - 1))) end--;
        if (end > at.offset) at.stream.append(text.slice(at.offset, end));
        budget -= end - at.offset;
        at.offset = end;
        if (end < text.length || lastBlock) break;
      } else {
        // Another kind of block ends the Markdown before it; it is final once something follows it.
        if (lastBlock && !settled) break;
        if (at.printedBlock < at.block) {
          this.printMarkdown(item, at, true);
          this.print({
            key: `${item.key}#${at.parts++}`,
            item: printedShell(item),
            part: { kind: 'content', block },
          });
          at.printedBlock = at.block;
        }
        if (lastBlock) break;
      }
      at.block++;
      at.offset = 0;
    }
    const complete = settled && this.unread(item, at) === 0;
    this.printMarkdown(item, at, complete);
    return complete;
  }

  /**
   * Prints what reached an agent's message after it was printed (agents may send chunks after
   * the turn's end; a reopened session's history arrives over several projections): the
   * messages printed last are read on from where they stopped.
   */
  private readLate(items: readonly TranscriptItem[]): void {
    for (const printed of this.recent) {
      const now = items[printed.index];
      if (now === printed.item || now?.kind !== 'message' || now.key !== printed.item.key) continue;
      printed.item = now;
      // Printed whole (at most the bounded amount per step: the rest on the next projections).
      this.readMessage(now, true, printed.at);
    }
  }

  /** Prints the Markdown blocks of the message that became final (all of them at its `end`). */
  private printMarkdown(item: MessageItem, at: MessageCursor, end: boolean): void {
    let start = at.stream.taken;
    const groups = at.stream.takeFinal(end);
    if (groups.length === 0) return;
    const shell = printedShell(item);
    const { read } = at;
    for (const blocks of groups) {
      const from = start;
      const to = (start += blocks.reduce((sum, token) => sum + token.raw.length, 0));
      // The text as the message holds it (nothing was sanitized away): given again from there.
      const source = at.stream.verbatim ? () => plainTextSpan(read.item, from, to) : undefined;
      this.print({
        key: `${item.key}#${at.parts++}`,
        item: shell,
        part: new PrintedMarkdown(blocks, at.stream.references, source),
      });
    }
  }

  /** The live parts of the agent's message at the cursor: its growing Markdown, and a block being written. */
  private liveParts(item: MessageItem, streaming: boolean): TranscriptUnit[] {
    const at = this.message as MessageCursor;
    const units: TranscriptUnit[] = [];
    const blocks = at.stream.live;
    if (blocks.some((token) => token.type !== 'space' && token.type !== 'def'))
      units.push({
        key: `${item.key}#live`,
        item,
        part: { kind: 'markdown', blocks },
        ...(streaming ? { streaming } : {}),
      });
    const block = item.content[at.block];
    if (block !== undefined && plainText(block) === undefined && at.printedBlock < at.block)
      units.push({ key: `${item.key}#${at.parts}`, item, part: { kind: 'content', block } });
    return units;
  }

  /** An agent's message after the cursor (rare: a tool call before it is still running), drawn whole. */
  private wholeMessage(item: MessageItem, streaming: boolean): TranscriptUnit[] {
    const cached = this.unitCache.get(item);
    if (cached && cached.streaming === streaming) return [cached.unit];
    const unit: TranscriptUnit = { key: item.key, item, ...(streaming ? { streaming } : {}) };
    this.unitCache.set(item, { unit, streaming });
    return [unit];
  }

  /** The unit of an item other than an agent's message; undefined for items that show nothing. */
  private unitFor(item: TranscriptItem, state: SessionState, streaming: boolean): TranscriptUnit | undefined {
    if (!showsItem(item)) return undefined;
    const terminals = this.terminalsFor(item, state);
    // An item the engine did not change keeps its unit, so its card is not drawn again.
    const cached = this.unitCache.get(item);
    if (cached && cached.streaming === streaming && cached.unit.terminals === terminals) return cached.unit;
    const unit: TranscriptUnit = {
      key: item.key,
      item,
      ...(streaming ? { streaming } : {}),
      ...(terminals ? { terminals } : {}),
    };
    this.unitCache.set(item, { unit, streaming });
    return unit;
  }

  /** The card's terminals, the same Map object while none of them changed. */
  private terminalsFor(
    item: TranscriptItem,
    state: SessionState,
  ): ReadonlyMap<string, TerminalSnapshot> | undefined {
    const sources = cardTerminals(item, state);
    if (sources.length === 0) return undefined;
    const cached = this.terminalCache.get(item.key);
    if (
      cached &&
      cached.sources.length === sources.length &&
      cached.sources.every((s, i) => s === sources[i])
    ) {
      return cached.map;
    }
    const map = new Map<string, TerminalSnapshot>();
    sources.forEach((source) => {
      if (source) map.set(source.terminalId, terminalSnapshot(source));
    });
    this.terminalCache.set(item.key, { sources, map });
    return map;
  }
}
