/**
 * A settled tool call's card as styled lines: what `ToolCallCard` draws through Ink for a call
 * whose content is text and attachments (card-lines.test.tsx renders both ways), for printing a
 * session's history into the scrollback without Ink. Cards with a diff, a terminal, raw command
 * output or a spinner are left to the component (undefined).
 */
import { isUnknownVariant } from '@acp-kit/protocol';
import { sanitizeInline } from '../../sanitize/sanitize-text.js';
import { colorize, paint } from '../../theme/paint.js';
import { foldLines, plural, splitLines } from '../../text/fold.js';
import { displayPath } from '../../text/paths.js';
import { displayWidth, estimateRows } from '../../text/width.js';
import { commandParts } from '../../view-model/command-output.js';
import {
  cardLocations,
  cardTitle,
  FOLDED_CARD_TEXT_ROWS,
  type ToolCallView,
} from '../../view-model/tool-call.js';
import { STATUS_ICONS, statusLabel, toolKindIcon } from '../tool-icons.js';
import { contentBlockLines } from './message-lines.js';
import { keyLabel } from '../../keys/key-bindings.js';
import { beside, inlineCode, wrapStyled, type LineLayout } from './styled-text.js';

/** The first `rows` rows when the text would take more (what `ClipRows` shows). */
function clipRows(rows: string[], limit: number | undefined, text: string, width: number): string[] {
  return limit === undefined || estimateRows(text, width) <= limit ? rows : rows.slice(0, limit);
}

/** One item of a card's content (`ToolCallContentView`), or undefined for diffs and terminals. */
function contentItemLines(
  item: ToolCallView['content'][number],
  maxLines: number | undefined,
  hint: string,
  layout: LineLayout,
): string[] | undefined {
  const { theme, width } = layout;
  if (isUnknownVariant(item))
    return wrapStyled(
      colorize(`unsupported tool content (${sanitizeInline(String(item.type))})`, theme.text.muted),
      width,
    );
  if (item.type !== 'content') return undefined;
  const block = item.content;
  if (isUnknownVariant(block) || block.type !== 'text') return contentBlockLines(block, layout);
  const { shown, hidden } = foldLines(splitLines(block.text), maxLines, 'head');
  const lines = contentBlockLines(hidden > 0 ? { ...block, text: shown.join('\n') } : block, layout);
  if (lines && hidden > 0)
    lines.push(...wrapStyled(colorize(`… ${plural(hidden, 'more line')}${hint}`, theme.text.muted), width));
  return lines;
}

/** The colour of a call's status icon and label. */
export function statusColor(call: ToolCallView, theme: LineLayout['theme']): string | undefined {
  return call.status === 'completed'
    ? theme.status.success
    : call.status === 'failed'
      ? theme.status.error
      : call.status === 'cancelled'
        ? theme.status.warning
        : theme.status.pending;
}

/** The hint after folded content: how to expand it ('' when no key is bound). */
export function expandHint(layout: LineLayout): string {
  const key = keyLabel(layout.bindings, 'app.toggleExpand');
  return key ? ` · ${key} to expand` : '';
}

/**
 * A settled card's first rows: its status icon, kind icon and title with the status spelled out,
 * the title cut to {@link FOLDED_CARD_TEXT_ROWS} unless expanded (a running call's spinner is the
 * component's).
 */
export function cardHeadLines(call: ToolCallView, layout: LineLayout): string[] {
  const { theme, width, expanded = false } = layout;
  const color = statusColor(call, theme);
  const label = statusLabel(call.status);
  const title = cardTitle(call);
  const statusIcon = STATUS_ICONS[call.status] ?? '?';
  const kindIcon = toolKindIcon(call.kind);
  const indent = displayWidth(statusIcon) + 1 + displayWidth(kindIcon) + 1;
  const heading =
    paint(inlineCode(title, theme), { bold: true }) + (label ? colorize(` · ${label}`, color) : '');
  const rows = wrapStyled(heading, width - indent);
  return beside(
    `${colorize(statusIcon, color)} ${colorize(kindIcon, theme.text.accent)} `,
    indent,
    expanded ? rows : clipRows(rows, FOLDED_CARD_TEXT_ROWS, label ? `${title} · ${label}` : title, width - 6),
  );
}

/**
 * What a card lists under its title, at its content's width (`layout.width` less its indent of
 * 4): the locations it touches (3 unless expanded) and the command line when nothing else shows it.
 */
export function cardPreambleLines(
  call: ToolCallView,
  command: string | undefined,
  layout: LineLayout,
): string[] {
  const { theme, cwd, expanded = false } = layout;
  const width = layout.width - 4;
  const lines: string[] = [];
  const locations = foldLines(cardLocations(call, cwd), expanded ? undefined : 3, 'head');
  for (const location of locations.shown)
    lines.push(
      ...wrapStyled(colorize(displayPath(location.path, cwd, location.line), theme.text.muted), width),
    );
  if (locations.hidden > 0)
    lines.push(
      ...wrapStyled(colorize(`… ${plural(locations.hidden, 'more location')}`, theme.text.muted), width),
    );
  if (command !== undefined) {
    const shown = sanitizeInline(command);
    const rows = wrapStyled(colorize('$ ', theme.text.accent) + paint(shown, { bold: true }), width);
    lines.push(...(expanded ? rows : clipRows(rows, FOLDED_CARD_TEXT_ROWS, `$ ${shown}`, width)));
  }
  return lines;
}

/** The line under a running call that can be stopped alone, at the content's width (none without a key). */
export function stopHintLines(call: ToolCallView, layout: LineLayout): string[] {
  const key = keyLabel(layout.bindings, 'app.cancelCall');
  if (!call.cancellable || !key) return [];
  return wrapStyled(
    colorize(`${key} stops this call (the turn goes on)`, layout.theme.text.muted),
    layout.width - 4,
  );
}

/**
 * The lines of a tool call's card, laid out at `layout.width`; undefined when the card holds what
 * only its component draws (a spinner, a diff, a terminal, raw command output).
 *
 * @example
 * toolCardLines(toolCallView(item), { width: 100, theme, bindings, cwd });
 */
export function toolCardLines(
  call: ToolCallView,
  layout: LineLayout,
  maxContentLines = 12,
): string[] | undefined {
  if (call.status === 'in_progress') return undefined;
  const { command, output, content } = commandParts(call, undefined);
  if (output) return undefined;
  const inner = { ...layout, width: layout.width - 4 };
  const maxLines = layout.expanded ? undefined : maxContentLines;
  const hint = expandHint(layout);
  const body = cardPreambleLines(call, command, layout);
  for (const { item } of content) {
    const itemLines = contentItemLines(item, maxLines, hint, inner);
    if (!itemLines) return undefined;
    body.push(...itemLines);
  }
  body.push(...stopHintLines(call, layout));
  return [...cardHeadLines(call, layout), ...body.map((line) => `    ${line}`)];
}
