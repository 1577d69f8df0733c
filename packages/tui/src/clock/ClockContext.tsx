import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';

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
  readonly children?: ReactNode;
}

/**
 * Ticks the clock every `intervalMs` for the components below (spinners, stall indicator).
 * Wrap only the live region: completed transcript items never need it.
 */
export function ClockProvider({
  intervalMs = 80,
  now = Date.now,
  paused = false,
  children,
}: ClockProviderProps) {
  const [time, setTime] = useState(now);
  useEffect(() => {
    if (paused) return undefined;
    const timer = setInterval(() => setTime(now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs, now, paused]);
  return <ClockContext.Provider value={time}>{children}</ClockContext.Provider>;
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
