/**
 * I: what must never reach a terminal from agent-controlled text. An oracle of its own (not the
 * product's sanitizer): ESC (except SGR colours where allowed), C0 controls other than `\n` and
 * `\t`, DEL, C1 controls, and the bidi overrides and isolates (U+202A–U+202E, U+2066–U+2069).
 */

/** One unsafe character found. */
export interface Unsafe {
  index: number;
  code: string;
}

const SGR = /^\x1b\[[\d;:]*m/; // eslint-disable-line no-control-regex

/** Finds unsafe characters in `text`; `allowSgr` lets `ESC [ … m` colour sequences through. */
export function findUnsafe(text: string, options: { allowSgr?: boolean } = {}): Unsafe[] {
  const found: Unsafe[] = [];
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const bad =
      (code < 0x20 && code !== 0x0a && code !== 0x09) ||
      code === 0x7f ||
      (code >= 0x80 && code <= 0x9f) ||
      (code >= 0x202a && code <= 0x202e) ||
      (code >= 0x2066 && code <= 0x2069);
    if (!bad) continue;
    if (code === 0x1b && options.allowSgr) {
      const sgr = SGR.exec(text.slice(i, i + 64));
      if (sgr) {
        i += sgr[0].length - 1;
        continue;
      }
    }
    found.push({ index: i, code: `U+${code.toString(16).padStart(4, '0')}` });
  }
  return found;
}

/** The payloads of RELIABILITY I1. */
export const PAYLOADS: readonly string[] = [
  '\x1b[2J',
  '\x1b[1A\x1b[2K',
  '\x1b[24D\x1b[K',
  '\x1b]0;PWNED-TITLE\x07',
  '\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\',
  '\x1b]52;c;cHduZWQ=\x07',
  '\x1bPq#0;2;0;0;0\x1b\\',
  '\x9b31mred',
  'bell\x07',
  'back\bspace',
  'bare\rreturn',
  'evil\u202etxt.exe',
  '\u2066isolated\u2069 \u2067rtl\u2068',
  'zero\u200bwidth\u200d',
];

/** A payload wrapped in markers that name its sink and number, to find where it landed. */
export function marked(sink: string, index: number): string {
  return `<<${sink}-${index}:${PAYLOADS[index]}:${sink}-${index}>>`;
}

/** The marked regions of `text` that contain something unsafe: `sink-index` names. */
export function unsafeRegions(text: string, options: { allowSgr?: boolean } = {}): string[] {
  const bad = new Set<string>();
  for (const match of text.matchAll(/<<([\w-]+?-\d+):([\s\S]*?):\1>>/g)) {
    if (findUnsafe(match[2] ?? '', options).length > 0) bad.add(match[1] ?? '?');
  }
  return [...bad];
}
