import { randomUUID } from 'node:crypto';
import { Box, renderToString, Text } from 'ink';
import { AvailableWidth } from '../../components/AvailableWidth.js';
import { TranscriptItemView } from '../../components/TranscriptItemView.js';
import type { KeyBindings } from '../../keys/key-bindings.js';
import { KeyBindingsProvider } from '../../keys/KeyBindingsContext.js';
import type { Highlighter } from '../../markdown/highlight.js';
import { wantsHighlighter } from '../../markdown/markdown-lines.js';
import { unitLines } from '../../components/lines/unit-lines.js';
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
  /** Highlights code blocks (loaded before units that need it are printed: {@link needsHighlighter}). */
  readonly highlighter?: Highlighter;
}

/**
 * Whether drawing a unit may highlight code: Markdown with fenced code in a language. Units drawn
 * by their components (a prompt, a tool call's content) are judged by any fence in their content.
 */
export function needsHighlighter(unit: TranscriptUnit): boolean {
  const { part, item } = unit;
  if (part?.kind === 'markdown') return wantsHighlighter(part.blocks);
  const content = part?.kind === 'content' ? part.block : 'content' in item ? item.content : undefined;
  return content !== undefined && /```|~~~/.test(JSON.stringify(content));
}

/**
 * A row no agent's text can produce (a private-use character and a random id): it starts each run
 * of units in one render, so that the render can be cut into the runs again.
 */
const RUN_MARK = `\u{F8FF}${randomUUID()}`;

/**
 * Draws runs of units other than Markdown with their components, through Ink, as text: all of
 * them in one render (a render costs a React root and a layout of its own, ~5 ms, whatever it
 * holds), each run laid out as if alone.
 */
function renderWithInk(runs: readonly (readonly TranscriptUnit[])[], options: PrintOptions): string[] {
  const output = renderToString(
    <ThemeProvider theme={options.theme}>
      <KeyBindingsProvider bindings={options.bindings}>
        <AvailableWidth columns={options.columns}>
          <Box flexDirection="column">
            {runs.map((units, i) => (
              <Box key={i} flexDirection="column">
                <Text>{RUN_MARK}</Text>
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
              </Box>
            ))}
          </Box>
        </AvailableWidth>
      </KeyBindingsProvider>
    </ThemeProvider>,
    { columns: options.columns },
  );
  const drawn: string[][] = [];
  for (const line of output.split('\n')) {
    if (line === RUN_MARK) drawn.push([]);
    else drawn.at(-1)?.push(line);
  }
  return drawn.map((lines) => lines.join('\n').replace(/\s+$/, ''));
}

/**
 * Draws transcript units once, as text for the terminal's scrollback, each with a blank line
 * after it, at the terminal's width: parts of agents' messages are their Markdown lines (laid out
 * already while they were live), prompts, tool cards, plans and notices their lines (the ones their
 * components draw), and what only components draw (thoughts, diffs, terminals) goes through Ink.
 *
 * @example
 * write(renderUnits(units, { columns: 100, theme, bindings, showThoughts: false, expanded: false }));
 */
export function renderUnits(units: readonly TranscriptUnit[], options: PrintOptions): string {
  // Units drawn as lines (unit-lines.ts) are text at once; consecutive others are one run, and the
  // runs are drawn together through Ink.
  const layout = {
    width: options.columns,
    theme: options.theme,
    bindings: options.bindings,
    cwd: options.cwd,
    expanded: options.expanded,
    highlighter: options.highlighter,
  };
  const parts: (readonly TranscriptUnit[] | string)[] = [];
  const runs: TranscriptUnit[][] = [];
  for (const unit of units) {
    const lines = unitLines(unit, layout);
    if (lines) {
      // As Ink leaves a unit drawn alone: its rows without blank ones at the end, then a blank line.
      while (lines.at(-1) === '') lines.pop();
      parts.push(lines.length > 0 ? `${lines.join('\n')}\n\n` : '');
      continue;
    }
    const last = parts.at(-1);
    if (Array.isArray(last)) (last as TranscriptUnit[]).push(unit);
    else {
      const run = [unit];
      runs.push(run);
      parts.push(run);
    }
  }
  const drawn = runs.length > 0 ? renderWithInk(runs, options) : [];
  let out = '';
  let run = 0;
  for (const part of parts) out += typeof part === 'string' ? part : `${drawn[run++] ?? ''}\n\n`;
  return out;
}
