import { useEffect, useState } from 'react';
import { createCoalescer, type Scheduler } from './coalesce.js';

/** Options of {@link useCoalescedStore}. */
export interface CoalescedStoreOptions {
  /** Longest delay between a change and the render that shows it. */
  readonly intervalMs?: number;
  readonly scheduler?: Scheduler;
}

/**
 * Reads a store that changes many times per frame (a session receiving streamed chunks) and
 * re-renders at most once per interval with its latest snapshot. `subscribe` and `getSnapshot`
 * must be stable (memoised) functions.
 *
 * @example
 * const session = useCoalescedStore(store.subscribe, store.getSnapshot, { intervalMs: 24 });
 */
export function useCoalescedStore<T>(
  subscribe: (listener: () => void) => () => void,
  getSnapshot: () => T,
  options: CoalescedStoreOptions = {},
): T {
  const [snapshot, setSnapshot] = useState<{ value: T }>(() => ({ value: getSnapshot() }));
  const { intervalMs, scheduler } = options;
  useEffect(() => {
    const coalescer = createCoalescer<void>(() => setSnapshot({ value: getSnapshot() }), {
      intervalMs,
      scheduler,
    });
    const unsubscribe = subscribe(() => coalescer.push());
    // The store may have changed between the first render and this subscription.
    setSnapshot((current) => (Object.is(current.value, getSnapshot()) ? current : { value: getSnapshot() }));
    return () => {
      unsubscribe();
      coalescer.cancel();
    };
  }, [subscribe, getSnapshot, intervalMs, scheduler]);
  return snapshot.value;
}
