import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringifyIteratively, stringifyJson, type JsonReplacer } from './stringify-json.js';

const SEED = Number(process.env.ACP_KIT_SEED ?? 417);

describe('stringifyJson', () => {
  it('keeps values nested far beyond what JSON.stringify can write', () => {
    for (const depth of [10_000, 1_000_000]) {
      const text = `{"a":${'['.repeat(depth)}"x",1,null${']'.repeat(depth)}}`;
      const value: unknown = JSON.parse(text);
      expect(() => JSON.stringify(value)).toThrow(RangeError);
      expect(stringifyJson(value)).toBe(text);
    }
  });

  it('applies the replacer at any depth, with the holder as this', () => {
    const deep: unknown = JSON.parse(
      `${'{"k":'.repeat(20_000)}{"secret":"s","keep":"k"}${'}'.repeat(20_000)}`,
    );
    const replacer: JsonReplacer = function (key, value) {
      return key === 'secret' && typeof this === 'object' ? '[redacted]' : value;
    };
    expect(stringifyJson(deep, replacer)).toBe(
      `${'{"k":'.repeat(20_000)}{"secret":"[redacted]","keep":"k"}${'}'.repeat(20_000)}`,
    );
  });

  it('writes exactly what JSON.stringify writes (property, fixed seed)', () => {
    const replacer: JsonReplacer = (key, value) =>
      key === 'drop' ? undefined : typeof value === 'string' ? value.toUpperCase() : value;
    fc.assert(
      fc.property(
        fc.jsonValue(),
        fc.anything({ withDate: true, withBoxedValues: false, withMap: false, withSet: false }),
        (json, anything) => {
          expect(stringifyIteratively(json)).toBe(JSON.stringify(json) ?? 'null');
          expect(stringifyIteratively({ json, drop: 1 }, replacer)).toBe(
            JSON.stringify({ json, drop: 1 }, replacer),
          );
          let native: string | undefined;
          try {
            native = JSON.stringify(anything);
          } catch {
            return; // BigInt and the like: both throw
          }
          expect(stringifyIteratively(anything)).toBe(native ?? 'null');
        },
      ),
      { seed: SEED, numRuns: 500 },
    );
  });

  it('still refuses cycles', () => {
    const cycle: { self?: unknown } = {};
    cycle.self = cycle;
    expect(() => stringifyIteratively(cycle)).toThrow(TypeError);
  });
});
