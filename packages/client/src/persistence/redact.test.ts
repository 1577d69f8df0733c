import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mayNeedRedaction, redactReplacer, redactValue, unchangedInTrace } from './redact.js';

const SEED = 20_261_126;

/** JSON values whose keys and strings often look like what the rules redact. */
const word = fc.constantFrom(
  'text',
  'apiKey',
  'token',
  'maxTokens',
  'env',
  'headers',
  'command',
  'value',
  'sk-abcdefghijklmnopqrstuv',
  'Bearer abcdefghijkl',
  'ghp_abcdefghijklmnopqrstuvwx',
  'plain words',
  'é\u2028',
  '\u0000',
);
const value = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small' },
    word,
    fc.string(),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('node'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(word, fc.string({ maxLength: 6 })), tie('node'), { maxKeys: 4 }),
  ),
})).node;

describe('the redaction fast path', () => {
  it('a text mayNeedRedaction() calls clean serialises the same with and without the replacer', () => {
    fc.assert(
      fc.property(value, (v) => {
        const plain = JSON.stringify(v);
        if (plain === undefined || mayNeedRedaction(plain)) return;
        expect(JSON.stringify(v, redactReplacer)).toBe(plain);
      }),
      { seed: SEED, numRuns: 3000 },
    );
  });

  it('a text unchangedInTrace() accepts is left as it is by redactValue', () => {
    fc.assert(
      fc.property(value, (v) => {
        const plain = JSON.stringify(v);
        if (plain === undefined || !unchangedInTrace(plain)) return;
        expect(redactValue(v)).toEqual(v);
      }),
      { seed: SEED + 1, numRuns: 3000 },
    );
  });

  it('sends to the slow path what could hide a secret or be cut', () => {
    expect(mayNeedRedaction('{"jsonrpc":"2.0","method":"session/update","params":{"a":"hello"}}')).toBe(
      false,
    );
    expect(mayNeedRedaction('{"apiKey":"x"}')).toBe(true);
    expect(mayNeedRedaction('{"text":"use sk-abcdefghijklmnopqrstuv"}')).toBe(true);
    expect(mayNeedRedaction('{"env":[]}')).toBe(true);
    // An escaped key could spell a credential name: "t\u006fken".
    expect(mayNeedRedaction(String.raw`{"t\u006fken":"x"}`)).toBe(true);
    expect(unchangedInTrace(`{"a":"${'x'.repeat(20_000)}"}`)).toBe(false);
    expect(unchangedInTrace('['.repeat(65) + ']'.repeat(65))).toBe(false);
    expect(unchangedInTrace('['.repeat(60) + ']'.repeat(60))).toBe(true);
    // Both kinds of opening count towards the depth cut, together.
    expect(unchangedInTrace('[{"a":'.repeat(33) + '0' + '}]'.repeat(33))).toBe(false);
    expect(unchangedInTrace('[{"a":'.repeat(32) + '0' + '}]'.repeat(32))).toBe(true);
  });
});
