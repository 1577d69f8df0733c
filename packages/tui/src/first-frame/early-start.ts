/**
 * What `acp --agent NAME` does before the terminal UI is loaded (most of the UI's start is
 * compiling and running its modules): it reads the settings and the catalog, draws the session
 * screen the UI's first frame will draw (session-chrome.ts), and starts the agent, whose own start
 * then runs in another process while the UI loads. The UI replaces the drawing with its first
 * frame in one write, and its connection takes the agent's process (see `startEarlyAgent`).
 */
import { resolve } from 'node:path';
import {
  AgentCatalog,
  resolveClientPaths,
  sharedPassEnv,
  startEarlyAgent,
  type EarlyAgent,
  type LaunchSpec,
} from '@acp-kit/client/launch';
import type { HintKeys } from '../app/components/key-hints.js';
import { loadSettings, settingsPath } from '../app/settings/settings-file.js';
import { resolveKeyBindings, type KeyAction } from '../keys/key-bindings.js';
import { formatKeySpec } from '../keys/key-spec.js';
import { resolveTheme } from '../theme/theme.js';
import { sessionChrome } from './session-chrome.js';

const HIDE_CURSOR = '\x1b[?25l';
const SHOW_CURSOR = '\x1b[?25h';

/** What the UI is asked to open (`acp`'s root options). */
export interface EarlyArguments {
  readonly agent?: string;
  readonly cwd?: string;
  readonly resume?: string;
  readonly command?: readonly string[];
  readonly url?: string;
}

/** What was done before the UI was loaded, for the UI to take over. */
export interface EarlyStart {
  /** The lines drawn at the cursor, and the terminal's width then. */
  readonly drawn?: { readonly lines: number; readonly columns: number };
  /** The agent of `--agent NAME`, started. */
  readonly agent?: EarlyAgent;
  /** The UI draws now: the drawing is its to replace (and the cursor its to show again). */
  takeOver(): void;
}

/** Where the early start draws and what it runs with. */
export interface EarlyIo {
  readonly env: NodeJS.ProcessEnv;
  readonly stdin: NodeJS.ReadStream;
  readonly stdout: NodeJS.WriteStream;
  /** How to run `acp` itself (the `demo` and `acp-kit` catalog agents). */
  readonly self?: LaunchSpec;
}

const NOTHING: EarlyStart = { takeOver: () => undefined };

/** Draws the session screen and starts the agent for `acp --agent NAME`; does nothing for other starts. */
export async function startEarly(args: EarlyArguments, io: EarlyIo): Promise<EarlyStart> {
  if (args.agent === undefined || args.url !== undefined || args.command || args.resume !== undefined)
    return NOTHING;
  const paths = resolveClientPaths(io.env);
  const [{ settings }, catalog] = await Promise.all([
    loadSettings(settingsPath(paths.configDir)),
    AgentCatalog.load({ agentsFile: paths.agentsFile, env: io.env, ...(io.self ? { self: io.self } : {}) }),
  ]);
  const entry = catalog.get(args.agent);
  // An unknown agent opens the picker with a message: the UI draws that.
  if (!entry) return NOTHING;
  const bindings = resolveKeyBindings(settings.keys).bindings;
  const label = (action: KeyAction): string => {
    const first = bindings[action][0];
    return first === undefined ? '' : formatKeySpec(first);
  };
  const keys: HintKeys = {
    menu: label('app.menu'),
    cancel: label('app.cancel'),
    restart: label('app.restart'),
    newTab: label('app.newTab'),
  };
  const columns = io.stdout.columns || 80;
  const lines = sessionChrome({
    columns,
    theme: resolveTheme(settings.theme, io.env),
    keys,
    agentName: entry.name,
    now: Date.now(),
  });
  let drawn: EarlyStart['drawn'];
  let takenOver = false;
  if (lines) {
    io.stdout.write(`${HIDE_CURSOR}${lines.join('\n')}\n`);
    drawn = { lines: lines.length, columns };
    // Until the UI takes over: the cursor comes back if it never does, and keys typed meanwhile
    // wait for the composer instead of being echoed over the drawing.
    process.once('exit', () => {
      if (!takenOver) io.stdout.write(SHOW_CURSOR);
    });
    io.stdin.setRawMode?.(true);
  }
  let agent: EarlyAgent | undefined;
  if (entry.url === undefined) {
    agent = await startEarlyAgent({
      spec: entry,
      cwd: resolve(args.cwd ?? process.cwd()),
      env: io.env,
      passEnv: sharedPassEnv(catalog.passEnv, io.env),
    }).catch(() => undefined); // not installed, cannot start: the UI's own start reports it
  }
  return {
    ...(drawn ? { drawn } : {}),
    ...(agent ? { agent } : {}),
    takeOver: () => void (takenOver = true),
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
