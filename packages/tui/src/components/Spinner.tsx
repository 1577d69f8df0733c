import { memo } from 'react';
import { Text } from 'ink';
import { useNow } from '../clock/ClockContext.js';

/** Frames of the spinner. */
export const SPINNER_FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'] as const;

/** Props of {@link Spinner}. */
export interface SpinnerProps {
  readonly color?: string;
  /** Time per frame. */
  readonly frameMs?: number;
}

/** The spinner frame shown at time `now`. */
export function spinnerFrame(now: number, frameMs = 80): string {
  const index = Math.floor(now / frameMs) % SPINNER_FRAMES.length;
  return SPINNER_FRAMES[index] ?? SPINNER_FRAMES[0];
}

/** A one-cell spinner driven by the clock context (see `ClockProvider`). */
export const Spinner = memo(function Spinner({ color, frameMs = 80 }: SpinnerProps) {
  return <Text color={color}>{spinnerFrame(useNow(), frameMs)}</Text>;
});
