/**
 * Text output helpers: tables, and agent-provided text made safe for a terminal.
 */
import { sanitizeText } from '@acp-kit/client';

/**
 * Agent text without escape sequences, control characters or bidi controls (keeps newlines and
 * tabs; `\r\n` and a lone `\r` become `\n`): the one sanitizer of `@acp-kit/client`.
 */
export function safe(text: string): string {
  return sanitizeText(text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text);
}

/** One line of agent text: sanitised, newlines folded, shortened. */
export function oneLine(text: string, max = 160): string {
  const line = safe(text).replace(/\s+/g, ' ').trim();
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}

/**
 * A plain table: columns padded to their widest cell, the last column unpadded.
 *
 * @example
 * table([['ID', 'NAME'], ['a', 'b']]); // 'ID  NAME\na   b\n'
 */
export function table(rows: readonly (readonly string[])[]): string {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, [...cell].length)));
  return rows
    .map((row) =>
      row
        .map((cell, i) =>
          i === row.length - 1 ? cell : cell + ' '.repeat((widths[i] ?? 0) - [...cell].length),
        )
        .join('  ')
        .trimEnd(),
    )
    .join('\n')
    .concat(rows.length > 0 ? '\n' : '');
}

/** A date as `YYYY-MM-DD HH:MM` in local time. */
export function shortDate(iso: string | undefined): string {
  if (!iso) return '-';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '-';
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
