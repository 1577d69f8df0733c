/**
 * Prints the settled part of the shown session into the terminal's scrollback, above the live
 * region: each unit is drawn once (as text) and written through Ink, which moves its live region
 * below it. Bursts are printed in slices so the event loop keeps serving input; while a session
 * streams, what completed in the meantime is printed together every {@link PRINT_INTERVAL_MS}.
 */
import { realScheduler, type Scheduler } from '../../text/coalesce.js';
import { plural } from '../../text/fold.js';
import type { SessionViewStore } from '../view/session-view-store.js';
import type { TranscriptUnit } from '../view/transcript-projector.js';

/** Units drawn per write. */
export const UNITS_PER_PRINT = 4;
/**
 * Units drawn per write of the history shown with a session: few, large writes (each costs a
 * render of its own and a redraw of the live region, ~5–10 ms), up to ~50 ms each; the default
 * history (120 items) is one write.
 */
export const BACKLOG_UNITS_PER_PRINT = 128;
/** Pause between two printings of a streaming session. */
export const PRINT_INTERVAL_MS = 50;
/**
 * Wait before the history of a session just shown is printed: longer than a frame (Ink draws at
 * most 30 a second), so the session's composer and status are drawn, and take keys, first.
 */
export const SHOW_DELAY_MS = 40;
/**
 * The same wait for a printer told of each frame drawn ({@link TranscriptPrinter.frameDrawn}): the
 * history is printed right after the first frame that follows `show`, or after this long if no
 * frame comes (nothing on screen changed). A fixed delay was too short when the session's first
 * render is slow (a long session, a loaded machine): the printing then ran before that frame and
 * held it back by as long as the history took to print.
 */
export const SHOW_FRAME_WAIT_MS = 250;

/** What the printer needs from the application. */
export interface PrinterDeps {
  /** Draws units as text (see `renderUnits`), with the current theme, width and view options. */
  readonly render: (units: readonly TranscriptUnit[]) => string;
  /** A notice unit (the "earlier items not shown" line). */
  readonly notice: (text: string) => TranscriptUnit;
  /**
   * Runs before the units are printed; a promise when they must wait for it (the syntax
   * highlighter, loaded lazily, for code: what is printed is never drawn again).
   */
  readonly prepare?: (units: readonly TranscriptUnit[]) => Promise<void> | void;
  /** Called once the history shown with a session has been written (at once when it has none). */
  readonly onBacklogPrinted?: (view: SessionViewStore) => void;
  /** Whether the application calls {@link TranscriptPrinter.frameDrawn} after each frame. */
  readonly framesReported?: boolean;
  readonly now?: () => number;
  readonly scheduler?: Scheduler;
}

/** Transcript items the units show (a message printed in several parts counts once). */
function itemCount(units: readonly TranscriptUnit[]): number {
  return new Set(units.map((unit) => unit.item.key)).size;
}

/** Index of the first unit of the newest `items` transcript items among `units`. */
function newestItemsStart(units: readonly TranscriptUnit[], items: number): number {
  const seen = new Set<string>();
  for (let i = units.length - 1; i >= 0; i--) {
    const key = (units[i] as TranscriptUnit).item.key;
    if (!seen.has(key) && seen.size === items) return i + 1;
    seen.add(key);
  }
  return 0;
}

/**
 * @example
 * const printer = new TranscriptPrinter({ render, notice });
 * printer.setWriter(inkWrite);
 * printer.show(runtime.view, { historyItems: 120, fullHistory: false, menuKey: 'Ctrl+X' });
 */
export class TranscriptPrinter {
  private writer: ((data: string) => void) | undefined;
  private view: SessionViewStore | undefined;
  private unsubscribe: (() => void) | undefined;
  /** Index in the view's printed units of the next unit to print. */
  private next = 0;
  /** Units printed when the session was shown (printed without pauses). */
  private backlogEnd = 0;
  private pending: TranscriptUnit[] = [];
  private timer: unknown;
  /** A batch waits for `prepare`: no other printing starts meanwhile (it would print it again). */
  private waiting = false;
  private lastPrint = -Infinity;
  /** A session was just shown: its history waits for the next frame (see {@link frameDrawn}). */
  private awaitingFrame = false;
  private generation = 0;
  private readonly now: () => number;
  private readonly scheduler: Scheduler;

  constructor(private readonly deps: PrinterDeps) {
    this.now = deps.now ?? (() => performance.now());
    this.scheduler = deps.scheduler ?? realScheduler;
  }

  /** Where to write (Ink's stdout writer, once the UI is mounted); printing waits until set. */
  setWriter(writer: ((data: string) => void) | undefined): void {
    this.writer = writer;
    if (writer) this.schedule(0);
  }

  /**
   * Starts printing `view` (after the screen was cleared): the units of its newest `historyItems`
   * transcript items (a message printed block by block is one item; all of them with
   * `fullHistory`), then whatever settles later.
   */
  show(
    view: SessionViewStore | undefined,
    options: { historyItems: number; fullHistory: boolean; menuKey: string },
  ): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.cancelTimer();
    this.generation++;
    this.view = view;
    this.pending = [];
    this.next = 0;
    this.backlogEnd = 0;
    if (!view) return;
    view.cover(options.fullHistory ? Infinity : options.historyItems);
    view.flush();
    const { printed, earlier } = view.getSnapshot();
    const from = options.fullHistory ? 0 : newestItemsStart(printed, options.historyItems);
    const hidden = earlier + itemCount(printed.slice(0, from));
    if (hidden > 0)
      this.pending.push(
        this.deps.notice(
          `${plural(hidden, 'earlier item')} not shown · ${options.menuKey} → Show the whole history`,
        ),
      );
    this.next = from;
    this.backlogEnd = printed.length;
    if (this.backlogEnd === 0) this.deps.onBacklogPrinted?.(view);
    // Only projections that settled something: the others (most frames of a streamed answer)
    // would each cost a wakeup of their own for nothing to print.
    this.unsubscribe = view.subscribe(() => {
      if (this.next < view.getSnapshot().printed.length) this.schedule(this.delay());
    });
    this.awaitingFrame = this.deps.framesReported === true;
    this.schedule(this.awaitingFrame ? SHOW_FRAME_WAIT_MS : SHOW_DELAY_MS);
  }

  /**
   * A frame was drawn (called from Ink's `onRender`, before its output is written): the history of
   * a session just shown starts printing once that frame is out, so the composer and status come
   * first and take keys while the history prints.
   */
  frameDrawn(): void {
    if (!this.awaitingFrame) return;
    this.awaitingFrame = false;
    this.cancelTimer();
    this.schedule(0);
  }

  /** Stops printing. */
  dispose(): void {
    this.unsubscribe?.();
    this.cancelTimer();
  }

  private cancelTimer(): void {
    if (this.timer !== undefined) this.scheduler.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private delay(): number {
    return Math.max(0, this.lastPrint + PRINT_INTERVAL_MS - this.now());
  }

  private schedule(ms: number): void {
    if (this.timer !== undefined || this.waiting || !this.view) return;
    this.timer = this.scheduler.setTimeout(() => {
      this.timer = undefined;
      this.print();
    }, ms);
  }

  private print(): void {
    this.awaitingFrame = false;
    const view = this.view;
    const write = this.writer;
    if (!view || !write) return;
    const generation = this.generation;
    const printed = view.getSnapshot().printed;
    const size = this.next < this.backlogEnd ? BACKLOG_UNITS_PER_PRINT : UNITS_PER_PRINT;
    const batch = [...this.pending, ...printed.slice(this.next, this.next + size - this.pending.length)];
    if (batch.length === 0) return;
    const ready = this.deps.prepare?.(batch);
    if (!ready) {
      this.writeBatch(view, write, generation, batch);
      return;
    }
    this.waiting = true;
    // Printed either way: without what `prepare` loads (code is then not highlighted) if it failed.
    const proceed = (): void => {
      this.waiting = false;
      this.writeBatch(view, write, generation, batch);
    };
    void ready.then(proceed, proceed);
  }

  private writeBatch(
    view: SessionViewStore,
    write: (data: string) => void,
    generation: number,
    batch: readonly TranscriptUnit[],
  ): void {
    // The session was switched (or printed again) while waiting: print what is shown now.
    if (generation !== this.generation || this.writer !== write) {
      this.schedule(0);
      return;
    }
    const taken = batch.length - this.pending.length;
    this.pending = [];
    this.next += taken;
    this.lastPrint = this.now();
    write(this.deps.render(batch));
    // Written: what a reprint can make again is let go (printed Markdown keeps only its text).
    for (const unit of batch) if (unit.part?.kind === 'markdown') unit.part.release?.();
    if (this.next >= this.backlogEnd && this.backlogEnd > 0) {
      this.backlogEnd = 0;
      this.deps.onBacklogPrinted?.(view);
    }
    if (this.next < view.getSnapshot().printed.length)
      this.schedule(this.next < this.backlogEnd ? 0 : this.delay());
  }
}
