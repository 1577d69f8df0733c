/**
 * Lays Markdown out as styled lines at a width: headings, paragraphs, emphasis, code spans and
 * fenced code with highlighting, nested lists, quotes, tables, links (label and URL), rules. The
 * lines are what Ink would draw for the same blocks as components, and a top-level block is laid
 * out once per width and theme: a streamed message lays out only its growing last block again,
 * and printing a finished block into the scrollback costs nothing more.
 */
import type { Token, Tokens } from 'marked';
import stringWidth from 'string-width';
import { colorize, paint, type TextStyle } from '../theme/paint.js';
import type { Theme } from '../theme/theme.js';
import { expandTabs } from '../text/fold.js';
import { displayWidth } from '../text/width.js';
import { widerThan, wrapStyledRows } from '../text/wrap-styled.js';
import type { HighlightedLine, Highlighter, SyntaxRole } from './highlight.js';
import {
  asKnownToken,
  displayCode,
  displayText,
  displayUrl,
  inlinePlainText,
  linkSuffix,
} from './text-utils.js';
import type { MarkdownTone } from './tone.js';

/** How Markdown is laid out. */
export interface MarkdownLayout {
  /** Columns available. */
  readonly width: number;
  readonly theme: Theme;
  /** `muted`: italic and the thought colour (the agent's thoughts). */
  readonly tone?: MarkdownTone;
  /** Highlights fenced code with a language; plain code without it. */
  readonly highlighter?: Highlighter | undefined;
}

/** The context every block of one layout shares. */
interface Context {
  readonly theme: Theme;
  readonly muted: boolean;
  readonly highlighter: Highlighter | undefined;
}

const BULLETS = ['•', '◦', '▪'] as const;
const TABLE_SEPARATOR = ' │ ';
const MIN_COLUMN = 3;
/** Trailing blanks, before the style codes that end a line. */
const TRAILING_SPACE = /[ \t]+((?:\x1b\[[\d;]*m)*)$/; // eslint-disable-line no-control-regex

/** Laid-out blocks: theme → token → `width:tone:highlighted` → lines. */
const laidOut = new WeakMap<Theme, WeakMap<Token, Map<string, readonly string[]>>>();

/**
 * The lines of a whole text's top-level blocks, a blank line between two blocks.
 *
 * @example
 * markdownLines(lexMarkdown('# Title\n\nSome *text*'), { width: 80, theme: darkTheme });
 */
export function markdownLines(tokens: readonly Token[], layout: MarkdownLayout): string[] {
  const lines: string[] = [];
  let first = true;
  for (const token of tokens) {
    if (token.type === 'space' || token.type === 'def') continue;
    if (!first) lines.push('');
    first = false;
    for (const line of blockLines(token, layout)) lines.push(line);
  }
  return lines;
}

/**
 * The lines of one top-level block, laid out once for each width, theme and tone: a block keeps
 * its token object while it does not change (see `markdown-stream.ts`).
 */
export function blockLines(token: Token, layout: MarkdownLayout): readonly string[] {
  let byToken = laidOut.get(layout.theme);
  if (!byToken) laidOut.set(layout.theme, (byToken = new WeakMap()));
  let byKey = byToken.get(token);
  if (!byKey) byToken.set(token, (byKey = new Map()));
  const tone = layout.tone ?? 'normal';
  const key = `${layout.width}:${tone}:${layout.highlighter ? 1 : 0}`;
  const cached = byKey.get(key);
  if (cached) return cached;
  const context: Context = { theme: layout.theme, muted: tone === 'muted', highlighter: layout.highlighter };
  const lines = block(token, Math.max(1, layout.width), context, 0);
  byKey.set(key, lines);
  return lines;
}

/** Whether a block is fenced code with a language (it is drawn highlighted once the highlighter is loaded). */
export function wantsHighlighter(tokens: readonly Token[]): boolean {
  return tokens.some(
    (token) =>
      (token.type === 'code' && (token as Tokens.Code).codeBlockStyle !== 'indented' && !!token.lang) ||
      (token.type === 'list' && (token as Tokens.List).items.some((item) => wantsHighlighter(item.tokens))) ||
      (token.type === 'blockquote' && wantsHighlighter((token as Tokens.Blockquote).tokens)),
  );
}

/**
 * Column widths of a table: each column's widest cell, then the widest columns shrink until the
 * table fits `available` (cells then wrap inside their column).
 */
export function layoutColumns(natural: readonly number[], available: number): number[] {
  const widths = natural.map((w) => Math.max(MIN_COLUMN, w));
  const budget = Math.max(
    available - TABLE_SEPARATOR.length * (widths.length - 1),
    MIN_COLUMN * widths.length,
  );
  let total = widths.reduce((a, b) => a + b, 0);
  while (total > budget) {
    const widest = widths.indexOf(Math.max(...widths));
    const current = widths[widest] ?? MIN_COLUMN;
    if (current <= MIN_COLUMN) break;
    widths[widest] = current - 1;
    total--;
  }
  return widths;
}

// ------------------------------------------------------------------------------------- blocks

/** A sequence of blocks (inside a list item or a quote), a blank line between two when `spaced`. */
function blocks(tokens: readonly Token[], width: number, context: Context, depth: number, spaced: boolean) {
  const lines: string[] = [];
  let first = true;
  for (const token of tokens) {
    if (token.type === 'space' || token.type === 'def') continue;
    if (!first && spaced) lines.push('');
    first = false;
    for (const line of block(token, width, context, depth)) lines.push(line);
  }
  return lines;
}

function block(raw: Token, width: number, context: Context, depth: number): string[] {
  const { theme, muted } = context;
  const color = muted ? theme.text.thought : undefined;
  const token = asKnownToken(raw);
  if (!token) return textLines(displayText(raw.raw), width, {});
  switch (token.type) {
    case 'heading':
      return textLines(inline(token.tokens, theme), width, {
        bold: true,
        italic: muted,
        underline: token.depth === 1,
        color: color ?? (token.depth <= 2 ? theme.text.heading : undefined),
      });
    case 'paragraph':
      return textLines(inline(token.tokens, theme), width, { color, italic: muted });
    case 'text':
      return textLines(token.tokens ? inline(token.tokens, theme) : displayText(token.text), width, {
        color,
        italic: muted,
      });
    case 'code':
      return code(token.text, token.codeBlockStyle === 'indented' ? '' : (token.lang ?? ''), width, context);
    case 'list':
      return list(token, width, context, depth);
    case 'blockquote': {
      const bar = colorize('┃', theme.border);
      return blocks(token.tokens, Math.max(1, width - 2), context, depth, true).map((line) =>
        trimEnd(`${bar} ${line}`),
      );
    }
    case 'table':
      return table(token, width, theme);
    case 'hr':
      return [colorize('─'.repeat(width), theme.border)];
    case 'html':
      return textLines(displayText(token.text.replace(/\n+$/, '')), width, { color: theme.text.muted });
    case 'space':
    case 'def':
      return [];
    default:
      return textLines(displayText(token.raw), width, {});
  }
}

function roleColor(theme: Theme, role: SyntaxRole | undefined): string | undefined {
  if (role === undefined) return undefined;
  if (role === 'added') return theme.diff.added;
  if (role === 'removed') return theme.diff.removed;
  return theme.syntax[role];
}

/** Fenced code: the language as a label, then the code (highlighted when the highlighter is loaded), indented by 2. */
function code(text: string, language: string, width: number, context: Context): string[] {
  const { theme } = context;
  const lang = displayUrl(language.trim().split(/\s+/)[0] ?? '');
  const safe = displayCode(text)
    .split('\n')
    .map((line) => expandTabs(line, 4))
    .join('\n');
  const highlighted =
    context.highlighter && lang !== '' ? context.highlighter.highlight(safe, lang) : undefined;
  const lines: readonly HighlightedLine[] =
    highlighted ?? safe.split('\n').map((line) => (line === '' ? [] : [{ text: line }]));
  const inner = Math.max(1, width - 2);
  const out: string[] = [];
  const indent = (line: string): void => {
    out.push(trimEnd(`  ${line}`));
  };
  if (lang !== '') textLines(lang, inner, { color: theme.text.muted }).forEach(indent);
  for (const segments of lines) {
    const source =
      segments.length === 0
        ? ' '
        : segments
            .map((segment) => colorize(segment.text, roleColor(theme, segment.role) ?? theme.text.primary))
            .join('');
    textLines(source, inner, { color: theme.text.code }).forEach(indent);
  }
  return out;
}

/** A list: markers in a column as wide as the widest, task boxes, items' blocks beside them. */
function list(token: Tokens.List, width: number, context: Context, depth: number): string[] {
  const { theme } = context;
  const start = typeof token.start === 'number' ? token.start : 1;
  const markers = token.items.map((_, i) =>
    token.ordered ? `${start + i}.` : (BULLETS[depth % BULLETS.length] ?? '•'),
  );
  const markerWidth = Math.max(...markers.map((m) => m.length), 1) + 1;
  const out: string[] = [];
  token.items.forEach((item, i) => {
    if (token.loose && i > 0) out.push('');
    const box = item.task ? (item.checked ? '☑ ' : '☐ ') : '';
    const boxWidth = box === '' ? 0 : stringWidth(box);
    const marker =
      colorize(markers[i] ?? '', theme.text.accent) + ' '.repeat(markerWidth - (markers[i]?.length ?? 0));
    const first =
      marker + (box === '' ? '' : colorize(box, item.checked ? theme.status.success : theme.text.muted));
    const children = item.tokens.filter((t) => t.type !== 'checkbox');
    const inner = blocks(
      children,
      Math.max(1, width - markerWidth - boxWidth),
      context,
      depth + 1,
      item.loose,
    );
    if (inner.length === 0) out.push(trimEnd(first));
    const indent = ' '.repeat(markerWidth + boxWidth);
    inner.forEach((line, j) => out.push(trimEnd((j === 0 ? first : indent) + line)));
  });
  return out;
}

/** A GFM table: bold header, a rule, aligned columns separated by `│`. */
function table(token: Tokens.Table, width: number, theme: Theme): string[] {
  const rows = [token.header, ...token.rows];
  const natural = token.header.map((_, col) =>
    Math.max(...rows.map((row) => displayWidth(inlinePlainText(row[col]?.tokens)))),
  );
  const widths = layoutColumns(natural, width);
  const separator = colorize(TABLE_SEPARATOR, theme.border);
  const row = (cells: readonly Tokens.TableCell[], header: boolean): string[] => {
    const columns = widths.map((w, col) => {
      const lines = textLines(inline(cells[col]?.tokens, theme), w, { bold: header });
      const blockWidth = Math.max(0, ...lines.map((line) => stringWidth(line)));
      const align = token.align[col];
      const offset =
        align === 'right' ? w - blockWidth : align === 'center' ? Math.floor((w - blockWidth) / 2) : 0;
      return lines.map(
        (line) => ' '.repeat(offset) + line + ' '.repeat(Math.max(0, w - offset - stringWidth(line))),
      );
    });
    const height = Math.max(1, ...columns.map((lines) => lines.length));
    const out: string[] = [];
    for (let j = 0; j < height; j++) {
      out.push(
        trimEnd(
          columns
            .map((lines, col) => (col > 0 ? separator : '') + (lines[j] ?? ' '.repeat(widths[col] ?? 0)))
            .join(''),
        ),
      );
    }
    return out;
  };
  return [
    ...row(token.header, true),
    colorize(widths.map((w) => '─'.repeat(w)).join('─┼─'), theme.border),
    ...token.rows.flatMap((cells) => row(cells, false)),
  ];
}

// ------------------------------------------------------------------------------------- inline

/** Inline tokens (emphasis, strong, code spans, links…) as styled text. No OSC 8 hyperlink is ever emitted. */
function inline(tokens: readonly Token[] | undefined, theme: Theme): string {
  if (!tokens) return '';
  let out = '';
  for (const raw of tokens) out += inlineOne(raw, theme);
  return out;
}

function inlineOne(raw: Token, theme: Theme): string {
  const token = asKnownToken(raw);
  if (!token) return displayText(raw.raw);
  switch (token.type) {
    case 'strong':
      return paint(inline(token.tokens, theme), { bold: true });
    case 'em':
      return paint(inline(token.tokens, theme), { italic: true });
    case 'del':
      return paint(inline(token.tokens, theme), { strikethrough: true });
    case 'codespan':
      return colorize(displayCode(token.text), theme.text.code);
    case 'br':
      return '\n';
    case 'link': {
      const label = inlinePlainText(token.tokens);
      return (
        paint(inline(token.tokens, theme), { color: theme.text.link, underline: true }) +
        colorize(linkSuffix(label, token.href), theme.text.muted)
      );
    }
    case 'image':
      return colorize(`[image: ${displayText(token.text)}]${linkSuffix('', token.href)}`, theme.text.muted);
    case 'text':
      return token.tokens ? inline(token.tokens, theme) : displayText(token.text);
    case 'escape':
    case 'html':
      return displayText(token.text);
    case 'checkbox':
      return '';
    default:
      return displayText(token.raw);
  }
}

// ------------------------------------------------------------------------------------- text

/**
 * Text as Ink's `<Text>` draws it in a box `width` columns wide: wrapped (wrap-ansi, hard, as
 * Ink) only when a line is too wide, then styled line by line, trailing spaces dropped.
 */
function textLines(text: string, width: number, style: TextStyle): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  const rows = lines.some((line) => widerThan(line, width)) ? wrapStyledRows(text, width) : lines;
  return rows.map((line) => trimEnd(paint(line, style)));
}

/** Drops trailing spaces (before trailing style codes too), as Ink does with each row it draws. */
function trimEnd(line: string): string {
  return line.replace(TRAILING_SPACE, '$1');
}
