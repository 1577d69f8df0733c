/**
 * The terminal UI once its first frame is drawn: what dist/start.cjs (start.ts) loads as an ES
 * module after drawing it. It starts the drawing's agent, loading only the client's launch code
 * for it, then loads and runs the UI, which replaces the drawing in one write; its errors are
 * reported as `acp` reports every error.
 */
import type { EarlyDrawing, TuiArguments } from '@acp-kit/tui/entry';
import { startDrawnAgent } from '@acp-kit/tui/early-start';
import type { CliIo } from './io.js';

/** {@link afterFrame}'s type, for start.ts (which imports it at run time, as an ES module). */
export type AfterFrame = typeof afterFrame;

/**
 * Runs the UI for `args` after `drawing` (undefined when drawing failed: the UI's own start then
 * meets the problem and reports it); resolves with the exit code.
 */
export async function afterFrame(
  args: TuiArguments,
  drawing: EarlyDrawing | undefined,
  io: CliIo,
): Promise<number> {
  const tuiIo = { self: io.self, env: io.env };
  try {
    // The agent first: its own start then overlaps the loading of the UI's modules.
    const early = drawing ? await startDrawnAgent(drawing) : undefined;
    const { runStartedTui, tuiMain } = await import('@acp-kit/tui/entry');
    return await (early ? runStartedTui(args, early, tuiIo) : tuiMain(args, tuiIo));
  } catch (error) {
    const { reportError } = await import('./errors.js');
    return reportError(error, io);
  }
}
