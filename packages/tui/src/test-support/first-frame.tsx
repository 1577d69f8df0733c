/**
 * For the tests of the first frame drawn before the UI loads (first-frame/): the UI's own first
 * frame for a given state, at a given terminal size, and the cells both come to in a terminal
 * emulator, so that they can be compared cell by cell.
 */
import { EventEmitter } from 'node:events';
import { render } from 'ink';
import { resolveClientPaths, type DetectedAgent } from '@acp-kit/client';
import { readScreen, type ScreenCell } from '../../../../scripts/ansi-svg.ts';
import { AppRoot } from '../app/components/AppRoot.js';
import { Controller } from '../app/services/controller.js';
import { loadSettings, settingsPath } from '../app/settings/settings-file.js';
import { AppStore } from '../app/state/app-store.js';
import type { HarnessDirs } from '../e2e/tmux-harness.js';
import type { HintKeys } from '../app/components/key-hints.js';
import { hintKeys } from '../first-frame/early-draw.js';
import { resolveTheme, type Theme } from '../theme/theme.js';

/** A stdout of a given size that keeps Ink's last frame (Ink in debug mode writes each frame whole). */
class FrameStdout extends EventEmitter {
  last = '';
  constructor(
    readonly columns: number,
    readonly rows: number,
  ) {
    super();
  }
  write = (frame: string): boolean => {
    this.last = frame;
    return true;
  };
}

/** The paths of a run's directories. */
export function dirsEnv(dirs: HarnessDirs): NodeJS.ProcessEnv {
  return { ACP_KIT_CONFIG_DIR: dirs.config, ACP_KIT_DATA_DIR: dirs.data };
}

/** Ink's first frame of the app in `dirs`, set up by `prepare`, on a terminal of `columns` × `rows`. */
export async function uiFirstFrame(
  dirs: HarnessDirs,
  size: { columns: number; rows: number },
  prepare: (store: AppStore) => void,
  startAgents?: readonly DetectedAgent[],
): Promise<string> {
  const store = new AppStore();
  const env = dirsEnv(dirs);
  const controller = await Controller.create({
    store,
    paths: resolveClientPaths(env),
    cwd: dirs.workspace,
    env,
    handover: { run: (work) => work() },
    ...(startAgents ? { startAgents } : {}),
  });
  prepare(store);
  const stdout = new FrameStdout(size.columns, size.rows);
  const stdin = Object.assign(new EventEmitter(), {
    isTTY: true,
    setRawMode: () => undefined,
    setEncoding: () => undefined,
    resume: () => undefined,
    pause: () => undefined,
    ref: () => undefined,
    unref: () => undefined,
    read: () => null,
  });
  const ink = render(<AppRoot controller={controller} />, {
    stdout: stdout as unknown as NodeJS.WriteStream,
    stdin: stdin as unknown as NodeJS.ReadStream,
    debug: true,
    exitOnCtrlC: false,
    patchConsole: false,
  });
  const frame = stdout.last;
  ink.unmount();
  await controller.quit(0);
  return frame;
}

/** The theme and hint keys of the settings in `dirs`, as the early start reads them. */
export async function lookOf(dirs: HarnessDirs): Promise<{ theme: Theme; keys: HintKeys }> {
  const { settings } = await loadSettings(settingsPath(dirs.config));
  return { theme: resolveTheme(settings.theme, {}), keys: hintKeys(settings.keys) };
}

/** The cells of a frame in a terminal emulator: characters and their resolved styles, by row. */
export async function cells(
  ansi: string,
  columns: number,
  rows: number,
): Promise<readonly (readonly ScreenCell[])[]> {
  return (await readScreen(ansi, { columns, rows })).lines;
}
