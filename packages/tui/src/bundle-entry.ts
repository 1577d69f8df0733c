/**
 * Entry of the single-file production bundle (`scripts/bundle.mjs`): the UI's public start API,
 * and when the file is run directly (`node acp-tui.mjs [--agent NAME] [--cwd DIR] [--resume ID]
 * [-- CMD ARGS]`, what the benchmarks do), the UI itself. `acp` parses these options with its own
 * command line; run directly, Node's standard `parseArgs` reads the same four.
 */
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { tuiMain, type TuiArguments } from './bin-entry.js';

export { runTui, type TuiOptions } from './app/run-tui.js';
export { terminalProblem, tuiMain, type TuiArguments, type TuiMainIo } from './bin-entry.js';

function isMain(): boolean {
  const script = process.argv[1];
  if (!script) return false;
  try {
    return realpathSync(script) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

/** The bundle's own arguments; throws a TypeError naming an unknown or incomplete option. */
function argumentsOf(argv: readonly string[]): TuiArguments {
  const split = argv.indexOf('--');
  const { values } = parseArgs({
    args: split >= 0 ? argv.slice(0, split) : [...argv],
    options: { agent: { type: 'string' }, cwd: { type: 'string' }, resume: { type: 'string' } },
    strict: true,
  });
  const command = split >= 0 ? argv.slice(split + 1) : [];
  return { ...values, ...(command.length > 0 ? { command } : {}) };
}

if (isMain()) {
  let args: TuiArguments | undefined;
  try {
    args = argumentsOf(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(
      `acp: ${(error as Error).message}\nhint: node acp-tui.mjs [--agent NAME] [--cwd DIR] [--resume ID] [-- CMD ARGS]\n`,
    );
    process.exitCode = 2;
  }
  if (args) process.exitCode = await tuiMain(args);
}
