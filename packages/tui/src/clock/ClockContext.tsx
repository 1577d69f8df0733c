import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from 'react';

/**
 * The current time for animation and "how long ago" displays. Components read it from context
 * instead of calling `Date.now()` so that tests (and Static output) are deterministic.
 */
const ClockContext = createContext<number | undefined>(undefined);

/** Props of {@link ClockProvider}. */
export interface ClockProviderProps {
  /** Tick period; 80 ms drives a smooth spinner. */
  readonly intervalMs?: number;
  /** Source of time, `Date.now` by default. */
  readonly now?: () => number;
  /** Stop ticking (for example while nothing is running) to avoid needless renders. */
  readonly paused?: boolean;
  /**
   * Frames drawn below for other reasons, by components that are not rendered with this one (the
   * live transcript, subscribed to its session's view): each shows the new time once it is a tick
   * old, in the same frame, instead of the clock drawing one of its own.
   */
  readonly frames?: { readonly subscribe: (listener: () => void) => () => void } | undefined;
  readonly children?: ReactNode;
}

/**
 * Ticks the clock every `intervalMs` for the components below (spinners, stall indicator).
 * Wrap only the live region: completed transcript items never need it.
 *
 * A render for another reason (a frame of streamed text) shows the new time as soon as it is a
 * tick old, and the clock's own tick comes a quarter of a tick after it is due, unless such a
 * render showed the time meanwhile: while an answer streams, the seconds move inside its frames
 * instead of drawing frames of their own (a second shows up to a quarter of a second late).
 */
export function ClockProvider({
  intervalMs = 80,
  now = Date.now,
  paused = false,
  frames,
  children,
}: ClockProviderProps) {
  const [ticked, setTicked] = useState(now);
  /** The time shown: the last tick, or a later render's time once that was a tick old. */
  const shown = useRef(ticked);
  if (ticked > shown.current) shown.current = ticked;
  if (!paused) {
    const current = now();
    if (current - shown.current >= intervalMs) shown.current = current;
  }
  useEffect(() => {
    if (paused) return undefined;
    let timer: ReturnType<typeof setTimeout>;
    const schedule = (): void => {
      timer = setTimeout(
        () => {
          const current = now();
          if (current - shown.current >= intervalMs) {
            shown.current = current;
            setTicked(current);
          }
          schedule();
        },
        // A quarter of a tick later than due: a frame drawn meanwhile shows the time instead.
        Math.max(0, shown.current + intervalMs * 1.25 - now()),
      );
    };
    schedule();
    return () => clearTimeout(timer);
  }, [intervalMs, now, paused]);
  useEffect(() => {
    if (paused || !frames) return undefined;
    // Rendered in the same commit as the frame that notified (React batches both updates).
    return frames.subscribe(() => {
      const current = now();
      if (current - shown.current >= intervalMs) {
        shown.current = current;
        setTicked(current);
      }
    });
  }, [frames, intervalMs, now, paused]);
  return <ClockContext.Provider value={shown.current}>{children}</ClockContext.Provider>;
}

/** Props of {@link FixedClock}. */
export interface FixedClockProps {
  readonly now: number;
  readonly children?: ReactNode;
}

/** A clock that shows a given instant: for tests and for one-off renders. */
export function FixedClock({ now, children }: FixedClockProps) {
  return <ClockContext.Provider value={now}>{children}</ClockContext.Provider>;
}

/** The clock's current time in milliseconds (wall time when no clock is provided). */
export function useNow(): number {
  return useContext(ClockContext) ?? Date.now();
}
