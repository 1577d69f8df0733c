import { Box, Text, useStdout } from 'ink';
import type { Tokens } from 'marked';
import { useTheme } from '../theme/ThemeContext.js';
import { displayWidth } from '../text/width.js';
import { renderInline } from './MarkdownInline.js';
import { inlinePlainText } from './text-utils.js';

/** Props of {@link MarkdownTable}. */
export interface MarkdownTableProps {
  readonly token: Tokens.Table;
  /** Columns available; the terminal width by default. */
  readonly width?: number;
}

const SEPARATOR = ' │ ';
const MIN_COLUMN = 3;

/**
 * Column widths: each column's widest cell, then the widest columns shrink until the table fits
 * `available` (cells then wrap inside their column).
 */
export function layoutColumns(natural: readonly number[], available: number): number[] {
  const widths = natural.map((w) => Math.max(MIN_COLUMN, w));
  const budget = Math.max(available - SEPARATOR.length * (widths.length - 1), MIN_COLUMN * widths.length);
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

const JUSTIFY = { left: 'flex-start', center: 'center', right: 'flex-end' } as const;

/** A GFM table: bold header, a rule, aligned columns separated by `│`. */
export function MarkdownTable({ token, width }: MarkdownTableProps) {
  const theme = useTheme();
  const { stdout } = useStdout();
  const rows = [token.header, ...token.rows];
  const natural = token.header.map((_, col) =>
    Math.max(...rows.map((row) => displayWidth(inlinePlainText(row[col]?.tokens)))),
  );
  const widths = layoutColumns(natural, (width ?? stdout.columns ?? 80) - 2);
  const rule = widths.map((w) => '─'.repeat(w)).join('─┼─');
  const renderRow = (row: readonly Tokens.TableCell[], header: boolean, key: number) => (
    <Box key={key} flexDirection="row">
      {widths.map((w, col) => (
        <Box key={col} flexDirection="row">
          {col > 0 && <Text color={theme.border}>{SEPARATOR}</Text>}
          <Box width={w} flexShrink={0} justifyContent={JUSTIFY[token.align[col] ?? 'left']}>
            <Text bold={header}>{renderInline(row[col]?.tokens, theme)}</Text>
          </Box>
        </Box>
      ))}
    </Box>
  );
  return (
    <Box flexDirection="column">
      {renderRow(token.header, true, -1)}
      <Text color={theme.border}>{rule}</Text>
      {token.rows.map((row, i) => renderRow(row, false, i))}
    </Box>
  );
}
