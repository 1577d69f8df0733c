import { memo, type ReactNode } from 'react';
import { Box, Text } from 'ink';
import type { SearchMatch } from '../../browse/search.js';
import { useTheme } from '../../theme/ThemeContext.js';
import type { Theme } from '../../theme/theme.js';
import type { BrowseLine, BrowseUnit } from './browse-document.js';
import type { BrowseContext } from './browse-navigation.js';

/** A highlighted range of a row, in the row's own offsets. */
interface Highlight {
  readonly start: number;
  readonly end: number;
  readonly current: boolean;
}

function lineColor(theme: Theme, line: BrowseLine, kind: BrowseUnit['kind'] | undefined): string | undefined {
  switch (line.style) {
    case 'role':
      return kind === 'user' ? theme.text.user : kind === 'thought' ? theme.text.thought : theme.text.accent;
    case 'code':
      return theme.text.code;
    case 'location':
      return theme.text.link;
    case 'added':
      return theme.diff.added;
    case 'removed':
      return theme.diff.removed;
    case 'muted':
      return theme.text.muted;
    default:
      return undefined;
  }
}

/** One screen row: the selection bar, then the text with its matches highlighted. */
const BrowseRowView = memo(function BrowseRowView({
  text,
  line,
  kind,
  selected,
  highlights,
}: {
  text: string;
  line: BrowseLine;
  kind: BrowseUnit['kind'] | undefined;
  selected: boolean;
  highlights: readonly Highlight[];
}) {
  const theme = useTheme();
  const color = lineColor(theme, line, kind);
  const bold = line.style === 'role' || line.style === 'title';
  const parts: ReactNode[] = [];
  let at = 0;
  highlights.forEach((h, i) => {
    if (h.start > at) parts.push(text.slice(at, h.start));
    // The current match stands out from the others even without colours.
    parts.push(
      <Text
        key={i}
        inverse={!h.current || !theme.colors}
        bold={h.current}
        underline={h.current && !theme.colors}
        {...(h.current && theme.colors ? { backgroundColor: theme.status.warning, color: 'black' } : {})}
      >
        {text.slice(h.start, h.end)}
      </Text>,
    );
    at = h.end;
  });
  if (at < text.length) parts.push(text.slice(at));
  return (
    <Text wrap="truncate-end">
      <Text color={theme.focus}>{selected ? '▌ ' : '  '}</Text>
      <Text color={color} bold={bold}>
        {parts}
      </Text>
    </Text>
  );
});

/** The rows from `top` that fit the viewport, the selected unit marked, matches highlighted. */
export const BrowseViewport = memo(function BrowseViewport({
  context,
  top,
  selected,
  currentMatch,
}: {
  context: BrowseContext;
  top: number;
  selected: number;
  currentMatch: number;
}) {
  const { document, layout, height, matches } = context;
  const unit = document.units[selected];
  const rows = layout.rows.slice(top, top + height);
  // Matches by line, with their index (to tell the current one).
  const byLine = new Map<number, (SearchMatch & { index: number })[]>();
  const firstLine = rows[0]?.line ?? 0;
  const lastLine = rows[rows.length - 1]?.line ?? -1;
  matches.forEach((match, index) => {
    if (match.line < firstLine || match.line > lastLine) return;
    byLine.set(match.line, [...(byLine.get(match.line) ?? []), { ...match, index }]);
  });
  return (
    <Box flexDirection="column" height={height}>
      {rows.map((row, i) => {
        const line = document.lines[row.line] as BrowseLine;
        const highlights = (byLine.get(row.line) ?? [])
          .filter((m) => m.end > row.start && m.start < row.end)
          .map((m) => ({
            start: Math.max(0, m.start - row.start),
            end: Math.min(row.end, m.end) - row.start,
            current: m.index === currentMatch,
          }));
        const inUnit = unit !== undefined && row.line >= unit.start && row.line < unit.end;
        return (
          <BrowseRowView
            key={top + i}
            text={document.lines[row.line]?.text.slice(row.start, row.end) ?? ''}
            line={line}
            kind={document.units[line.unit]?.kind}
            selected={inUnit}
            highlights={highlights}
          />
        );
      })}
    </Box>
  );
});
