/**
 * A displayed session: its engine store projected for the screen, with bursts of changes
 * (streamed chunks) coalesced into one projection per frame.
 */
import type { SessionState, SessionStore } from '@acp-kit/client';
import { createCoalescer, DEFAULT_COALESCE_MS, type Coalescer, type Scheduler } from '../../text/coalesce.js';
import { TranscriptProjector, type TranscriptUnit } from './transcript-projector.js';

/** What the session screen draws. */
export interface SessionView {
  readonly state: SessionState;
  readonly printed: readonly TranscriptUnit[];
  readonly live: readonly TranscriptUnit[];
  /** When the session last heard from its agent or the user (clock ms); for the stall indicator. */
  readonly lastActivityAt: number;
}

/** Options of {@link SessionViewStore}. */
export interface SessionViewStoreOptions {
  readonly intervalMs?: number;
  readonly scheduler?: Scheduler;
  readonly now?: () => number;
}

/**
 * Subscribes to a session store and keeps its projection. `subscribe`/`getSnapshot` follow
 * React's `useSyncExternalStore` contract.
 *
 * @example
 * const view = new SessionViewStore(session.store);
 * const snapshot = useSyncExternalStore(view.subscribe, view.getSnapshot);
 */
export class SessionViewStore {
  private readonly projector = new TranscriptProjector();
  private readonly listeners = new Set<() => void>();
  private readonly coalescer: Coalescer<void>;
  private readonly unsubscribe: () => void;
  private readonly offEvents: () => void;
  private readonly now: () => number;
  private view: SessionView;
  private lastActivityAt: number;
  private catchUp: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly store: SessionStore,
    options: SessionViewStoreOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.lastActivityAt = this.now();
    this.view = this.compute();
    this.coalescer = createCoalescer<void>(() => this.refresh(), {
      intervalMs: options.intervalMs ?? DEFAULT_COALESCE_MS,
      ...(options.scheduler ? { scheduler: options.scheduler } : {}),
    });
    this.unsubscribe = store.subscribe(() => this.coalescer.push());
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

  /** Projects the latest state now (for example before the session is shown again). */
  flush(): void {
    this.coalescer.flush();
  }

  /** Stops listening to the session. */
  dispose(): void {
    if (this.catchUp) clearTimeout(this.catchUp);
    this.unsubscribe();
    this.offEvents();
    this.coalescer.cancel();
    this.listeners.clear();
  }

  private compute(): SessionView {
    const state = this.store.getSnapshot();
    const { printed, live, behind } = this.projector.project(state);
    // Text arrived faster than it was laid out: continue on the next turn of the event loop.
    if (behind && !this.catchUp) this.catchUp = setTimeout(() => this.refresh(true), 0);
    return { state, printed, live, lastActivityAt: this.lastActivityAt };
  }

  private refresh(catchingUp = false): void {
    if (catchingUp) this.catchUp = undefined;
    const state = this.store.getSnapshot();
    if (state === this.view.state && !catchingUp) return;
    this.view = this.compute();
    for (const listener of [...this.listeners]) listener();
  }
}
