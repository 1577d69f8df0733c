import { Box, renderToString } from 'ink';
import { AvailableWidth } from '../../components/AvailableWidth.js';
import { TranscriptItemView } from '../../components/TranscriptItemView.js';
import type { KeyBindings } from '../../keys/key-bindings.js';
import { KeyBindingsProvider } from '../../keys/KeyBindingsContext.js';
import type { Highlighter } from '../../markdown/highlight.js';
import { markdownLines } from '../../markdown/markdown-lines.js';
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
  /** Highlights code blocks (loaded before anything is printed). */
  readonly highlighter?: Highlighter;
}

/** Draws units other than Markdown with their components, through Ink, as text. */
function renderWithInk(units: readonly TranscriptUnit[], options: PrintOptions): string {
  const output = renderToString(
    <ThemeProvider theme={options.theme}>
      <KeyBindingsProvider bindings={options.bindings}>
        <AvailableWidth columns={options.columns}>
          <Box flexDirection="column">
            {units.map((unit) => (
              <Box key={unit.key} flexDirection="column" marginBottom={1}>
                <TranscriptItemView
                  unit={unit}
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
  return output.replace(/\s+$/, '');
}

/**
 * Draws transcript units once, as text for the terminal's scrollback, each with a blank line
 * after it, at the terminal's width: parts of agents' messages are their Markdown lines (laid out
 * already while they were live), other units are drawn with the same components as everywhere else.
 *
 * @example
 * write(renderUnits(units, { columns: 100, theme, bindings, showThoughts: false, expanded: false }));
 */
export function renderUnits(units: readonly TranscriptUnit[], options: PrintOptions): string {
  let out = '';
  let run: TranscriptUnit[] = [];
  const flush = (): void => {
    if (run.length > 0) out += `${renderWithInk(run, options)}\n\n`;
    run = [];
  };
  for (const unit of units) {
    if (unit.part?.kind !== 'markdown') {
      run.push(unit);
      continue;
    }
    flush();
    const lines = markdownLines(unit.part.blocks, {
      width: options.columns,
      theme: options.theme,
      highlighter: options.highlighter,
    });
    if (lines.length > 0) out += `${lines.join('\n')}\n\n`;
  }
  flush();
  return out;
}
