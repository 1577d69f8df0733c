/**
 * What `acp --agent NAME` and `acp` do before the terminal UI is loaded: draw its first frame
 * (early-draw.ts) and start the agent, whose own start then runs in another process while the UI
 * loads (`@acp-kit/tui/early-start`: this module needs only the client's launch code, so that the
 * agent starts before the UI's modules are read). The UI replaces the drawing with its first frame
 * in one write, its connection takes the agent's process (see `startEarlyAgent`), and its picker
 * shows the agents found while drawing.
 */
import { startEarlyAgent, type DetectedAgent, type EarlyAgent } from '@acp-kit/client/launch';
import type { EarlyDrawing } from './early-draw.js';

export type { EarlyArguments, EarlyDrawing, EarlyIo } from './early-draw.js';

/** What was done before the UI was loaded, for the UI to take over. */
export interface EarlyStart {
  /** The lines drawn at the cursor, and the terminal's width then. */
  readonly drawn?: { readonly lines: number; readonly columns: number };
  /** The agent of `--agent NAME`, started. */
  readonly agent?: EarlyAgent;
  /** The catalog's agents with their installed state, as `acp`'s picker was drawn with them. */
  readonly agents?: readonly DetectedAgent[];
  /** The UI draws now: the drawing is its to replace (and the cursor its to show again). */
  takeOver(): void;
}

/**
 * Starts the agent the drawing was made for (`--agent NAME`), if any: what the UI then takes over.
 * An agent that cannot start (not installed, ...) is left to the UI's own start, which reports it.
 */
export async function startDrawnAgent(drawing: EarlyDrawing): Promise<EarlyStart> {
  const agent = drawing.launch ? await startEarlyAgent(drawing.launch).catch(() => undefined) : undefined;
  return {
    ...(drawing.drawn ? { drawn: drawing.drawn } : {}),
    ...(agent ? { agent } : {}),
    ...(drawing.agents ? { agents: drawing.agents } : {}),
    takeOver: drawing.takeOver,
  };
}

/**
 * What the UI's first write starts with to replace the drawing: the erase of its lines, as Ink
 * erases its own previous frame; after a change of width (lines re-wrapped), a clear screen.
 */
export function takeOverPrefix(
  drawn: NonNullable<EarlyStart['drawn']>,
  columns: number,
  clear: string,
): string {
  if (drawn.columns !== columns) return clear;
  return `\x1b[2K${'\x1b[1A\x1b[2K'.repeat(drawn.lines)}\x1b[G`;
}
