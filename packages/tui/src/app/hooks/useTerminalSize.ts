import { useEffect, useState } from 'react';
import { useStdout } from 'ink';

/** The terminal's size in cells. */
export interface TerminalSize {
  readonly columns: number;
  readonly rows: number;
}

/**
 * The terminal's size, updated on resize (80×24 when it is unknown).
 *
 * @example
 * const { rows } = useTerminalSize();
 */
export function useTerminalSize(): TerminalSize {
  const { stdout } = useStdout();
  const read = (): TerminalSize => ({ columns: stdout.columns || 80, rows: stdout.rows || 24 });
  const [size, setSize] = useState(read);
  useEffect(() => {
    const onResize = (): void => setSize(read());
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout]);
  return size;
}
