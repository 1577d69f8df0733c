/**
 * One store per session: the current snapshot, a reducer over events, and subscriptions in the
 * shape React's `useSyncExternalStore` expects.
 *
 * Events are applied when the state is next read, all those dispatched since in one pass: a
 * streamed answer's chunks arrive ~50 to a read, and a screen reads the state once per frame, so
 * they cost one copy of the session's records instead of one each. Readers cannot tell: the
 * snapshot they get holds every event dispatched before they asked.
 */
import { Emitter, type Unsubscribe } from '../util/emitter.js';
import type { SessionEvent } from './events.js';
import { reduceSessionEvents } from './reducer.js';
import { retain, type SessionRetention } from './retention.js';
import type { SessionState } from './state.js';

/**
 * A session's state container.
 *
 * @example
 * // React / Ink
 * const state = useSyncExternalStore(store.subscribe, store.getSnapshot);
 * // anywhere
 * const off = store.onEvent((event) => log(event.type));
 */
/**
 * Events queued before they are applied even if nobody reads the state (a headless run that only
 * writes events out): what is queued stays bounded, and a read's chunks still go together.
 */
const MAX_PENDING_EVENTS = 256;

export class SessionStore {
  private state: SessionState;
  /** Events dispatched and not applied yet (applied when the state is read). */
  private pending: SessionEvent[] = [];
  private readonly listeners = new Set<() => void>();
  private readonly events = new Emitter<{ event: SessionEvent }>();
  private retention: SessionRetention | undefined;

  constructor(initial: SessionState) {
    this.state = initial;
  }

  /**
   * Keeps only part of the transcript in memory from now on (undefined: everything, the default).
   * The record on disk is not affected: it is written from the events.
   *
   * @example
   * session.store.setRetention({ maxItems: 200, maxMessageChars: 16_384 }); // a headless run
   */
  setRetention(retention: SessionRetention | undefined): void {
    if (this.pending.length > 0) this.apply();
    this.retention = retention;
  }

  /** The current snapshot (a new object after every change, the same object otherwise). */
  getSnapshot = (): SessionState => {
    if (this.pending.length > 0) this.apply();
    return this.state;
  };

  /** Calls `listener` after every change; returns the unsubscribe function. */
  subscribe = (listener: () => void): Unsubscribe => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  /** Calls `listener` with every event dispatched, after the state changed. */
  onEvent(listener: (event: SessionEvent) => void): Unsubscribe {
    return this.events.on('event', listener);
  }

  /** Applies an event and notifies. */
  dispatch(event: SessionEvent): void {
    this.pending.push(event);
    if (this.pending.length >= MAX_PENDING_EVENTS) this.apply();
    this.events.emit('event', event);
    this.notify();
  }

  /** Applies events in one go (one notification); `emit` false keeps them from event listeners (replays from disk). */
  dispatchMany(events: readonly SessionEvent[], emit = true): void {
    if (events.length === 0) return;
    for (const event of events) this.pending.push(event);
    if (this.pending.length >= MAX_PENDING_EVENTS) this.apply();
    if (emit) for (const event of events) this.events.emit('event', event);
    this.notify();
  }

  /**
   * Applies the pending events. Should the reducer fail on one (it does not on any event the
   * engine makes), the others are applied one by one and that one is left out, as a failed
   * dispatch left the state before.
   */
  private apply(): void {
    const events = this.pending;
    this.pending = [];
    try {
      this.state = this.reduce(this.state, events);
    } catch {
      for (const event of events) {
        try {
          this.state = this.reduce(this.state, [event]);
        } catch {
          // Left out: the state stays as it was before this event.
        }
      }
    }
  }

  private reduce(state: SessionState, events: readonly SessionEvent[]): SessionState {
    const next = reduceSessionEvents(state, events);
    return this.retention ? retain(next, this.retention) : next;
  }

  private notify(): void {
    for (const listener of [...this.listeners]) {
      try {
        listener();
      } catch {
        // A broken subscriber must not break the others.
      }
    }
  }
}
