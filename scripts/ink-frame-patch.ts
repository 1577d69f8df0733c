/**
 * Ink 6.8 turns the whole frame into text on every render, whatever changed: it measures every
 * text node again (ink/build/render-node-to-output.js) and, in `Output` (ink/build/output.js),
 * tokenises every line written into it (grapheme segmentation, ~1 µs a character) and rebuilds a
 * grid of every cell, in a new `Output` with caches that last one frame. The acp bundle patches
 * both (scripts/bundle.ts): the caches are shared across frames (bounded), a text's width is
 * measured once, a row whose writes are the same as in an earlier frame reuses that row's text
 * instead of building its cells again, and a new row is built from two arrays (the text of each
 * cell, and the styles each run of a line shares) instead of an object per cell and three Sets
 * per character, which were most of the garbage a frame made. The output is the same
 * (scripts/bundle.test.ts compares the two on random frames); tests that run from source use Ink
 * unpatched. In ink/build/ink.js, the throttle of frames and writes is ink-lazy-throttle.ts: the same
 * calls at the same times, without a timer after every frame. In ink/build/sanitize-ansi.js, a
 * text whose only control sequences are SGR ones is returned without being tokenised.
 */
import { fileURLToPath } from 'node:url';

/** The module whose `isLoneCluster` the patched Output uses (the bundle's string-width). */
const STRING_WIDTH_FAST = fileURLToPath(new URL('./string-width-fast.ts', import.meta.url));
/** The module whose `lazyThrottle` the patched Ink throttles its frames and writes with. */
const LAZY_THROTTLE = fileURLToPath(new URL('./ink-lazy-throttle.ts', import.meta.url));

/** Entries a shared cache holds before it is emptied (lines, widths, rows). */
export const INK_CACHE_ENTRIES = 4096;
/**
 * Lines whose cells are kept: three arrays of a line's characters each (~3 KiB for a full line),
 * so 4,096 of them held ~11 MiB once a long answer had streamed through the live region, whose
 * frames need the cells of their own few tens of rows again, not of thousands.
 */
export const INK_CELL_CACHE_ENTRIES = 1024;

/** Which of Ink's modules a patch is for. */
export type InkModule =
  'output.js' | 'render-node-to-output.js' | 'ink.js' | 'measure-text.js' | 'sanitize-ansi.js';

/** One replacement, which must match the text exactly once. */
interface Replacement {
  readonly find: string;
  readonly replace: string;
}

const SHARED_CACHES = `
const SHARED_CACHE_ENTRIES = ${INK_CACHE_ENTRIES};
/** The styles of a cell nothing was written to (acp bundle). */
const NO_STYLES = [];
/** Caches shared by every Output (acp bundle): a line is tokenised once, not on every frame. */
const remember = (map, key, value, entries = SHARED_CACHE_ENTRIES) => {
    if (map.size >= entries) map.clear();
    map.set(key, value);
    return value;
};
/** The text of a row, by the writes that made it (acp bundle). */
const sharedRows = new Map();
/** Each line's characters: their text, widths, and styles (one array per run), by line (acp bundle). */
const sharedCells = new Map();
/** The codes of each SGR sequence seen, as tokenize gives them (acp bundle). */
const sgrTokens = new Map();
class OutputCaches {
    /** What tokenize gives for a line of lone clusters and SGR sequences, else undefined. */
    getSimpleCells(line) {
        const values = [];
        const widths = [];
        const styles = [];
        let codes = [];
        for (let i = 0; i < line.length; i++) {
            const c = line.charCodeAt(i);
            if (c === 0x1b) {
                if (line.charCodeAt(i + 1) !== 0x5b) {
                    return undefined;
                }
                let end = i + 2;
                while (end < line.length && (line.charCodeAt(end) === 0x3b || (line.charCodeAt(end) >= 0x30 && line.charCodeAt(end) <= 0x39))) {
                    end++;
                }
                if (line.charCodeAt(end) !== 0x6d) {
                    return undefined;
                }
                const sequence = line.slice(i, end + 1);
                let tokens = sgrTokens.get(sequence);
                if (tokens === undefined) {
                    tokens = remember(sgrTokens, sequence, tokenize(sequence));
                }
                codes = reduceAnsiCodesIncremental(codes, tokens);
                i = end;
                continue;
            }
            if (!isLoneCluster(c)) {
                return undefined;
            }
            const value = line[i];
            values.push(value);
            // Printable ASCII is one cell (most of a line): no width lookup per character.
            widths.push(c <= 0x7e ? 1 : Math.max(1, this.getStringWidth(value)));
            styles.push(codes);
        }
        return { values, widths, styles };
    }
    getCells(line) {
        let cached = sharedCells.get(line);
        if (cached === undefined) {
            cached = this.getSimpleCells(line);
            if (cached === undefined) {
                const values = [];
                const widths = [];
                const styles = [];
                let codes = [];
                for (const token of tokenize(line)) {
                    if (token.type === 'ansi') {
                        codes = reduceAnsiCodesIncremental(codes, [token]);
                    }
                    else if (token.type === 'char') {
                        values.push(token.value);
                        widths.push(Math.max(1, this.getStringWidth(token.value)));
                        styles.push(codes);
                    }
                }
                cached = { values, widths, styles };
            }
            remember(sharedCells, line, cached, ${INK_CELL_CACHE_ENTRIES});
        }
        return cached;
    }`;

const OUTPUT: readonly Replacement[] = [
  {
    find: `import { styledCharsFromTokens, styledCharsToString, tokenize, } from '@alcalzone/ansi-tokenize';`,
    // isLoneCluster: a line of only such code points and SGR sequences is split into characters
    // without the grapheme segmenter.
    replace: `import { ansiCodesToString, diffAnsiCodes, reduceAnsiCodesIncremental, styledCharsFromTokens, tokenize, } from '@alcalzone/ansi-tokenize';
import { isLoneCluster } from ${JSON.stringify(STRING_WIDTH_FAST)};`,
  },
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
                        currentLine[offsetX] = character;
                        // Determine printed width using string-width to align with measurement
                        const characterWidth = Math.max(1, this.caches.getStringWidth(character.value));
                        // For multi-column characters, clear following cells to avoid stray spaces/artifacts
                        if (characterWidth > 1) {
                            for (let index = 1; index < characterWidth; index++) {
                                currentLine[offsetX + index] = {
                                    type: 'char',
                                    value: '',
                                    fullWidth: false,
                                    styles: character.styles,
                                };
                            }
                        }
                        offsetX += characterWidth;
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
            // The row's cells as two arrays (their text, and the styles each run of a line shares)
            // instead of an object per cell: what Ink draws, without an object and three Sets per
            // character (most of the garbage of a frame).
            const values = new Array(this.width).fill(' ');
            const styles = new Array(this.width).fill(NO_STYLES);
            for (let i = 0; i < writes.length; i += 2) {
                const cells = this.caches.getCells(writes[i + 1]);
                let offsetX = writes[i];
                for (let c = 0; c < cells.values.length; c++) {
                    values[offsetX] = cells.values[c];
                    styles[offsetX] = cells.styles[c];
                    const characterWidth = cells.widths[c];
                    // A wide character's next cells are drawn empty, in its styles
                    for (let index = 1; index < characterWidth; index++) {
                        values[offsetX + index] = '';
                        styles[offsetX + index] = cells.styles[c];
                    }
                    offsetX += characterWidth;
                }
            }
            // As styledCharsToString: the codes from each character's styles to the next one's
            // (none within a run, which shares one array), and the styles ended after the last.
            // See https://github.com/vadimdemedes/ink/pull/564#issuecomment-1637022742 for the gaps.
            let text = '';
            let previous;
            for (let x = 0; x < values.length; x++) {
                const value = values[x];
                if (value === undefined) {
                    continue;
                }
                const style = styles[x];
                if (previous === undefined) {
                    text += ansiCodesToString(style);
                }
                else if (style !== previous) {
                    text += ansiCodesToString(diffAnsiCodes(previous, style));
                }
                text += value;
                previous = style;
            }
            if (previous !== undefined) {
                text += ansiCodesToString(diffAnsiCodes(previous, NO_STYLES));
            }
            rows.push(remember(sharedRows, key, text.trimEnd()));
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

const INK: readonly Replacement[] = [
  {
    find: `import { throttle } from 'es-toolkit/compat';`,
    replace: `import { lazyThrottle as throttle } from ${JSON.stringify(LAZY_THROTTLE)};`,
  },
];

/**
 * Ink keeps the size of every text it ever laid out (its `measureText` cache has no bound): every
 * line of every live frame and of everything printed, for as long as the UI runs (~5 MiB once a
 * 10 MB answer is drawn, and growing with the session). Bounded like the caches above.
 */
const MEASURE_TEXT: readonly Replacement[] = [
  {
    find: `    cache.set(text, dimensions);`,
    replace: `    if (cache.size >= ${INK_CACHE_ENTRIES}) cache.clear();
    cache.set(text, dimensions);`,
  },
];

/**
 * Ink strips control sequences other than SGR from every text node of every frame by tokenising
 * it (~13 ms of a 20-second paced stream's main thread in a profile, when each line was a text). A text whose
 * only control sequences are SGR ones with plain parameters, and which has no C1 control, is
 * what the tokenising would give back: it is returned at once.
 */
const SANITIZE_ANSI: readonly Replacement[] = [
  {
    find: `const sanitizeAnsi = (text) => {
    if (!hasAnsiControlCharacters(text)) {`,
    replace: `/** What sanitizing may change: a C1 control, or an escape that does not start an SGR sequence (acp bundle). */
const notOnlySgr = /[\\u0080-\\u009f]|\\u001b(?!\\[[\\d:;]*m)/;
const sanitizeAnsi = (text) => {
    if (!notOnlySgr.test(text)) {`,
  },
];

const PATCHES: Readonly<Record<InkModule, readonly Replacement[]>> = {
  'output.js': OUTPUT,
  'render-node-to-output.js': RENDER_NODE_TO_OUTPUT,
  'ink.js': INK,
  'measure-text.js': MEASURE_TEXT,
  'sanitize-ansi.js': SANITIZE_ANSI,
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
