import { memo } from 'react';
import { Box, Text } from 'ink';
import { matchCounter } from '../../browse/search.js';
import { useKeyLabel } from '../../keys/KeyBindingsContext.js';
import { sanitizeInline } from '../../sanitize/sanitize-text.js';
import { plural } from '../../text/fold.js';
import { useTheme } from '../../theme/ThemeContext.js';
import type { BrowseDocument, BrowseUnit } from './browse-document.js';
import { selectedIndex, topRow, type BrowsePosition } from './browse-navigation.js';
import { BrowseViewport } from './BrowseViewport.js';
import { LocationList } from './LocationList.js';
import { useTranscriptBrowser, type BrowserCallbacks, type BrowserUi } from './useTranscriptBrowser.js';

/** Props of {@link TranscriptBrowser}. */
export interface TranscriptBrowserProps extends BrowserCallbacks {
  readonly document: BrowseDocument;
  /** Rows and columns the browser may take. */
  readonly rows: number;
  readonly columns: number;
  /** Where to open (the position kept while an editor had the terminal). */
  readonly initial?: BrowsePosition;
  readonly isActive?: boolean;
  /** The session's title (agent-controlled). */
  readonly title?: string;
}

const KIND_NAMES: Readonly<Record<BrowseUnit['kind'], string>> = {
  user: 'your message',
  agent: 'message',
  thought: 'thought',
  tool: 'tool call',
  code: 'code block',
  notice: 'notice',
};

/** What a unit is called ("code block", "tool call"…), for notices. */
export function unitName(unit: BrowseUnit): string {
  return KIND_NAMES[unit.kind];
}

/** The line under the transcript: the query being typed, the search, a note, or the selection. */
function StatusLine({ ui, counter, unit }: { ui: BrowserUi; counter: string; unit: BrowseUnit | undefined }) {
  const theme = useTheme();
  const copy = useKeyLabel('browser.copy');
  const open = useKeyLabel('browser.open');
  const { query } = ui.position;
  if (ui.typingFrom !== undefined) {
    return (
      <Text wrap="truncate-end">
        <Text color={theme.text.accent}>{'/'}</Text>
        {query}
        <Text inverse> </Text>
        <Text color={theme.text.muted}>{`  ${counter} · Enter done · ↑↓ previous/next match`}</Text>
      </Text>
    );
  }
  if (ui.note)
    return (
      <Text color={theme.status.warning} wrap="truncate-end">
        {ui.note}
      </Text>
    );
  const search = query !== '' ? `“${query}” ${counter} · ` : '';
  const what = unit
    ? unit.locations.length > 0
      ? `${unitName(unit)} · ${plural(unit.locations.length, 'file')} · ${open} open · ${copy} copy`
      : `${unitName(unit)}${unit.language ? ` (${sanitizeInline(unit.language)})` : ''} · ${copy} copy`
    : '';
  return <Text color={theme.text.muted} wrap="truncate-end">{`${search}${what}`}</Text>;
}

/**
 * The transcript browser: the current tab's whole transcript, read-only and scrollable, with
 * search (matches highlighted, the current one marked, a counter), copy of a message, code block
 * or tool output, and a tool call's file opened in the editor at its line.
 *
 * @example
 * <TranscriptBrowser document={document} rows={rows} columns={columns} onCopy={copy} onOpen={open} onClose={close} />
 */
export const TranscriptBrowser = memo(function TranscriptBrowser({
  document,
  rows,
  columns,
  initial,
  isActive = true,
  title,
  onCopy,
  onOpen,
  onClose,
}: TranscriptBrowserProps) {
  const theme = useTheme();
  const keys = {
    search: useKeyLabel('browser.search'),
    next: useKeyLabel('browser.nextMatch'),
    previous: useKeyLabel('browser.previousMatch'),
    copy: useKeyLabel('browser.copy'),
    open: useKeyLabel('browser.open'),
    close: useKeyLabel('browser.close'),
  };
  // Border, padding and the selection bar take 6 columns; border, title and two lines 5 rows.
  const height = Math.max(3, rows - 5);
  const { ui, context } = useTranscriptBrowser({
    document,
    width: Math.max(10, columns - 6),
    height,
    isActive,
    onCopy,
    onOpen,
    onClose,
    ...(initial ? { initial } : {}),
  });
  const selected = selectedIndex(document, ui.position);
  const unit = document.units[selected];
  const counter = matchCounter(context.matches, ui.position.match);
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={theme.focus} paddingX={1} width={columns}>
      <Text bold color={theme.text.accent} wrap="truncate-end">
        {`Transcript${title ? ` · ${sanitizeInline(title)}` : ''}`}
      </Text>
      {ui.picking !== undefined && unit ? (
        <LocationList locations={unit.locations} focus={ui.picking} height={height} />
      ) : document.units.length === 0 ? (
        <Box height={height}>
          <Text color={theme.text.muted}>Nothing in this session yet.</Text>
        </Box>
      ) : (
        <BrowseViewport
          context={context}
          top={topRow(context, ui.position)}
          selected={selected}
          currentMatch={ui.position.match}
        />
      )}
      <StatusLine ui={ui} counter={counter} unit={unit} />
      <Text color={theme.text.muted} wrap="truncate-end">
        {`↑↓ move · ${keys.search} search · ${keys.next} ${keys.previous} match · ${keys.copy} copy · ${keys.open} open in editor · ${keys.close} close`}
      </Text>
    </Box>
  );
});
