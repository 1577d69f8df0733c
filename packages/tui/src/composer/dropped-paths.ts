/**
 * Pasted or dropped text that names image files. Terminals paste a dropped file as its path:
 * quoted (`'/a/My shot.png'`), backslash-escaped (`/a/My\ shot.png`), as a `file://` URL, or as
 * is; several files are separated by spaces or new lines.
 */
import { homedir } from 'node:os';
import { extname, isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** File name extensions of the images an agent can be sent (the data is checked when read). */
export const IMAGE_EXTENSIONS: ReadonlySet<string> = new Set(['.png', '.jpg', '.jpeg', '.gif', '.webp']);

/** Longer pastes are text, not a list of dropped files. */
const MAX_PASTE_CHARS = 16 * 1024;

/** Splits text into words as a shell would: quotes and backslashes; undefined for an open quote. */
function shellWords(text: string): string[] | undefined {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (quote !== undefined) {
      if (ch === quote) quote = undefined;
      else if (ch === '\\' && quote === '"' && /["\\$`]/.test(text[i + 1] ?? '')) word += text[++i];
      else word += ch;
      continue;
    }
    if (ch === "'" || ch === '"') {
      quote = ch;
      inWord = true;
    } else if (ch === '\\' && i + 1 < text.length) {
      word += text[++i];
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += ch;
      inWord = true;
    }
  }
  if (quote !== undefined) return undefined;
  if (inWord) words.push(word);
  return words;
}

/** The absolute path a word names, when it names an image file (by its extension). */
function imagePath(word: string, home: string): string | undefined {
  let path: string | undefined;
  if (/^file:\/\//i.test(word)) {
    try {
      path = fileURLToPath(word);
    } catch {
      return undefined; // a remote host, or not a valid URL
    }
  } else if (word.startsWith('~/')) path = join(home, word.slice(2));
  else if (isAbsolute(word)) path = word;
  if (path === undefined || path.includes('\0')) return undefined;
  return IMAGE_EXTENSIONS.has(extname(path).toLowerCase()) ? path : undefined;
}

/**
 * The image files named by pasted text, when the text is nothing but one or more absolute paths
 * (or `~/…` paths, or `file://` URLs) of files with an image extension; undefined otherwise.
 * Whether the files exist and hold images is checked when they are read.
 *
 * @example
 * parseDroppedPaths("'/home/me/My shot.png' /tmp/b.jpg"); // ['/home/me/My shot.png', '/tmp/b.jpg']
 * parseDroppedPaths('look at /tmp/b.jpg'); // undefined
 */
export function parseDroppedPaths(text: string, home: string = homedir()): string[] | undefined {
  const trimmed = text.trim();
  if (trimmed === '' || trimmed.length > MAX_PASTE_CHARS) return undefined;
  const paths = shellWords(trimmed)?.map((word) => imagePath(word, home));
  if (paths && paths.length > 0 && paths.every((path) => path !== undefined)) return [...new Set(paths)];
  // One path with spaces, pasted as it is (no quotes, no escapes).
  if (trimmed.includes('\n')) return undefined;
  const whole = imagePath(trimmed, home);
  return whole === undefined ? undefined : [whole];
}
