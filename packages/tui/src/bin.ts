/**
 * Development launcher of the terminal UI, before the `acp` command wires it:
 * `node --conditions=@acp-kit/source --import tsx packages/tui/src/bin.ts [--agent demo] …`.
 * The demo and acp-kit agents are run through the CLI's source with the same node flags.
 */
import { fileURLToPath } from 'node:url';
import type { LaunchSpec } from '@acp-kit/client';
import { tuiMain } from './bin-entry.js';

const LOADER_FLAG = /^(--import|--require|-r|--loader|--experimental-loader)$/;
const KEPT_FLAG = /^(--conditions|-C)$/;

/** This process's loader and condition flags, with loaders resolved so they work from any directory. */
function replayableExecArgv(): string[] {
  const out: string[] = [];
  const argv = process.execArgv;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const eq = arg.indexOf('=');
    const flag = eq >= 0 ? arg.slice(0, eq) : arg;
    if (!LOADER_FLAG.test(flag) && !KEPT_FLAG.test(flag)) continue;
    let value = eq >= 0 ? arg.slice(eq + 1) : argv[++i];
    if (value === undefined) break;
    if (LOADER_FLAG.test(flag) && !/^[./]|^[a-z]+:/i.test(value)) {
      try {
        value = import.meta.resolve(value);
      } catch {
        // Keep the specifier as given.
      }
    }
    out.push(`${flag}=${value}`);
  }
  return out;
}

const cli = fileURLToPath(new URL('../../cli/src/cli.ts', import.meta.url));
const self: LaunchSpec = { command: process.execPath, args: [...replayableExecArgv(), cli] };
process.exitCode = await tuiMain(process.argv.slice(2), { self });
