/**
 * Bounded nesting for what the session log stores. A client may send a prompt whose `_meta` nests
 * thousands of levels (JSON.parse takes it); `JSON.stringify` throws from about 5,000 levels, so
 * such a record could be neither stored nor replayed. Deeper parts are replaced by a marker
 * instead: the record, and the text of the message, are kept.
 */

/** Deepest nesting of objects and arrays a stored record keeps. */
export const MAX_STORED_DEPTH = 512;
/** What replaces a value nested deeper than {@link MAX_STORED_DEPTH}. */
export const TOO_DEEP_MARKER = `[acp-kit: nested deeper than ${MAX_STORED_DEPTH} levels; not stored]`;

function isContainer(value: unknown): value is Record<string, unknown> | unknown[] {
  return typeof value === 'object' && value !== null;
}

/** Whether `value` nests objects or arrays more than `maxDepth` levels (iterative: any depth is fine). */
export function nestsDeeperThan(value: unknown, maxDepth: number): boolean {
  if (!isContainer(value)) return false;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop() as [unknown, number];
    if (depth > maxDepth) return true;
    for (const child of Object.values(current as object)) {
      if (isContainer(child)) stack.push([child, depth + 1]);
    }
  }
  return false;
}

/**
 * `value` itself when it nests at most `maxDepth` levels, else a copy whose containers below that
 * depth are replaced by {@link TOO_DEEP_MARKER}.
 *
 * @example
 * log.append(capDepth(record)); // the record, or a copy cut at 512 levels
 */
export function capDepth<T>(value: T, maxDepth = MAX_STORED_DEPTH): T {
  if (!nestsDeeperThan(value, maxDepth)) return value;
  return copyCapped(value, maxDepth, 1) as T;
}

/** Recursion is bounded by `maxDepth`, whatever the input's depth. */
function copyCapped(value: unknown, maxDepth: number, depth: number): unknown {
  if (!isContainer(value)) return value;
  if (depth > maxDepth) return TOO_DEEP_MARKER;
  if (Array.isArray(value)) return value.map((item) => copyCapped(item, maxDepth, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    // defineProperty: a `__proto__` key stays a plain key, as JSON.parse made it.
    Object.defineProperty(out, key, {
      value: copyCapped(child, maxDepth, depth + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}
