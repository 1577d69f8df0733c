import { describe, expect, it } from 'vitest';
import { Box, Text } from 'ink';
import { renderInk } from '../test-support/ink.js';
import { StyledLines } from './StyledLines.js';

/** The rows drawn between two markers, so blank rows count. */
function rowsBetween(lines: readonly string[]): string[] {
  const frame = renderInk(
    <Box flexDirection="column">
      <Text>[</Text>
      <StyledLines lines={lines} />
      <Text>]</Text>
    </Box>,
  ).frame();
  const rows = frame.split('\n');
  return rows.slice(rows.indexOf('[') + 1, rows.indexOf(']')).map((row) => row.trimEnd());
}

describe('StyledLines', () => {
  it('takes one row per line, blank lines included, and none for no lines', () => {
    expect(rowsBetween(['a', '', '\x1b[1mb\x1b[22m'])).toEqual(['a', '', '\x1b[1mb\x1b[22m']);
    expect(rowsBetween(['', 'a', ''])).toEqual(['', 'a', '']);
    expect(rowsBetween([''])).toEqual(['']);
    expect(rowsBetween(['', ''])).toEqual(['', '']);
    expect(rowsBetween([])).toEqual([]);
  });
});
