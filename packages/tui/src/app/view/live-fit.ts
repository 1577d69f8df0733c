/**
 * Fits the live region (the units still changing, drawn by Ink every frame) into its rows. Past
 * the screen's height Ink takes its full-screen path: it clears the terminal with its scrollback
 * and draws everything again, so the whole session printed so far would be lost from the
 * terminal. Every unit therefore gets a share of the rows it cannot exceed: streamed Markdown
 * shows its last lines, a tool card its title and command on a few rows and its content folded,
 * any other unit (a notice, a permission decision, a queued prompt) its first rows; all of them
 * are printed in full into the scrollback once settled.
 */
import { messageText } from '../../components/message-segments.js';
import { markdownLines, type MarkdownLayout } from '../../markdown/markdown-lines.js';
import { sanitizeInline } from '../../sanitize/sanitize-text.js';
import { estimateRows } from '../../text/width.js';
import { commandParts } from '../../view-model/command-output.js';
import { noticeOf } from '../../view-model/notice.js';
import { cardTitle, FOLDED_CARD_TEXT_ROWS, toolCallView } from '../../view-model/tool-call.js';
import type { TranscriptUnit } from '../../view-model/transcript-unit.js';

/** Columns before a card's title (status, kind icon and their gaps) and before its body (its indent). */
const CARD_TITLE_INDENT = 6;
const CARD_BODY_INDENT = 4;
/** Rows a content item of a card may take besides its lines (a diff's path, the fold line). */
const ITEM_OVERHEAD = 2;
/** Content lines of each item of a live tool card: at least, at most. */
const MIN_CARD_LINES = 2;
const MAX_CARD_LINES = 12;
/** Rows of the line summing up cards that do not fit (with its margin). */
const FOLDED_ROWS = 2;
/** Rows a unit other than a card or a streamed message may take (its margin aside). */
const OTHER_ROWS = 3;

/** How one live unit is drawn within its rows. */
export interface LiveEntry {
  readonly unit: TranscriptUnit;
  /** A tool card: the most lines of each content item it shows. */
  readonly maxContentLines?: number;
  /** Streamed Markdown: the lines drawn (its last ones when it is too tall) and how many are above them. */
  readonly lines?: readonly string[];
  readonly linesAbove?: number;
  /** Another message taller than its rows: the rows it gets (its last lines are drawn). */
  readonly tailRows?: number;
  /** Another unit taller than its rows: the rows it is cut to (its first ones are drawn). */
  readonly clipRows?: number;
}

/** The live units fitted into their rows. */
export interface LiveFit {
  /** Running tool cards that do not fit, oldest first: summed up in one line. */
  readonly folded: readonly TranscriptUnit[];
  readonly entries: readonly LiveEntry[];
}

/** A card's rows besides its content lines (title, locations, command, items' extra rows, margin) and its items. */
function cardShape(unit: TranscriptUnit, width: number): { overhead: number; items: number } {
  if (unit.item.kind !== 'tool_call') return { overhead: 0, items: 0 };
  const call = toolCallView(unit.item);
  const titleRows = Math.min(FOLDED_CARD_TEXT_ROWS, estimateRows(cardTitle(call), width - CARD_TITLE_INDENT));
  const locations = call.locations.length;
  const locationRows = Math.min(3, locations) + (locations > 3 ? 1 : 0);
  const { command, output, content } = commandParts(call, unit.terminals);
  const commandRows =
    command === undefined
      ? 0
      : Math.min(FOLDED_CARD_TEXT_ROWS, estimateRows(sanitizeInline(command), width - CARD_BODY_INDENT - 2));
  const items = content.length + (output ? 1 : 0);
  return { overhead: titleRows + locationRows + commandRows + items * ITEM_OVERHEAD + 1, items };
}

/** Rows a unit other than a card or a streamed agent message takes when drawn in full (estimated). */
function otherRows(unit: TranscriptUnit, width: number): number {
  const { item } = unit;
  if (item.kind === 'plan') return item.entries.length + 1;
  // A thought not shown is drawn folded on its first line.
  if (item.kind === 'message' && item.role === 'thought') return 1;
  if (item.kind === 'message') return estimateRows(messageText(item.content), width - 2);
  const notice = noticeOf(item);
  if (notice)
    return estimateRows(notice.detail ? `${notice.text}\n${notice.detail}` : notice.text, width - 2);
  return OTHER_ROWS;
}

/**
 * Fits the live units into `budget` rows (each unit and a blank line after it), so the frame stays
 * shorter than the screen: streamed Markdown shows its last lines, each tool card gets a share of
 * the rows, other units are cut to a few rows, and when more tools run at once than fit, the
 * oldest cards are summed up in one line (drawn in full once printed). `layout` lays Markdown out
 * (its width is the screen's).
 *
 * @example
 * const { folded, entries } = fitLive(view.live, 24, { width: 100, theme });
 */
export function fitLive(
  live: readonly TranscriptUnit[],
  budget: number,
  layout: MarkdownLayout,
  showThoughts = false,
): LiveFit {
  const width = layout.width;
  const streamed = (unit: TranscriptUnit): boolean =>
    unit.part?.kind === 'markdown' ||
    (unit.item.kind === 'message' &&
      unit.item.role !== 'user' &&
      (unit.item.role === 'agent' || showThoughts));
  const cards = live.filter((unit) => unit.item.kind === 'tool_call');
  const messages = live.filter((unit) => unit.item.kind !== 'tool_call' && streamed(unit));
  const others = live.filter((unit) => unit.item.kind !== 'tool_call' && !streamed(unit));
  // Rows each other unit takes drawn in full; it gets OTHER_ROWS at most (and its margin).
  const otherFull = new Map(others.map((unit) => [unit, otherRows(unit, width)]));
  let otherTotal = 0;
  for (const rows of otherFull.values()) otherTotal += Math.min(OTHER_ROWS, rows) + 1;
  // Each streamed message keeps a few rows; the cards share what is left, newest first.
  const forCards = budget - otherTotal - messages.length * (OTHER_ROWS + 1);
  const shapes = new Map(cards.map((unit) => [unit, cardShape(unit, width)]));
  let used = 0;
  let kept = 0;
  for (let i = cards.length - 1; i >= 0; i--) {
    const shape = shapes.get(cards[i] as TranscriptUnit) as { overhead: number; items: number };
    const least = shape.overhead + shape.items * MIN_CARD_LINES;
    const room = forCards - (i > 0 ? FOLDED_ROWS : 0);
    if (kept > 0 && used + least > room) break;
    used += least;
    kept++;
  }
  const folded = cards.slice(0, cards.length - kept);
  const shownCards = cards.slice(cards.length - kept);
  let overheads = 0;
  let items = 0;
  for (const unit of shownCards) {
    const shape = shapes.get(unit) as { overhead: number; items: number };
    overheads += shape.overhead;
    items += shape.items;
  }
  const cardRoom = forCards - (folded.length > 0 ? FOLDED_ROWS : 0) - overheads;
  const perItem = Math.max(
    MIN_CARD_LINES,
    Math.min(MAX_CARD_LINES, Math.floor(cardRoom / Math.max(1, items))),
  );
  const cardRows = overheads + items * perItem;
  // What is left for streamed messages, each drawn with a line saying how much is above when cut.
  const share = Math.max(3, Math.floor((budget - cardRows - otherTotal) / Math.max(1, messages.length)) - 1);
  const entries: LiveEntry[] = [];
  for (const unit of live) {
    if (folded.includes(unit)) continue;
    const { item, part } = unit;
    if (item.kind === 'tool_call') entries.push({ unit, maxContentLines: perItem });
    else if (part?.kind === 'markdown') {
      const lines = markdownLines(part.blocks, layout);
      const fits = lines.length <= share;
      const shown = fits ? lines : lines.slice(lines.length - (share - 1));
      entries.push({ unit, lines: shown, linesAbove: lines.length - shown.length });
    } else if (streamed(unit)) {
      const tooTall =
        estimateRows(messageText(item.kind === 'message' ? item.content : []), width - 2) > share;
      entries.push(tooTall ? { unit, tailRows: share - 1 } : { unit });
    } else {
      const full = otherFull.get(unit) ?? 0;
      entries.push(full > OTHER_ROWS ? { unit, clipRows: OTHER_ROWS } : { unit });
    }
  }
  return { folded, entries };
}
