import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from './bundle.ts';
import { lazyIntl, lazyIntlSource } from './lazy-intl.ts';
import { LazySegmenter } from './lazy-segmenter.ts';

const dir = mkdtempSync(join(tmpdir(), 'acp-lazy-intl-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Texts whose widths take every path of string-width (emoji sequences, marks, wide, ignorable). */
const TEXTS = [
  'plain',
  'é e\u0301 界 👍 👍🏽 👨‍👩‍👧 🇫🇷 #\u20e3 ☺\ufe0f ⚠ \u00ad \u200b',
  '\x1b[1mbold\x1b[22m 한국어 각',
];

/**
 * Bundles string-width, wrap-ansi and slice-ansi as the acp bundle does (with the plugin or
 * without), runs the result in a fresh Node that counts the segmenters made and the emoji
 * expressions compiled, and reports those counts after the import and after measuring TEXTS.
 */
async function run(plugins: boolean): Promise<{ atImport: number[]; after: number[]; widths: unknown }> {
  const result = await build({
    stdin: {
      contents: `import stringWidth from 'string-width';
import wrapAnsi from 'wrap-ansi';
import sliceAnsi from 'slice-ansi';
export const atImport = [globalThis.__segmenters, globalThis.__emojiExpressions];
export function measure(texts) {
  return texts.map((t) => [stringWidth(t), wrapAnsi(t, 5, { hard: true }), sliceAnsi(t, 1, 6)]);
}`,
      resolveDir: ROOT,
      loader: 'js',
    },
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    write: false,
    plugins: plugins ? [lazyIntl] : [],
  });
  const file = join(dir, `${plugins ? 'lazy' : 'plain'}.mjs`);
  writeFileSync(file, result.outputFiles[0]?.text ?? '');
  const counter = join(dir, 'count.mjs');
  writeFileSync(
    counter,
    `globalThis.__segmenters = 0; globalThis.__emojiExpressions = 0;
const Segmenter = Intl.Segmenter;
Intl.Segmenter = class extends Segmenter { constructor(...a) { super(...a); globalThis.__segmenters++; } };
const NativeRegExp = RegExp;
globalThis.RegExp = new Proxy(NativeRegExp, { construct(target, args) { if (String(args[0]).includes('RGI_Emoji')) globalThis.__emojiExpressions++; return Reflect.construct(target, args); } });`,
  );
  const out = execFileSync(
    process.execPath,
    [
      '--import',
      counter,
      '--input-type=module',
      '-e',
      `const m = await import(${JSON.stringify(file)});
const atImport = [...m.atImport];
const widths = m.measure(${JSON.stringify(TEXTS)});
console.log(JSON.stringify({ atImport, after: [globalThis.__segmenters, globalThis.__emojiExpressions], widths }));`,
    ],
    { encoding: 'utf8' },
  );
  return JSON.parse(out) as { atImport: number[]; after: number[]; widths: unknown };
}

describe('lazy Intl work in the bundle’s dependencies (lazy-intl.ts)', () => {
  it('makes no segmenter nor emoji expression when string-width, wrap-ansi and slice-ansi load; measures the same', async () => {
    const [plain, lazy] = await Promise.all([run(false), run(true)]);
    // Without the plugin each package makes its segmenter as it loads, string-width its emoji
    // expression too.
    expect(plain.atImport[0]).toBeGreaterThanOrEqual(3);
    expect(plain.atImport[1]).toBeGreaterThanOrEqual(1);
    expect(lazy.atImport).toEqual([0, 0]);
    expect(lazy.widths).toEqual(plain.widths);
    // Measured, the segmenters and the expression are made.
    expect(lazy.after[0]).toBeGreaterThan(0);
    expect(lazy.after[1]).toBeGreaterThan(0);
  }, 60_000);

  it('fails loudly when string-width is not the text it was written for; leaves other code alone', () => {
    const path = join(ROOT, 'node_modules/string-width/index.js');
    const source = readFileSync(path, 'utf8');
    expect(lazyIntlSource(source, path)).toContain('rgiEmojiRegexCompiled ??=');
    expect(() => lazyIntlSource(source.replace('RGI_Emoji}$/v;', 'RGI_Emoji}$/u;'), path)).toThrow(
      /lazy-intl: .*string-width.*is not the text this was written for/,
    );
    expect(lazyIntlSource('export const a = 1;', '/x/node_modules/a/index.js')).toBeUndefined();
    expect(lazyIntlSource('module.exports = new Intl.Segmenter();', '/x/node_modules/a/index.js')).toMatch(
      /^const \{ LazySegmenter: __AcpLazySegmenter \} = require\(.*\);\nmodule\.exports = new __AcpLazySegmenter\(\);$/,
    );
    expect(
      lazyIntlSource("export const s = new Intl.Segmenter('en');", '/x/node_modules/a/index.js'),
    ).toMatch(
      /^import \{ LazySegmenter as __AcpLazySegmenter \} from .*;\nexport const s = new __AcpLazySegmenter\('en'\);$/,
    );
  });

  it('LazySegmenter segments as Intl.Segmenter does, with its options', () => {
    const text = 'e\u0301 界 👨‍👩‍👧. Two words';
    const cases: ConstructorParameters<typeof Intl.Segmenter>[] = [
      [],
      [undefined, { granularity: 'word' }],
      ['en', { granularity: 'sentence' }],
    ];
    for (const args of cases) {
      const real = new Intl.Segmenter(...args);
      const lazy = new LazySegmenter(...args);
      expect([...lazy.segment(text)]).toEqual([...real.segment(text)]);
      expect(lazy.resolvedOptions()).toEqual(real.resolvedOptions());
    }
  });

  it('splits ASCII text into graphemes as Intl.Segmenter does, without making one', () => {
    const Real = Intl.Segmenter;
    const intl = Intl as { Segmenter: typeof Intl.Segmenter };
    let made = 0;
    intl.Segmenter = class extends Real {
      constructor(...args: ConstructorParameters<typeof Intl.Segmenter>) {
        super(...args);
        made++;
      }
    };
    try {
      const lazy = new LazySegmenter(undefined, { granularity: 'grapheme' });
      const ascii = fc
        .array(fc.constantFrom('a', ' ', '\r', '\n', '\r\n', '\x1b', '[', 'm', '\t', '\x00', '\x7f', '~'), {
          maxLength: 16,
        })
        .map((parts) => parts.join(''));
      const real = new Real();
      fc.assert(
        fc.property(ascii, fc.integer({ min: -2, max: 20 }), (text, at) => {
          expect([...lazy.segment(text)]).toEqual([...real.segment(text)]);
          expect(lazy.segment(text).containing(at)).toEqual(real.segment(text).containing(at));
        }),
        { seed: 8, numRuns: 1000 },
      );
      expect(lazy.segment('ab').containing()).toEqual(real.segment('ab').containing());
      expect(made).toBe(0);
      // Other text, or another granularity, goes to the real one.
      expect([...lazy.segment('e\u0301\r\n界')]).toEqual([...real.segment('e\u0301\r\n界')]);
      expect(made).toBe(1);
      const words = new LazySegmenter('en', { granularity: 'word' });
      expect([...words.segment('two words')]).toEqual([
        ...new Real('en', { granularity: 'word' }).segment('two words'),
      ]);
      expect(made).toBe(2);
    } finally {
      intl.Segmenter = Real;
    }
  });
});
