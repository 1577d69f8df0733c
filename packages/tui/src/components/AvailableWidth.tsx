import { createContext, useContext, type ReactNode } from 'react';
import { useStdout } from 'ink';

const WidthContext = createContext<number | undefined>(undefined);

/** Props of {@link AvailableWidth}. */
export interface AvailableWidthProps {
  /** The columns available inside (default: the terminal's width). */
  readonly columns?: number;
  /** Columns taken before the content (padding, borders): subtracted from the width outside. */
  readonly indent?: number;
  readonly children: ReactNode;
}

/**
 * Says how wide the content inside is, for what is laid out before Ink's layout (Markdown is laid
 * out as lines at a width). Components that indent their content wrap it in one with `indent`.
 *
 * @example
 * <AvailableWidth indent={2}><Box paddingLeft={2}><MarkdownView text={text} /></Box></AvailableWidth>
 */
export function AvailableWidth({ columns, indent = 0, children }: AvailableWidthProps) {
  const outside = useAvailableWidth();
  const width = Math.max(1, (columns ?? outside) - indent);
  return <WidthContext.Provider value={width}>{children}</WidthContext.Provider>;
}

/** The columns available here: the nearest {@link AvailableWidth}, else the terminal's width. */
export function useAvailableWidth(): number {
  const width = useContext(WidthContext);
  const { stdout } = useStdout();
  return width ?? stdout.columns ?? 80;
}
