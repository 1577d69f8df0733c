/**
 * The whole application under ink-testing-library: the real controller and engine, the scripted
 * agent as a child process (in the catalog as "Scenario"), temp config, data and workspace.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveClientPaths } from '@acp-kit/client';
import { AppRoot } from '../app/components/AppRoot.js';
import { createScreen } from '../app/screen.js';
import { Controller } from '../app/services/controller.js';
import { AppStore } from '../app/state/app-store.js';
import {
  makeScenarioDirs,
  scenarioEnv,
  type HarnessDirs,
  type ScenarioDirsOptions,
} from '../e2e/tmux-harness.js';
import { flat, renderInk, settle, type Rendered } from './ink.js';

/** A started application. */
export interface AppFlow {
  readonly r: Rendered;
  readonly controller: Controller;
  readonly dirs: HarnessDirs;
  /** Unmounts, quits (closing the agents) and removes the directories. */
  close(): Promise<void>;
}

/** Options of {@link startApp}; `agent` and `files` as in {@link makeScenarioDirs}. */
export interface AppFlowOptions extends ScenarioDirsOptions {
  /** `tui.json`. */
  readonly settings?: object;
  /** Added to the environment of the app (and so of the agents and helper tools); may name files in the run's directories. */
  readonly env?: (dirs: HarnessDirs) => Readonly<Record<string, string>>;
  /** Start on the agent picker (the default), or on an empty screen for a test that opens the agent itself. */
  readonly picker?: boolean;
}

/**
 * Starts the app, on the agent picker unless `picker` is false.
 *
 * @example
 * const app = await startApp({ env: () => ({ SCENARIO_IMAGES: '1' }) });
 * await openScenario(app.r);
 */
export async function startApp(options: AppFlowOptions = {}): Promise<AppFlow> {
  const dirs = makeScenarioDirs(options);
  if (options.settings) writeFileSync(join(dirs.config, 'tui.json'), JSON.stringify(options.settings));
  const store = new AppStore();
  const controller = await Controller.create({
    store,
    paths: resolveClientPaths({ ACP_KIT_CONFIG_DIR: dirs.config, ACP_KIT_DATA_DIR: dirs.data }),
    cwd: dirs.workspace,
    env: { ...process.env, ...scenarioEnv(dirs), ...options.env?.(dirs) },
    handover: { run: (work) => work() },
  });
  if (options.picker ?? true)
    store.dispatch({ type: 'overlay_opened', overlay: { kind: 'agents', purpose: 'start' } });
  const screen = createScreen(controller, () => 100);
  const r = renderInk(<AppRoot controller={controller} onWriter={screen.setWriter} armDelayMs={0} />);
  return {
    r,
    controller,
    dirs,
    async close() {
      r.unmount();
      await controller.quit(0);
      rmSync(dirs.root, { recursive: true, force: true, maxRetries: 20, retryDelay: 50 });
    },
  };
}

/** Options of {@link waitFrame} and {@link waitLast}. */
export interface WaitOptions {
  /** Search only the frames from this index on (`r.stdout.frames.length` before an action). */
  readonly from?: number;
  readonly timeoutMs?: number;
}

/** Polls the text `read` returns until it shows `match`; throws with the last frame after the timeout. */
async function waitText(
  r: Rendered,
  read: () => string,
  match: string | RegExp,
  timeoutMs = 15_000,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const text = flat(read());
    if (typeof match === 'string' ? text.includes(match) : match.test(text)) {
      // The frame is drawn at commit; its input handlers are attached in effects right after.
      await settle();
      return text;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${String(match)}:\n${r.frame()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Waits until `match` was drawn: in the live frame or in the transcript the printer wrote (with
 * ink-testing-library every write is a frame, so the whole output is searched, or the frames
 * drawn since `from`). Returns the text searched, flattened.
 */
export function waitFrame(r: Rendered, match: string | RegExp, options: WaitOptions = {}): Promise<string> {
  return waitText(r, () => r.stdout.frames.slice(options.from ?? 0).join('\n'), match, options.timeoutMs);
}

/** Waits until the last frame shows `match`; returns it, flattened. */
export function waitLast(
  r: Rendered,
  match: string | RegExp,
  options: Omit<WaitOptions, 'from'> = {},
): Promise<string> {
  return waitText(r, () => r.frame(), match, options.timeoutMs);
}

/**
 * Picks the scripted agent in the agent picker and waits for its session (unless `connected` is
 * false); returns the picker's hotkey for it.
 */
export async function openScenario(r: Rendered, connected = true): Promise<string> {
  const hotkey = /(\d) Scenario/.exec(await waitFrame(r, 'Choose an agent'))?.[1] as string;
  await r.press(hotkey);
  if (connected) await waitFrame(r, 'Connected to scenario: new session');
  return hotkey;
}
