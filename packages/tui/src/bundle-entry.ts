/**
 * Entry of the single-file production bundle (`scripts/bundle.mjs`): the UI's public start API,
 * and when the file is run directly (`node acp-tui.mjs [--agent NAME] …`), the UI itself.
 */
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tuiMain } from './bin-entry.js';

export { runTui, type TuiOptions } from './app/run-tui.js';
export { parseTuiArgs, tuiMain, TUI_USAGE, type TuiMainIo } from './bin-entry.js';

function isMain(): boolean {
  const script = process.argv[1];
  if (!script) return false;
  try {
    return realpathSync(script) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isMain()) process.exitCode = await tuiMain(process.argv.slice(2));
