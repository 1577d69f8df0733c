/**
 * `JSON.stringify` that does not lose deeply nested data. V8's `JSON.stringify` recurses and
 * throws RangeError from about 5,000 levels, while `JSON.parse` does not: an agent can send a
 * `session/update` we parse and apply but could not write to a transcript or print. Past the
 * native limit this falls back to an iterative serialiser with the same output.
 */

/** A `JSON.stringify` replacer function (`this` is the object holding `key`). */
export type JsonReplacer = (this: unknown, key: string, value: unknown) => unknown;

/**
 * Serialises a JSON value like `JSON.stringify(value, replacer)`, at any depth (cycles still
 * throw TypeError). A top-level value that JSON cannot represent gives `'null'`.
 *
 * @example
 * const deep = JSON.parse('['.repeat(100_000) + ']'.repeat(100_000));
 * stringifyJson(deep).length; // 200000 — JSON.stringify(deep) throws RangeError
 */
export function stringifyJson(value: unknown, replacer?: JsonReplacer): string {
  try {
    return (JSON.stringify(value, replacer) as string | undefined) ?? 'null';
  } catch (error) {
    if (!(error instanceof RangeError) || !/call stack/i.test(error.message)) throw error;
    return stringifyIteratively(value, replacer);
  }
}

/** A value after `toJSON` and the replacer. */
function prepare(holder: unknown, key: string, value: unknown, replacer: JsonReplacer | undefined): unknown {
  let out = value;
  if (typeof out === 'object' && out !== null && typeof (out as { toJSON?: unknown }).toJSON === 'function') {
    out = (out as { toJSON(key: string): unknown }).toJSON(key);
  }
  return replacer ? replacer.call(holder, key, out) : out;
}

function representable(value: unknown): boolean {
  return value !== undefined && typeof value !== 'function' && typeof value !== 'symbol';
}

/** A prepared value to write, or the end of an object or array (to close it and leave the cycle check). */
type Task = { value: unknown } | { close: object; text: string };

/** @internal The fallback of {@link stringifyJson} (exported for its tests). */
export function stringifyIteratively(root: unknown, replacer?: JsonReplacer): string {
  const out: string[] = [];
  const open = new Set<object>();
  const stack: (Task | string)[] = [{ value: prepare({ '': root }, '', root, replacer) }];
  while (stack.length > 0) {
    const task = stack.pop() as Task | string;
    if (typeof task === 'string') {
      out.push(task);
      continue;
    }
    if ('close' in task) {
      open.delete(task.close);
      out.push(task.text);
      continue;
    }
    const value = task.value;
    if (value === null || !representable(value)) out.push('null');
    else if (typeof value === 'string') out.push(JSON.stringify(value));
    else if (typeof value === 'number') out.push(Number.isFinite(value) ? String(value) : 'null');
    else if (typeof value === 'boolean') out.push(String(value));
    else if (typeof value === 'bigint') throw new TypeError('Do not know how to serialize a BigInt');
    else {
      const object = value as object;
      if (open.has(object)) throw new TypeError('Converting circular structure to JSON');
      open.add(object);
      const parts: (Task | string)[] = [];
      if (Array.isArray(object)) {
        out.push('[');
        object.forEach((item: unknown, index) => {
          if (index > 0) parts.push(',');
          parts.push({ value: prepare(object, String(index), item, replacer) });
        });
        parts.push({ close: object, text: ']' });
      } else {
        out.push('{');
        for (const key of Object.keys(object)) {
          const item = prepare(object, key, (object as Record<string, unknown>)[key], replacer);
          if (!representable(item)) continue;
          parts.push(`${parts.length > 0 ? ',' : ''}${JSON.stringify(key)}:`, { value: item });
        }
        parts.push({ close: object, text: '}' });
      }
      for (let i = parts.length - 1; i >= 0; i--) stack.push(parts[i] as Task | string);
    }
  }
  return out.join('');
}
