/**
 * What a form elicitation shows besides values (hints of what the schema asks, descriptions) and
 * which fields fit in the rows the form may take.
 */
import { sanitizeInline } from '../sanitize/sanitize-text.js';
import { foldLines, type FoldedLines } from '../text/fold.js';
import { displayWidth } from '../text/width.js';
import type { FieldValue, FormChoice, FormField } from './form-fields.js';
import { FORMAT_HINTS } from './form-validation.js';

const range = (min: number | undefined, max: number | undefined, unit = ''): string | undefined => {
  if (min !== undefined && max !== undefined) return min === max ? `${min}${unit}` : `${min}–${max}${unit}`;
  if (min !== undefined) return `at least ${min}${unit}`;
  if (max !== undefined) return `at most ${max}${unit}`;
  return undefined;
};

/** What the schema asks of a field, in a few words (`1–10`, `email`, `at most 50 characters`). */
export function fieldHint(field: FormField): string | undefined {
  const parts: (string | undefined)[] = [];
  switch (field.kind) {
    case 'text':
      parts.push(range(field.minLength, field.maxLength, ' characters'));
      if (field.format) parts.push(FORMAT_HINTS[field.format] ?? field.format);
      if (field.pattern !== undefined) parts.push(`pattern ${field.pattern}`);
      break;
    case 'number':
    case 'integer':
      parts.push(field.kind === 'integer' ? 'whole number' : 'number', range(field.minimum, field.maximum));
      break;
    case 'multiselect':
      parts.push(`choose ${range(field.minItems, field.maxItems) ?? 'any'} · Space ticks`);
      break;
    case 'unsupported':
      parts.push(`type ${field.type}: acp cannot fill this in`);
      break;
    default:
      break;
  }
  const text = parts.filter((part) => part !== undefined).join(' · ');
  return text === '' ? undefined : text;
}

/** The choice whose description is shown: the chosen one, or the focused one of a multi-select. */
function describedChoice(field: FormField, value: FieldValue): FormChoice | undefined {
  if (field.kind === 'select' && value.kind === 'select' && value.index !== undefined)
    return field.choices[value.index];
  if (field.kind === 'multiselect' && value.kind === 'multiselect') return field.choices[value.focus];
  return undefined;
}

/** The line under a field's value: its description, the choice's, and the hint (sanitized). */
export function fieldDetails(field: FormField, value: FieldValue): string {
  return [field.description, describedChoice(field, value)?.description, fieldHint(field)]
    .filter((part): part is string => part !== undefined && part !== '')
    .map(sanitizeInline)
    .join(' · ');
}

/**
 * The fields to show, `[start, end)`, within `budget` rows: the focused one and as many around it
 * as fit, counting a "more fields" row above and below when fields are left out there.
 */
export function fieldWindow(
  heights: readonly number[],
  focus: number,
  budget: number,
): { start: number; end: number } {
  const count = heights.length;
  const anchor = Math.max(0, Math.min(focus, count - 1));
  let start = anchor;
  let end = Math.min(count, anchor + 1);
  let used = heights[anchor] ?? 0;
  const fits = (s: number, e: number, rows: number): boolean =>
    rows + (s > 0 ? 1 : 0) + (e < count ? 1 : 0) <= budget;
  for (let grew = true; grew;) {
    grew = false;
    const next = heights[end];
    if (next !== undefined && fits(start, end + 1, used + next)) {
      used += next;
      end++;
      grew = true;
    }
    const previous = heights[start - 1];
    if (previous !== undefined && fits(start - 1, end, used + previous)) {
      used += previous;
      start--;
      grew = true;
    }
  }
  return { start, end };
}

/** What the form shows in the rows it has (see {@link formLayout}). */
export interface FormLayout {
  readonly showTitle: boolean;
  readonly showDescription: boolean;
  /** A blank row above the fields. */
  readonly gap: boolean;
  /** Rows of the message shown, and how many are left out. */
  readonly message: FoldedLines<string>;
  /** The focused field's details wrap (else they are one row, cut at the edge). */
  readonly wrapFocused: boolean;
  readonly start: number;
  readonly end: number;
}

/**
 * Lays the form out in `rows`: the title, buttons and footer always; the schema's description,
 * title and the gap only when there is room; at most a third of the rest for the message; the
 * focused field and the fields around it in what remains.
 */
export function formLayout(options: {
  readonly rows: number;
  readonly footerRows: number;
  readonly hasTitle: boolean;
  readonly hasDescription: boolean;
  readonly messageRows: readonly string[];
  /** Field heights with the focused field's details wrapped, and with every field on one row. */
  readonly heights: readonly number[];
  readonly flatHeights: readonly number[];
  readonly focus: number;
}): FormLayout {
  // Borders, the "Input requested by" line, the buttons.
  let room = options.rows - 4 - options.footerRows;
  const showDescription = options.hasDescription && room >= 14;
  if (showDescription) room--;
  const showTitle = options.hasTitle && room >= 10;
  if (showTitle) room--;
  const gap = room >= 10;
  if (gap) room--;
  // A third of the rest, leaving the focused field (3 rows), the "more" rows and the fold line.
  const message = foldLines(options.messageRows, Math.max(1, Math.min(Math.floor(room / 3), room - 6)));
  const budget = room - message.shown.length - (message.hidden > 0 ? 1 : 0);
  const focused = options.heights[options.focus] ?? 0;
  const wrapFocused = focused <= Math.max(0, budget - 2) || focused === options.flatHeights[options.focus];
  const { start, end } = fieldWindow(
    wrapFocused ? options.heights : options.flatHeights,
    options.focus,
    budget,
  );
  return { showTitle, showDescription, gap, message, wrapFocused, start, end };
}

/**
 * Word-wraps text into rows of at most `width` terminal cells (words longer than a row are cut);
 * line breaks are kept. Rows drawn one per line then take exactly the rows counted here.
 *
 * @example
 * wrapText('one two three', 7); // ['one two', 'three']
 */
export function wrapText(text: string, width: number): string[] {
  const max = Math.max(1, width);
  const rows: string[] = [];
  for (const line of text.split('\n')) {
    let row = '';
    let used = 0;
    for (const word of line.split(' ')) {
      const size = displayWidth(word);
      const gap = row === '' ? 0 : 1;
      if (used + gap + size <= max) {
        row += (gap ? ' ' : '') + word;
        used += gap + size;
        continue;
      }
      if (row !== '') rows.push(row);
      row = '';
      used = 0;
      for (const ch of word) {
        const cell = displayWidth(ch);
        if (used + cell > max && row !== '') {
          rows.push(row);
          row = '';
          used = 0;
        }
        row += ch;
        used += cell;
      }
    }
    rows.push(row);
  }
  return rows;
}

/** Rows of a field's details shown: one (cut at the edge), or up to three wrapped for the focused field. */
export const DETAIL_ROWS = 3;

/** The details of a field as drawn: one row, or (given `width`) wrapped into at most {@link DETAIL_ROWS}. */
export function detailRows(field: FormField, value: FieldValue, width?: number): string[] {
  const details = fieldDetails(field, value);
  if (details === '') return [];
  if (width === undefined) return [details];
  const rows = wrapText(details, width);
  if (rows.length <= DETAIL_ROWS) return rows;
  return [...rows.slice(0, DETAIL_ROWS - 1), `${rows[DETAIL_ROWS - 1] ?? ''} …`];
}

/**
 * Rows a field takes: its title, its value (a checkbox is on the title's line), its details (one
 * row, or wrapped in `width` cells for the focused field).
 */
export function fieldRows(field: FormField, value: FieldValue, width?: number): number {
  return 1 + (value.kind === 'boolean' ? 0 : 1) + detailRows(field, value, width).length;
}

/** The part of a one-line text around the cursor that fits `width` cells (`…` where cut). */
export function textWindow(
  text: string,
  cursor: number,
  width: number,
): { before: string; at: string; after: string } {
  const chars = [...text];
  const at = [...text.slice(0, cursor)].length;
  if (displayWidth(text) + 1 <= width)
    return { before: chars.slice(0, at).join(''), at: chars[at] ?? ' ', after: chars.slice(at + 1).join('') };
  const visible = Math.max(1, width - 2);
  const start = Math.max(0, Math.min(at - visible + 1, chars.length + 1 - visible));
  const end = start + visible;
  return {
    before: (start > 0 ? '…' : '') + chars.slice(start, at).join(''),
    at: chars[at] ?? ' ',
    after: chars.slice(at + 1, end).join('') + (end < chars.length ? '…' : ''),
  };
}
