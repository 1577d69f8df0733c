import { Box, renderToString } from 'ink';
import { AvailableWidth } from '../../components/AvailableWidth.js';
import { TranscriptItemView } from '../../components/TranscriptItemView.js';
import type { KeyBindings } from '../../keys/key-bindings.js';
import { KeyBindingsProvider } from '../../keys/KeyBindingsContext.js';
import type { Theme } from '../../theme/theme.js';
import { ThemeProvider } from '../../theme/ThemeContext.js';
import type { TranscriptUnit } from '../view/transcript-projector.js';

/** How printed units are drawn. */
export interface PrintOptions {
  readonly columns: number;
  readonly theme: Theme;
  readonly bindings: KeyBindings;
  readonly cwd?: string;
  readonly showThoughts: boolean;
  readonly expanded: boolean;
}

/**
 * Draws transcript units once, as text for the terminal's scrollback: each unit with the same
 * component as everywhere else, a blank line after it, at the terminal's width.
 *
 * @example
 * write(renderUnits(units, { columns: 100, theme, bindings, showThoughts: false, expanded: false }));
 */
export function renderUnits(units: readonly TranscriptUnit[], options: PrintOptions): string {
  if (units.length === 0) return '';
  const output = renderToString(
    <ThemeProvider theme={options.theme}>
      <KeyBindingsProvider bindings={options.bindings}>
        <AvailableWidth columns={options.columns}>
          <Box flexDirection="column">
            {units.map((unit) => (
              <Box key={unit.key} flexDirection="column" marginBottom={1}>
                <TranscriptItemView
                  item={unit.item}
                  terminals={unit.terminals}
                  cwd={options.cwd}
                  showThoughts={options.showThoughts}
                  expanded={options.expanded}
                />
              </Box>
            ))}
          </Box>
        </AvailableWidth>
      </KeyBindingsProvider>
    </ThemeProvider>,
    { columns: options.columns },
  );
  // One blank line after the last unit, as between units.
  return `${output.replace(/\s+$/, '')}\n\n`;
}
