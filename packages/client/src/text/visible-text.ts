/**
 * Identifiers made visible: paths, file names, commands, environment variables. In prose a
 * zero-width space is harmless; in a path it makes `src/main.ts` and `src/main.ts\u200b` look the
 * same, and a newline in a file name fakes a second line of a permission question. Such text keeps
 * every character but shows the ones a reader cannot see as escapes (`\n`, `\x1b`, `\u{200b}`):
 * nothing is removed (removing would hide that they were there) and nothing stays invisible.
 */

/**
 * What a reader cannot see or tell apart: controls (C0, DEL, C1), format characters (zero-width
 * space and joiners, bidi marks and overrides, soft hyphen, BOM, tag characters), line and
 * paragraph separators, spaces other than U+0020, lone surrogates, and the blank fillers and
 * selectors outside those classes.
 */
// Combining marks that draw nothing (grapheme joiner, variation selectors, musical format marks)
// are alternatives of their own: in the class, each would sit next to another character.
const INVISIBLE =
  /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000\u115f\u1160\u3164\uffa0]|\u034f|[\ufe00-\ufe0f]|[\u{e0100}-\u{e01ef}]|[\u{1d173}-\u{1d17a}]/gu;

const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escape(char: string): string {
  const named = NAMED[char];
  if (named) return named;
  const code = char.codePointAt(0) as number;
  return code < 0xa0 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u{${code.toString(16)}}`;
}

/**
 * `text` with every invisible character written as an escape (see the module comment); one line.
 * With `keepNewlines`, `\n` stays a line break (a multi-line script shown whole).
 *
 * @example
 * visibleText('a\u200bb\nc'); // 'a\\u{200b}b\\nc'
 */
export function visibleText(text: string, options: { keepNewlines?: boolean } = {}): string {
  INVISIBLE.lastIndex = 0;
  if (!INVISIBLE.test(text)) return text;
  INVISIBLE.lastIndex = 0;
  return text.replace(INVISIBLE, (char) => (options.keepNewlines && char === '\n' ? char : escape(char)));
}

/**
 * A path for display: relative to `cwd` when inside it, with `:line` when given, its invisible
 * characters escaped.
 *
 * @example
 * visiblePath('/work/src/a.ts', '/work', 12); // 'src/a.ts:12'
 */
export function visiblePath(path: string, cwd?: string, line?: number | null): string {
  let shown = path;
  if (cwd) {
    const root = cwd.endsWith('/') ? cwd : `${cwd}/`;
    if (path.startsWith(root) && path.length > root.length) shown = path.slice(root.length);
  }
  const visible = visibleText(shown);
  return line != null ? `${visible}:${line}` : visible;
}
