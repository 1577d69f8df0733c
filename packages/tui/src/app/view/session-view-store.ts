/**
 * A displayed session: its engine store projected for the screen, with bursts of changes
 * (streamed chunks) coalesced into one projection per frame, and a stream of text alone drawn
 * at a slower pace while the user is not typing.
 */
import type { SessionState, SessionStore } from '@acp-kit/client';
import { DEFAULT_COALESCE_MS, realScheduler, type Scheduler } from '../../text/coalesce.js';
import { terminalInput, TYPING_WINDOW_MS } from '../services/input-activity.js';
import {
  newestItemsIndex,
  showsItem,
  TranscriptProjector,
  type TranscriptUnit,
} from './transcript-projector.js';

/** What the session screen draws. */
export interface SessionView {
  readonly state: SessionState;
  readonly printed: readonly TranscriptUnit[];
  readonly live: readonly TranscriptUnit[];
  /** Transcript items before `printed` that print something but were not projected (see `cover`). */
  readonly earlier: number;
  /** When the session last heard from its agent or the user (clock ms); for the stall indicator. */
  readonly lastActivityAt: number;
}

/**
 * Shortest time between two frames of streamed text while nothing else changes and the user is
 * not typing, and the longest text waits to be drawn: at most ~7 frames a second. Every frame costs the same whatever changed in it (Ink lays
 * out and draws the whole live region again), so a stream drawn at 30 frames a second costs three
 * times as much for text that reads the same. (At 100 ms, with reading resting 100 ms between
 * reads, a 250-chunk/s answer drew ~7.5 frames a second, 30% more CPU than the ~5.5 it drew
 * before reads rested for real, for text that arrives in the same steps; 150 ms draws ~5.)
 */
export const STREAM_PACE_MS = 150;

/**
 * How long the UI's reading of an agent rests between reads of a stream of updates (the
 * protocol's `coalesceReadsMs`): longer than {@link STREAM_PACE_MS}, so that the text of every read
 * is drawn in the wakeup of that read. At 100 ms (`INTERACTIVE_READ_PACING_MS`, which `acp run`
 * keeps) every other read's text waited for the next read: twice the wakeups (a read, its pace
 * timer, and the pipe's readable event after the rest began) for the same ~5 frames a second.
 * A request or response from the agent still ends a rest at once; the turn's end waits for it.
 */
export const UI_READ_PACING_MS = 200;

/** Options of {@link SessionViewStore}. */
export interface SessionViewStoreOptions {
  /** Longest wait before a change is drawn (default {@link DEFAULT_COALESCE_MS}). */
  readonly intervalMs?: number;
  /**
   * Shortest time between frames of streamed text alone, and its longest wait, while the user is
   * not typing.
   */
  readonly streamPaceMs?: number;
  /** Whether the user is typing (default: a key in the last {@link TYPING_WINDOW_MS}). */
  readonly typing?: () => boolean;
  readonly scheduler?: Scheduler;
  readonly now?: () => number;
  /**
   * Project only the newest this many items that print something, and what comes after them
   * (default: every item); `cover` reaches further back when asked.
   */
  readonly historyItems?: number;
}

/** Session fields that change with every streamed chunk without changing what is drawn. */
const PER_UPDATE_FIELDS: ReadonlySet<string> = new Set(['items', 'updateCount', 'updatedAt', 'messageIndex']);

/**
 * Whether `next` differs from `previous` only by the text of the last item, a message, still
 * streaming (items before `from` are printed and not compared).
 */
export function onlyStreamedText(previous: SessionState, next: SessionState, from: number): boolean {
  if (previous === next) return true;
  // Keys walked with `for…in` (states are plain objects): `Object.keys` allocated two arrays of
  // every field at each streamed chunk.
  let fields = 0;
  for (const key in next) {
    fields++;
    const field = key as keyof SessionState;
    // Most fields are the same object: the set is asked only about the few that changed.
    if (previous[field] !== next[field] && !PER_UPDATE_FIELDS.has(field)) return false;
  }
  for (const key in previous) {
    if (!(key in next)) return false;
    fields--;
  }
  if (fields !== 0) return false;
  const before = previous.items;
  const after = next.items;
  const last = after.length - 1;
  if (before.length !== after.length || after[last]?.kind !== 'message') return false;
  for (let i = Math.max(0, from); i < last; i++) if (before[i] !== after[i]) return false;
  return true;
}

/**
 * Subscribes to a session store and keeps its projection. `subscribe`/`getSnapshot` follow
 * React's `useSyncExternalStore` contract.
 *
 * A change is projected `intervalMs` after the first change of a burst. When it is text streaming
 * into the last message and the user is not typing, it is projected with the first change that
 * comes `streamPaceMs` or more after the last projection (streamed text arrives in reads, so the
 * frame is drawn in the wakeup of a read instead of one of its own), and at the latest
 * `streamPaceMs` after it arrived; anything else that changes meanwhile ends the wait.
 *
 * @example
 * const view = new SessionViewStore(session.store);
 * const snapshot = useSyncExternalStore(view.subscribe, view.getSnapshot);
 */
export class SessionViewStore {
  private projector: TranscriptProjector;
  /** Items before the projector's start that print something. */
  private earlier = 0;
  private readonly listeners = new Set<() => void>();
  private readonly unsubscribe: () => void;
  private readonly offEvents: () => void;
  private readonly now: () => number;
  private readonly intervalMs: number;
  private readonly streamPaceMs: number;
  private readonly typing: () => boolean;
  private readonly scheduler: Scheduler;
  private view: SessionView;
  private lastActivityAt: number;
  private catchUp: ReturnType<typeof setTimeout> | undefined;
  /** The pending projection, if any, and whether it waits for the stream's pace. */
  private timer: unknown;
  private pacing = false;
  /** The pending projection runs once the current I/O is handled. */
  private soon = false;
  /** When the pending change arrived, and when the last projection was made (clock ms). */
  private pendingSince = 0;
  private projectedAt = -Infinity;

  constructor(
    private readonly store: SessionStore,
    options: SessionViewStoreOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.intervalMs = options.intervalMs ?? DEFAULT_COALESCE_MS;
    this.streamPaceMs = Math.max(this.intervalMs, options.streamPaceMs ?? STREAM_PACE_MS);
    this.typing = options.typing ?? (() => terminalInput.typedWithin(TYPING_WINDOW_MS));
    this.scheduler = options.scheduler ?? realScheduler;
    this.lastActivityAt = this.now();
    this.projector = this.projectorFor(options.historyItems ?? Infinity);
    this.view = this.compute();
    this.unsubscribe = store.subscribe(() => this.changed());
    this.offEvents = store.onEvent((event) => {
      if (event.type !== 'stalled') this.lastActivityAt = event.at;
    });
  }

  getSnapshot = (): SessionView => this.view;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  /**
   * Makes the projection cover at least the newest `count` items that print something (all of
   * them: `Infinity`), starting it again further back when it started later; its printed units
   * are then new (the screen is printed again after this).
   */
  cover(count: number): void {
    const start = count === Infinity ? 0 : newestItemsIndex(this.store.getSnapshot().items, count);
    if (start >= this.projector.start) return;
    this.clearTimer();
    this.projector = this.projectorFor(count);
    this.view = this.compute();
    this.notify();
  }

  /** Projects the latest state now (for example before the session is shown again). */
  flush(): void {
    this.clearTimer();
    this.refresh();
  }

  /** Stops listening to the session. */
  dispose(): void {
    if (this.catchUp) clearTimeout(this.catchUp);
    this.unsubscribe();
    this.offEvents();
    this.clearTimer();
    this.listeners.clear();
  }

  private changed(): void {
    const now = this.now();
    if (this.timer === undefined) {
      this.pendingSince = now;
      if (this.streamPaceMs > this.intervalMs && this.onlyText() && !this.typing()) {
        this.pacing = true;
        this.schedule(now >= this.projectedAt + this.streamPaceMs ? 0 : this.streamPaceMs);
      } else {
        this.schedule(this.intervalMs);
      }
    } else if (this.pacing && !this.soon && !this.onlyText()) {
      // Something other than text: drawn at once when a burst's interval has passed. (With a
      // projection already due at once, nothing waits: the state is not compared, nor read, at
      // each chunk of the read, so the store applies the read's chunks together.)
      this.clearTimer();
      const wait = this.pendingSince + this.intervalMs - now;
      if (wait > 0) this.schedule(wait);
      else this.refresh();
    } else if (this.pacing && !this.soon && now >= this.projectedAt + this.streamPaceMs) {
      // More text with the pace passed: drawn with this read.
      this.clearTimer();
      this.pacing = true;
      this.schedule(0);
    }
  }

  private schedule(ms: number): void {
    this.soon = ms <= 0;
    const project = (): void => {
      this.timer = undefined;
      this.pacing = false;
      this.soon = false;
      this.refresh();
    };
    // A projection due at once (the text of the read being handled) waits one more turn of the
    // event loop, still without sleeping: the timers due meanwhile run between the read and its
    // frame, so none of them waits for both (together, one task of ~3.5 ms at every read of a
    // paced stream: the UI's event-loop delay p99).
    this.timer = this.scheduler.setTimeout(
      ms <= 0
        ? () => {
            this.timer = this.scheduler.setTimeout(project, 0);
          }
        : project,
      ms,
    );
  }

  private onlyText(): boolean {
    return onlyStreamedText(this.view.state, this.store.getSnapshot(), this.projector.liveStart);
  }

  private clearTimer(): void {
    if (this.timer !== undefined) this.scheduler.clearTimeout(this.timer);
    this.timer = undefined;
    this.pacing = false;
    this.soon = false;
  }

  /** A projector from the newest `count` items that print something (counting those it leaves out). */
  private projectorFor(count: number): TranscriptProjector {
    const items = this.store.getSnapshot().items;
    const start = count === Infinity ? 0 : newestItemsIndex(items, count);
    this.earlier = 0;
    for (let i = 0; i < start; i++) if (showsItem(items[i] as (typeof items)[number])) this.earlier++;
    return new TranscriptProjector(start);
  }

  private compute(): SessionView {
    const state = this.store.getSnapshot();
    this.projectedAt = this.now();
    const { printed, live, behind } = this.projector.project(state);
    // Text arrived faster than it was laid out: continue on the next turn of the event loop.
    if (behind && !this.catchUp) this.catchUp = setTimeout(() => this.refresh(true), 0);
    return { state, printed, live, earlier: this.earlier, lastActivityAt: this.lastActivityAt };
  }

  private refresh(catchingUp = false): void {
    if (catchingUp) this.catchUp = undefined;
    const state = this.store.getSnapshot();
    if (state === this.view.state && !catchingUp) return;
    this.view = this.compute();
    this.notify();
  }

  private notify(): void {
    for (const listener of [...this.listeners]) listener();
  }
}
