/**
 * What `acp --agent NAME` and `acp` draw before the terminal UI is loaded (most of the UI's start
 * is compiling and running its modules): read the settings and the catalog, and draw the screen
 * the UI's first frame will draw (session-chrome.ts, picker-chrome.ts). What it returns is data
 * (and one function): the installed `acp` draws it from its CommonJS start (dist/start.cjs, with
 * V8's code cache) and hands it to the ES module UI, which starts the agent (early-start.ts) and
 * replaces the drawing with its first frame in one write.
 */
import { resolve } from 'node:path';
import {
  AgentCatalog,
  resolveClientPaths,
  sharedPassEnv,
  type AgentLaunch,
  type DetectedAgent,
  type LaunchSpec,
} from '@acp-kit/client/launch';
import { orderAgents } from '../app/components/agent-items.js';
import type { HintKeys } from '../app/components/key-hints.js';
import { loadSettings, settingsPath } from '../app/settings/settings-file.js';
import { keyLabel, resolveKeyBindings, type KeyAction } from '../keys/key-bindings.js';
import { resolveTheme } from '../theme/theme.js';
import { pickerChrome } from './picker-chrome.js';
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

/** What was drawn before the UI was loaded, for the UI to take over. */
export interface EarlyDrawing {
  /** The lines drawn at the cursor, and the terminal's width then. */
  readonly drawn?: { readonly lines: number; readonly columns: number };
  /** The catalog's agents with their installed state, as `acp`'s picker was drawn with them. */
  readonly agents?: readonly DetectedAgent[];
  /** The agent of `--agent NAME`, to start at once (`startEarlyAgent`). */
  readonly launch?: AgentLaunch;
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

const NOTHING: EarlyDrawing = { takeOver: () => undefined };

/** The labels of the keys the hint line names, from the settings' key bindings. */
export function hintKeys(keys: Readonly<Record<string, string | readonly string[]>>): HintKeys {
  const bindings = resolveKeyBindings(keys).bindings;
  const label = (action: KeyAction): string => keyLabel(bindings, action);
  return {
    menu: label('app.menu'),
    cancel: label('app.cancel'),
    restart: label('app.restart'),
    newTab: label('app.newTab'),
  };
}

/**
 * Draws the first frame of `acp` (the agent picker, with the catalog's agents found) or of
 * `acp --agent NAME` (the session screen; its agent's launch is returned, to start at once); does
 * nothing for other starts (`--resume`, `--url`, a command), which the UI draws itself.
 */
export async function drawEarly(args: EarlyArguments, io: EarlyIo): Promise<EarlyDrawing> {
  if (args.url !== undefined || args.command || args.resume !== undefined) return NOTHING;
  const paths = resolveClientPaths(io.env);
  const [{ settings }, catalog] = await Promise.all([
    loadSettings(settingsPath(paths.configDir)),
    AgentCatalog.load({ agentsFile: paths.agentsFile, env: io.env, ...(io.self ? { self: io.self } : {}) }),
  ]);
  const entry = args.agent !== undefined ? catalog.get(args.agent) : undefined;
  // An unknown agent opens the picker with a message: the UI draws that.
  if (args.agent !== undefined && !entry) return NOTHING;
  const look = {
    columns: io.stdout.columns || 80,
    rows: io.stdout.rows || 24,
    theme: resolveTheme(settings.theme, io.env),
    keys: hintKeys(settings.keys),
  };
  const agents = entry ? undefined : orderAgents(await catalog.detectAll());
  const lines = entry
    ? sessionChrome({ ...look, agentName: entry.name, now: Date.now() })
    : pickerChrome({
        ...look,
        agents: agents ?? [],
        defaultAgent: catalog.defaultAgent,
        problems: catalog.problems,
      });
  let drawn: EarlyDrawing['drawn'];
  let takenOver = false;
  if (lines) {
    io.stdout.write(`${HIDE_CURSOR}${lines.join('\n')}\n`);
    drawn = { lines: lines.length, columns: look.columns };
    // Until the UI takes over: the cursor comes back if it never does, and keys typed meanwhile
    // wait for the UI instead of being echoed over the drawing.
    process.once('exit', () => {
      if (!takenOver) io.stdout.write(SHOW_CURSOR);
    });
    io.stdin.setRawMode?.(true);
  }
  const launch: AgentLaunch | undefined =
    entry && entry.url === undefined
      ? {
          spec: entry,
          cwd: resolve(args.cwd ?? process.cwd()),
          env: io.env,
          passEnv: sharedPassEnv(catalog.passEnv, io.env),
        }
      : undefined;
  return {
    ...(drawn ? { drawn } : {}),
    ...(agents ? { agents } : {}),
    ...(launch ? { launch } : {}),
    takeOver: () => void (takenOver = true),
  };
}
