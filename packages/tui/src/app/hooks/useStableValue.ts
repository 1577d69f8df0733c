import { useRef } from 'react';

/**
 * The previous value while `equal(previous, next)` holds, so memoised children that receive it
 * do not redraw for an equal but new object.
 *
 * @example
 * const status = useStableValue(statusView(tab, state), sameStatus);
 */
export function useStableValue<T>(value: T, equal: (a: T, b: T) => boolean): T {
  const previous = useRef(value);
  if (!equal(previous.current, value)) previous.current = value;
  return previous.current;
}
