/** Text helpers shared by tools and engines. */

/** Shortens `text` to at most `max` characters, marking the cut with an ellipsis. */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…`;
}

/** First line of `text`, without surrounding whitespace. */
export function firstLine(text: string): string {
  return (text.trim().split(/\r?\n/, 1)[0] ?? '').trim();
}

/**
 * Keeps the last `maxBytes` bytes of UTF-8 text (commands' output is truncated from the beginning,
 * as ACP terminals do), cutting at a character boundary.
 */
export function keepTail(text: string, maxBytes: number): { text: string; truncated: boolean } {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes <= maxBytes) return { text, truncated: false };
  const buffer = Buffer.from(text, 'utf8');
  let start = buffer.length - maxBytes;
  // Skip UTF-8 continuation bytes so we never start inside a character.
  while (start < buffer.length && ((buffer[start] ?? 0) & 0xc0) === 0x80) start++;
  return { text: buffer.subarray(start).toString('utf8'), truncated: true };
}

/** A fenced Markdown code block whose fence cannot be closed by the content. */
export function codeBlock(text: string, language = ''): string {
  let fence = '```';
  while (text.includes(fence)) fence += '`';
  return `${fence}${language}\n${text}${text.endsWith('\n') ? '' : '\n'}${fence}`;
}

/** `1 file`, `2 files`. */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}

/** Lines in a text: a final newline ends the last line, it does not start another (`'a\nb\n'` is 2). */
export function countLines(text: string): number {
  if (text === '') return 0;
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}
