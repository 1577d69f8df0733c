import { memo } from 'react';
import { Text } from 'ink';
import { useNow } from '../clock/ClockContext.js';
import { spinnerFrame } from './spinner-frames.js';

export { SPINNER_FRAMES, spinnerFrame } from './spinner-frames.js';

/** Props of {@link Spinner}. */
export interface SpinnerProps {
  readonly color?: string;
  /** Time per frame. */
  readonly frameMs?: number;
}

/** A one-cell spinner driven by the clock context (see `ClockProvider`). */
export const Spinner = memo(function Spinner({ color, frameMs = 80 }: SpinnerProps) {
  return <Text color={color}>{spinnerFrame(useNow(), frameMs)}</Text>;
});
