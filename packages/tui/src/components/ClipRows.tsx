import type { ReactNode } from 'react';
import { Box } from 'ink';
import { estimateRows } from '../text/width.js';

/** Props of {@link ClipRows}. */
export interface ClipRowsProps {
  /** Rows shown at most (nothing is cut when undefined). */
  readonly rows?: number;
  /** What is drawn, and the columns it has: cut only when it would take more than `rows` (else always cut). */
  readonly text?: string;
  readonly width?: number;
  readonly children: ReactNode;
}

/**
 * Draws its children in their first `rows` rows, so that a unit of the live region never grows
 * past its share of the screen (what is cut is printed in full once settled).
 *
 * @example
 * <ClipRows rows={2} text={title} width={columns - 6}><Text>{title}</Text></ClipRows>
 */
export function ClipRows({ rows, text, width = 80, children }: ClipRowsProps) {
  if (rows === undefined || (text !== undefined && estimateRows(text, width) <= rows)) return <>{children}</>;
  return (
    <Box height={rows} overflowY="hidden" flexDirection="column">
      {children}
    </Box>
  );
}
