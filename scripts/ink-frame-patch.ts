/**
 * Ink 6.8 turns the whole frame into text on every render, whatever changed: it measures every
 * text node again (ink/build/render-node-to-output.js) and, in `Output` (ink/build/output.js),
 * tokenises every line written into it (grapheme segmentation, ~1 µs a character) and rebuilds a
 * grid of every cell, in a new `Output` with caches that last one frame. The acp bundle patches
 * both (scripts/bundle.ts): the caches are shared across frames (bounded), a text's width is
 * measured once, and a row whose writes are the same as in an earlier frame reuses that row's
 * text instead of building its cells again. The output is the same (scripts/bundle.test.ts
 * compares the two on random frames); tests that run from source use Ink unpatched.
 */

/** Entries a shared cache holds before it is emptied (lines, widths, rows). */
export const INK_CACHE_ENTRIES = 4096;

/** Which of Ink's modules a patch is for. */
export type InkModule = 'output.js' | 'render-node-to-output.js';

/** One replacement, which must match the text exactly once. */
interface Replacement {
  readonly find: string;
  readonly replace: string;
}

const SHARED_CACHES = `
const SHARED_CACHE_ENTRIES = ${INK_CACHE_ENTRIES};
/** Caches shared by every Output (acp bundle): a line is tokenised once, not on every frame. */
const remember = (map, key, value) => {
    if (map.size >= SHARED_CACHE_ENTRIES) map.clear();
    map.set(key, value);
    return value;
};
/** The text of a row, by the writes that made it (acp bundle). */
const sharedRows = new Map();
class OutputCaches {`;

const OUTPUT: readonly Replacement[] = [
  { find: '\nclass OutputCaches {', replace: SHARED_CACHES },
  {
    find: `            cached = styledCharsFromTokens(tokenize(line));
            this.styledChars.set(line, cached);`,
    replace: `            cached = remember(this.styledChars, line, styledCharsFromTokens(tokenize(line)));`,
  },
  {
    find: `            cached = stringWidth(text);
            this.widths.set(text, cached);`,
    replace: `            cached = remember(this.widths, text, stringWidth(text));`,
  },
  {
    find: `            cached = lineWidth;
            this.blockWidths.set(text, cached);`,
    replace: `            cached = remember(this.blockWidths, text, lineWidth);`,
  },
  {
    find: `    caches = new OutputCaches();`,
    replace: `    caches = sharedOutputCaches;`,
  },
  {
    find: `export default class Output {`,
    replace: `const sharedOutputCaches = new OutputCaches();
export default class Output {`,
  },
  // The frame: the writes of each row are collected (clipped and transformed as before), and a
  // row is built from its cells only when no earlier frame had the same writes in it.
  {
    find: `        // Initialize output array with a specific set of rows, so that margin/padding at the bottom is preserved
        const output = [];
        for (let y = 0; y < this.height; y++) {
            const row = [];
            for (let x = 0; x < this.width; x++) {
                row.push({
                    type: 'char',
                    value: ' ',
                    fullWidth: false,
                    styles: [],
                });
            }
            output.push(row);
        }
        const clips = [];`,
    replace: `        const rowWrites = [];
        const clips = [];`,
  },
  {
    find: `                let offsetY = 0;
                for (let [index, line] of lines.entries()) {
                    const currentLine = output[y + offsetY];
                    // Line can be missing if \`text\` is taller than height of pre-initialized \`this.output\`
                    if (!currentLine) {
                        continue;
                    }
                    for (const transformer of transformers) {
                        line = transformer(line, index);
                    }
                    const characters = this.caches.getStyledChars(line);
                    let offsetX = x;
                    for (const character of characters) {
                        currentLine[offsetX] = character;`,
    replace: `                let offsetY = 0;
                for (let [index, line] of lines.entries()) {
                    const row = y + offsetY;
                    // Line can be missing if \`text\` is taller than the output
                    if (!(row >= 0 && row < this.height)) {
                        continue;
                    }
                    for (const transformer of transformers) {
                        line = transformer(line, index);
                    }
                    (rowWrites[row] ??= []).push(x, line);
                    offsetY++;
                }
            }
        }
        const rows = [];
        for (let y = 0; y < this.height; y++) {
            const writes = rowWrites[y];
            if (writes === undefined) {
                rows.push('');
                continue;
            }
            let key = String(this.width);
            for (let i = 0; i < writes.length; i += 2) {
                key += '\\u0000' + writes[i] + ':' + writes[i + 1].length + ':' + writes[i + 1];
            }
            const known = sharedRows.get(key);
            if (known !== undefined) {
                rows.push(known);
                continue;
            }
            const currentLine = [];
            for (let x = 0; x < this.width; x++) {
                currentLine.push({
                    type: 'char',
                    value: ' ',
                    fullWidth: false,
                    styles: [],
                });
            }
            for (let i = 0; i < writes.length; i += 2) {
                {
                    const x = writes[i];
                    const characters = this.caches.getStyledChars(writes[i + 1]);
                    let offsetX = x;
                    for (const character of characters) {
                        currentLine[offsetX] = character;`,
  },
  {
    find: `                        offsetX += characterWidth;
                    }
                    offsetY++;
                }
            }
        }
        const generatedOutput = output
            .map(line => {
            // See https://github.com/vadimdemedes/ink/pull/564#issuecomment-1637022742
            const lineWithoutEmptyItems = line.filter(item => item !== undefined);
            return styledCharsToString(lineWithoutEmptyItems).trimEnd();
        })
            .join('\\n');
        return {
            output: generatedOutput,
            height: output.length,
        };`,
    replace: `                        offsetX += characterWidth;
                    }
                }
            }
            // See https://github.com/vadimdemedes/ink/pull/564#issuecomment-1637022742
            const lineWithoutEmptyItems = currentLine.filter(item => item !== undefined);
            rows.push(remember(sharedRows, key, styledCharsToString(lineWithoutEmptyItems).trimEnd()));
        }
        return {
            output: rows.join('\\n'),
            height: this.height,
        };`,
  },
];

/** Text nodes are measured once per text, not on every frame. */
const RENDER_NODE_TO_OUTPUT: readonly Replacement[] = [
  {
    find: `import widestLine from 'widest-line';`,
    replace: `import widestLine from 'widest-line';
/** Widths of texts drawn, shared by every frame (acp bundle). */
const textWidths = new Map();
const measuredWidestLine = (text) => {
    let width = textWidths.get(text);
    if (width === undefined) {
        if (textWidths.size >= ${INK_CACHE_ENTRIES}) textWidths.clear();
        width = widestLine(text);
        textWidths.set(text, width);
    }
    return width;
};`,
  },
  {
    find: `                const currentWidth = widestLine(text);`,
    replace: `                const currentWidth = measuredWidestLine(text);`,
  },
];

const PATCHES: Readonly<Record<InkModule, readonly Replacement[]>> = {
  'output.js': OUTPUT,
  'render-node-to-output.js': RENDER_NODE_TO_OUTPUT,
};

/**
 * Patches the source of one of Ink's modules (ink/build/`module`); throws, naming what it looked
 * for, when Ink's text is not the one the patch was written for (a new Ink: check the patch and
 * update it).
 *
 * @example
 * const patched = patchInk('output.js', readFileSync(require.resolve('ink/build/output.js'), 'utf8'));
 */
export function patchInk(module: InkModule, source: string): string {
  let patched = source;
  for (const { find, replace } of PATCHES[module]) {
    const at = patched.indexOf(find);
    if (at < 0 || patched.indexOf(find, at + 1) >= 0) {
      throw new Error(
        `ink-frame-cache: ink/build/${module} is not the text this patch was written for (Ink ~6.8); ` +
          `${at < 0 ? 'missing' : 'found twice'}: ${JSON.stringify(find.trim().split('\n')[0])}. ` +
          'Update scripts/ink-frame-patch.ts for this Ink, or drop the patch.',
      );
    }
    patched = patched.slice(0, at) + replace + patched.slice(at + find.length);
  }
  return patched;
}
