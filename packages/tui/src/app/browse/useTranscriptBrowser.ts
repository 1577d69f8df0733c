import { useMemo, useRef, useState } from 'react';
import { useInput, type Key } from 'ink';
import { findMatches, type SearchMatch } from '../../browse/search.js';
import { useActionMatcher, type ActionMatcher } from '../../keys/KeyBindingsContext.js';
import { sanitizeInline } from '../../sanitize/sanitize-text.js';
import type { BrowseDocument, BrowseLocation, BrowseUnit } from './browse-document.js';
import { layoutDocument } from './browse-layout.js';
import {
  edge,
  INITIAL_POSITION,
  moveSelection,
  page,
  searchFrom,
  selectedIndex,
  stepSearch,
  type BrowseContext,
  type BrowsePosition,
} from './browse-navigation.js';

/** What the browser does with the selection: copy it, open a location, close. */
export interface BrowserCallbacks {
  readonly onCopy: (unit: BrowseUnit) => void;
  /** Opens a location; `position` is where the browser is (to come back to it). */
  readonly onOpen: (location: BrowseLocation, position: BrowsePosition) => void;
  readonly onClose: () => void;
}

/** The browser's state besides its position. */
export interface BrowserUi {
  readonly position: BrowsePosition;
  /** The query is being typed, from this line (the selection's first line when `/` was pressed). */
  readonly typingFrom?: number;
  /** A one-line message (a search that wrapped, nothing to open…). */
  readonly note?: string;
  /** The location picker of a tool call with several locations: the focused one. */
  readonly picking?: number;
}

/** Options of {@link useTranscriptBrowser}. */
export interface TranscriptBrowserOptions extends BrowserCallbacks {
  readonly document: BrowseDocument;
  /** Cells of text per row, rows of the viewport. */
  readonly width: number;
  readonly height: number;
  readonly initial?: BrowsePosition;
  readonly isActive: boolean;
}

/** The lines searched (labels and blank lines are not). */
type Searchable = readonly (string | undefined)[];

/** The last search of each document's lines: a key and the render after it ask for the same. */
const lastSearch = new WeakMap<Searchable, { query: string; matches: SearchMatch[] }>();

function matchesOf(searchable: Searchable, query: string): SearchMatch[] {
  const last = lastSearch.get(searchable);
  if (last?.query === query) return last.matches;
  const matches = findMatches(searchable, query);
  lastSearch.set(searchable, { query, matches });
  return matches;
}

/** What the key handlers see. */
interface KeyContext extends BrowseContext {
  readonly searchable: Searchable;
}

const OPENS_NOTHING = 'Only a tool call with a file opens in the editor: this part has none';

function typingKey(ui: BrowserUi, input: string, key: Key, context: KeyContext): BrowserUi {
  const { position } = ui;
  const from = ui.typingFrom ?? 0;
  if (key.return || key.escape) return { position };
  if (key.upArrow || key.downArrow) {
    const stepped = stepSearch(context, position, key.upArrow ? -1 : 1);
    return { ...ui, position: stepped.position, ...(stepped.wrapped ? { note: 'search wrapped' } : {}) };
  }
  let query = position.query;
  if (key.backspace || key.delete) query = [...query].slice(0, -1).join('');
  else if (key.ctrl && input === 'u') query = '';
  else if (!key.ctrl && !key.meta && !key.tab) query += sanitizeInline(input);
  if (query === position.query) return ui;
  const matches = matchesOf(context.searchable, query);
  return { typingFrom: from, position: searchFrom({ ...context, matches }, position, query, from) };
}

function browseKey(
  ui: BrowserUi,
  input: string,
  key: Key,
  context: BrowseContext,
  is: ActionMatcher,
  callbacks: BrowserCallbacks,
): BrowserUi {
  const { position } = ui;
  const unit = context.document.units[selectedIndex(context.document, position)];
  if (is('browser.close', input, key)) callbacks.onClose();
  else if (is('browser.search', input, key))
    return { typingFrom: unit?.start ?? 0, position: { ...position, query: '', match: -1 } };
  else if (is('browser.nextMatch', input, key) || is('browser.previousMatch', input, key)) {
    if (position.query === '') return { position, note: 'No search: press / to search' };
    const stepped = stepSearch(context, position, is('browser.nextMatch', input, key) ? 1 : -1);
    if (context.matches.length === 0) return { position, note: `No match for “${position.query}”` };
    return { position: stepped.position, ...(stepped.wrapped ? { note: 'search wrapped' } : {}) };
  } else if (is('browser.next', input, key)) return { position: moveSelection(context, position, 1) };
  else if (is('browser.previous', input, key)) return { position: moveSelection(context, position, -1) };
  else if (key.pageDown || input === ' ') return { position: page(context, position, 1) };
  else if (key.pageUp || input === 'b') return { position: page(context, position, -1) };
  else if (key.home || input === 'g') return { position: edge(context, position, 'first') };
  else if (key.end || input === 'G') return { position: edge(context, position, 'last') };
  else if (is('browser.copy', input, key) && unit) callbacks.onCopy(unit);
  else if (is('browser.open', input, key)) {
    const [first, second] = unit?.locations ?? [];
    if (!first) return { position, note: OPENS_NOTHING };
    if (second) return { position, picking: 0 };
    callbacks.onOpen(first, position);
  }
  return ui.note === undefined ? ui : { position };
}

function pickerKey(
  ui: BrowserUi,
  input: string,
  key: Key,
  locations: readonly BrowseLocation[],
  callbacks: BrowserCallbacks,
) {
  const focus = ui.picking ?? 0;
  const digit = /^[1-9]$/.test(input) ? Number(input) - 1 : -1;
  if (key.escape || input === 'q') return { position: ui.position };
  if (key.upArrow || input === 'k') return { ...ui, picking: Math.max(0, focus - 1) };
  if (key.downArrow || input === 'j') return { ...ui, picking: Math.min(locations.length - 1, focus + 1) };
  const chosen = digit >= 0 ? locations[digit] : key.return || input === 'o' ? locations[focus] : undefined;
  if (!chosen) return ui;
  callbacks.onOpen(chosen, ui.position);
  return { position: ui.position };
}

/**
 * State and keys of the transcript browser: moving, paging, searching (`/`, then n/N), copying and
 * opening locations (with a picker when a tool call has several).
 */
export function useTranscriptBrowser(options: TranscriptBrowserOptions) {
  const { document, width, height, isActive } = options;
  const [ui, setUi] = useState<BrowserUi>(() => ({ position: options.initial ?? INITIAL_POSITION }));
  const layout = useMemo(() => layoutDocument(document, width), [document, width]);
  const searchable = useMemo<Searchable>(
    () =>
      document.lines.map((line) => (line.style === 'role' || line.style === 'blank' ? undefined : line.text)),
    [document],
  );
  const matches = matchesOf(searchable, ui.position.query);
  const context: KeyContext = { document, layout, height, matches, searchable };
  // Keys can arrive before Ink registers the handler of the latest render: read from here.
  const latest = useRef({ ui, context, options });
  latest.current = { ui, context, options };
  const is = useActionMatcher();
  useInput(
    (input, key) => {
      const { ui, context, options } = latest.current;
      const unit = context.document.units[selectedIndex(context.document, ui.position)];
      const next =
        ui.picking !== undefined
          ? pickerKey(ui, input, key, unit?.locations ?? [], options)
          : ui.typingFrom !== undefined
            ? typingKey(ui, input, key, context)
            : browseKey(ui, input, key, context, is, options);
      if (next !== ui) {
        latest.current = { ...latest.current, ui: next };
        setUi(next);
      }
    },
    { isActive },
  );
  return { ui, context: context as BrowseContext };
}
