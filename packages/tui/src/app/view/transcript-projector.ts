/**
 * Turns a session's state into what the screen shows: an append-only list of printed units (each
 * written once above the live region by the transcript printer) and the few live items still
 * changing. A long streamed message is printed block by block as its Markdown blocks become
 * final, so the live region holds little more than the block being written.
 */
import type {
  SessionState,
  TerminalView as EngineTerminal,
  TranscriptItem as EngineItem,
} from '@acp-kit/client';
import { isUnknownVariant } from '@acp-kit/protocol';
import { messageSegments } from '../../components/message-segments.js';
import { finalBlockCount } from '../../markdown/final-blocks.js';
import { IncrementalMarkdown } from '../../markdown/incremental.js';
import type { TerminalSnapshot } from '../../view-model/tool-call.js';
import type { TranscriptItem } from '../../view-model/transcript.js';
import { itemView, terminalSnapshot } from './item-views.js';

/** One piece of the transcript as drawn, with the terminals its card shows. */
export interface TranscriptUnit {
  /** Unique and stable (React key). */
  readonly key: string;
  readonly item: TranscriptItem;
  /** Only this card's terminals: a change to another terminal does not redraw it. */
  readonly terminals?: ReadonlyMap<string, TerminalSnapshot>;
}

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

function terminalIds(item: EngineItem): string[] {
  if (item.kind !== 'tool_call') return [];
  const ids: string[] = [];
  for (const content of item.content) {
    if (!isUnknownVariant(content) && content.type === 'terminal') ids.push(content.terminalId);
  }
  return ids;
}

/** Text of a message made only of plain text blocks (what can be printed block by block). */
function plainMessageText(item: EngineItem): string | undefined {
  if (item.kind !== 'message' || item.role !== 'agent') return undefined;
  const segments = messageSegments(item.content);
  if (segments.length !== 1 || segments[0]?.kind !== 'text') return undefined;
  return segments[0].text;
}

/**
 * Projects session states, keeping what was printed. One projector per displayed session.
 *
 * @example
 * const projector = new TranscriptProjector();
 * const { printed, live } = projector.project(session.store.getSnapshot());
 */
export class TranscriptProjector {
  private units: TranscriptUnit[] = [];
  private snapshot: readonly TranscriptUnit[] = [];
  /** Engine items before this index are printed in full. */
  private cursor = 0;
  /** Characters of the message at `cursor` printed as parts. */
  private partChars = 0;
  private parts = 0;
  /** Characters of the streamed message at `cursor` handed to the Markdown lexer so far. */
  private fedChars = 0;
  private behind = false;
  private markdown: IncrementalMarkdown | undefined;
  private readonly unitCache = new WeakMap<EngineItem, { unit: TranscriptUnit; streaming: boolean }>();
  private readonly terminalCache = new Map<
    string,
    { sources: readonly (EngineTerminal | undefined)[]; map: ReadonlyMap<string, TerminalSnapshot> }
  >();

  /** Index of the first engine item not printed in full: items before it never change the view. */
  get liveStart(): number {
    return this.cursor;
  }

  /** Projects `state`; call it again with every new snapshot of the same session. */
  project(state: SessionState): Projection {
    const items = state.items;
    const running = isRunning(state);
    const before = this.units.length;
    this.behind = false;
    // Whether the message at the cursor was laid out in this projection (once per projection).
    let laidOut = false;
    while (this.cursor < items.length) {
      const item = items[this.cursor] as EngineItem;
      const last = this.cursor === items.length - 1;
      // Text that reached a message laid out in steps since the last projection is laid out
      // first: else the message, and everything after it, would stay live until the session
      // changes again (a growing live region that ends in a full-screen redraw).
      if (this.markdown && !laidOut) {
        this.printFinalBlocks(item, running);
        laidOut = true;
      }
      if (!this.isSettled(item, last, running, state)) break;
      this.printRest(item, state);
      this.cursor++;
      this.partChars = 0;
      this.parts = 0;
      this.fedChars = 0;
      this.markdown = undefined;
      laidOut = false;
    }
    const live: TranscriptUnit[] = [];
    for (let i = this.cursor; i < items.length; i++) {
      const item = items[i] as EngineItem;
      if (i === this.cursor && !laidOut) this.printFinalBlocks(item, running);
      const unit = this.unitFor(item, state, running && i === items.length - 1, i === this.cursor);
      if (unit) live.push(unit);
    }
    if (this.units.length !== before) this.snapshot = [...this.units];
    return { printed: this.snapshot, live, behind: this.behind };
  }

  /** Whether an item will not change any more (so it can be printed). */
  private isSettled(item: EngineItem, last: boolean, running: boolean, state: SessionState): boolean {
    // A message laid out in steps settles when its text is all lexed.
    const text = plainMessageText(item);
    if (text !== undefined && text.length > this.fedChars && (this.markdown || text.length > MAX_LEX_CHARS)) {
      return false;
    }
    if (!running) return true;
    switch (item.kind) {
      case 'message':
        return item.role === 'user' || !last;
      case 'tool_call': {
        const status = item.clientStatus ?? item.status;
        if (status !== 'completed' && status !== 'failed' && status !== 'cancelled') return false;
        return terminalIds(item).every((id) => {
          const terminal = state.terminals[id];
          return !terminal || terminal.exitStatus !== undefined || terminal.released === true;
        });
      }
      case 'compaction':
        return item.status !== 'in_progress' || !last;
      default:
        return true;
    }
  }

  /** Prints what is left of an item that just settled. */
  private printRest(item: EngineItem, state: SessionState): void {
    if (this.parts > 0) {
      const rest = this.sourceText(item).slice(this.partChars);
      if (rest.trim() !== '') this.pushPart(item, rest);
      return;
    }
    const unit = this.unitFor(item, state, false, false);
    if (unit) this.units.push(unit);
  }

  /**
   * Prints the final Markdown blocks of the streamed message at the cursor, lexing at most
   * {@link MAX_LEX_CHARS} more of it (the rest on the next projections).
   */
  private printFinalBlocks(item: EngineItem, running: boolean): void {
    const text = plainMessageText(item);
    // A streamed message is printed in parts, and so is a long one (laid out in steps).
    if (text === undefined || (!running && !this.markdown && text.length <= MAX_LEX_CHARS)) return;
    this.markdown ??= new IncrementalMarkdown();
    let fed = Math.min(text.length, this.fedChars + MAX_LEX_CHARS);
    // Never split a surrogate pair.
    if (fed < text.length && /[\ud800-\udbff]/.test(text.charAt(fed - 1))) fed--;
    this.fedChars = fed;
    if (fed < text.length) this.behind = true;
    const tokens = this.markdown.update(fed === text.length ? text : text.slice(0, fed));
    const stable = finalBlockCount(tokens, this.partChars);
    // One unit per block: a burst of completed blocks is printed over several renders.
    let offset = 0;
    for (let i = 0; i < stable; i++) {
      const end = offset + (tokens[i]?.raw.length ?? 0);
      if (end > this.partChars && tokens[i]?.type !== 'space') {
        const part = this.markdown.text.slice(this.partChars, end);
        this.partChars = end;
        if (part.trim() !== '') this.pushPart(item, part);
      }
      offset = end;
    }
  }

  private sourceText(item: EngineItem): string {
    const text = plainMessageText(item) ?? '';
    if (!this.markdown) return text;
    this.markdown.update(text);
    return this.markdown.text;
  }

  private pushPart(item: EngineItem, text: string): void {
    const key = `${this.keyOf(item)}#${this.parts++}`;
    this.units.push({
      key,
      item: {
        type: 'message',
        id: key,
        message: { id: key, role: 'agent', content: [{ type: 'text', text }] },
      },
    });
  }

  private keyOf(item: EngineItem): string {
    return item.key;
  }

  /** The unit of an item (the unprinted tail of a message printed in parts). */
  private unitFor(
    item: EngineItem,
    state: SessionState,
    streaming: boolean,
    atCursor: boolean,
  ): TranscriptUnit | undefined {
    if (atCursor && this.parts > 0 && this.markdown) {
      const key = `${item.key}#live`;
      const text = this.markdown.text.slice(this.partChars);
      return {
        key,
        item: {
          type: 'message',
          id: key,
          message: {
            id: key,
            role: 'agent',
            content: [{ type: 'text', text }],
            ...(streaming ? { streaming } : {}),
          },
        },
      };
    }
    const terminals = this.terminalsFor(item, state);
    // An item the engine did not change keeps its unit, so its card is not drawn again.
    const cached = this.unitCache.get(item);
    if (cached && cached.streaming === streaming && cached.unit.terminals === terminals) return cached.unit;
    const view = itemView(item, streaming);
    if (!view) return undefined;
    const unit: TranscriptUnit = terminals
      ? { key: item.key, item: view, terminals }
      : { key: item.key, item: view };
    this.unitCache.set(item, { unit, streaming });
    return unit;
  }

  /** The card's terminals, the same Map object while none of them changed. */
  private terminalsFor(
    item: EngineItem,
    state: SessionState,
  ): ReadonlyMap<string, TerminalSnapshot> | undefined {
    const ids = terminalIds(item);
    if (ids.length === 0) return undefined;
    const sources = ids.map((id) => state.terminals[id]);
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
