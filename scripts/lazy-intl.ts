/**
 * Work the bundle's dependencies did at their module's top level, done on first use instead. In
 * a profile of a reopened session (docs/performance.md, "The ninth round") the UI chunk's top level
 * spent 30-38 ms in two lines of string-width: `new Intl.Segmenter()` (the first segmenter of a
 * process loads ICU's break data) and `/^\p{RGI_Emoji}$/v`, which esbuild writes as
 * `new RegExp(..., "v")` and V8 then builds the whole set of emoji sequences for at once. Neither
 * is needed to draw plain text (string-width-fast.ts measures it without string-width).
 *
 * - Every `new Intl.Segmenter(` in a dependency becomes a {@link LazySegmenter}, which has the
 *   same methods and makes the real one when first asked to segment.
 * - string-width's emoji expression is compiled on its first test.
 *
 * The build fails when string-width's text is not the one this was written for.
 */
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'esbuild';

/** The module whose `LazySegmenter` stands in for the dependencies' segmenters. */
export const LAZY_SEGMENTER = fileURLToPath(new URL('./lazy-segmenter.ts', import.meta.url));

const SEGMENTER = 'new Intl.Segmenter(';
const RGI_EMOJI = 'const rgiEmojiRegex = /^\\p{RGI_Emoji}$/v;';
const RGI_EMOJI_LAZY = `let rgiEmojiRegexCompiled;
/** Compiled on its first test (acp bundle: lazy-intl.ts). */
const rgiEmojiRegex = {test: text => (rgiEmojiRegexCompiled ??= /^\\p{RGI_Emoji}$/v).test(text)};`;

/**
 * The source of the dependency at `path` with its top-level Intl work made lazy, or undefined when
 * it has none. Throws when `path` is string-width's and its emoji expression is not the line
 * this was written for.
 *
 * @example
 * lazyIntlSource('const s = new Intl.Segmenter();', '/x/node_modules/a/index.js');
 * // 'import { LazySegmenter as __AcpLazySegmenter } from "…/lazy-segmenter.ts";\nconst s = new __AcpLazySegmenter();'
 */
export function lazyIntlSource(source: string, path: string): string | undefined {
  let patched = source;
  if (/[\\/]node_modules[\\/]string-width[\\/]index\.js$/.test(path)) {
    const at = patched.indexOf(RGI_EMOJI);
    if (at < 0 || patched.indexOf(RGI_EMOJI, at + 1) >= 0)
      throw new Error(
        `lazy-intl: ${path} is not the text this was written for (string-width 8); ` +
          `${at < 0 ? 'missing' : 'found twice'}: ${RGI_EMOJI}. Update scripts/lazy-intl.ts for it.`,
      );
    patched = patched.slice(0, at) + RGI_EMOJI_LAZY + patched.slice(at + RGI_EMOJI.length);
  }
  if (patched.includes(SEGMENTER)) {
    const from = JSON.stringify(LAZY_SEGMENTER);
    // An ES module imports it; a CommonJS one (no import or export of its own) requires it.
    const bring = /^\s*(?:import|export)[\s{*]/m.test(patched)
      ? `import { LazySegmenter as __AcpLazySegmenter } from ${from};`
      : `const { LazySegmenter: __AcpLazySegmenter } = require(${from});`;
    patched = `${bring}\n${patched.replaceAll(SEGMENTER, 'new __AcpLazySegmenter(')}`;
  }
  return patched === source ? undefined : patched;
}

/**
 * The esbuild plugin: every JavaScript file of a dependency (ES module or CommonJS) that has such
 * work goes through {@link lazyIntlSource}.
 */
export const lazyIntl: Plugin = {
  name: 'lazy-intl',
  setup(builder) {
    builder.onLoad({ filter: /[\\/]node_modules[\\/].*\.m?js$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      if (!source.includes(SEGMENTER) && !source.includes('RGI_Emoji')) return undefined;
      const contents = lazyIntlSource(source, args.path);
      return contents === undefined ? undefined : { contents, loader: 'js', resolveDir: dirname(args.path) };
    });
  },
};
