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
import { makeDirs, SCENARIO_AGENT, type HarnessDirs } from '../e2e/tmux-harness.js';
import { flat, renderInk, settle, type Rendered } from './ink.js';

/** A started application. */
export interface AppFlow {
  readonly r: Rendered;
  readonly controller: Controller;
  readonly dirs: HarnessDirs;
  /** Unmounts, quits (closing the agents) and removes the directories. */
  close(): Promise<void>;
}

/** Options of {@link startApp}. */
export interface AppFlowOptions {
  /** `tui.json`. */
  readonly settings?: object;
  /** Added to the environment of the app (and so of the agents and helper tools); may name files in the run's directories. */
  readonly env?: (dirs: HarnessDirs) => Readonly<Record<string, string>>;
}

/**
 * Starts the app on the agent picker.
 *
 * @example
 * const app = await startApp({ env: () => ({ SCENARIO_IMAGES: '1' }) });
 * await app.r.press(/(\d) Scenario/.exec(await waitFrame(app.r, 'Choose an agent'))?.[1] ?? '');
 */
export async function startApp(options: AppFlowOptions = {}): Promise<AppFlow> {
  const dirs = makeDirs();
  if (options.settings) writeFileSync(join(dirs.config, 'tui.json'), JSON.stringify(options.settings));
  writeFileSync(
    join(dirs.config, 'agents.json'),
    JSON.stringify({
      agents: { scenario: { name: 'Scenario', command: process.execPath, args: [SCENARIO_AGENT] } },
    }),
  );
  const store = new AppStore();
  const controller = await Controller.create({
    store,
    paths: resolveClientPaths({ ACP_KIT_CONFIG_DIR: dirs.config, ACP_KIT_DATA_DIR: dirs.data }),
    cwd: dirs.workspace,
    env: { ...process.env, SCENARIO_STATE: join(dirs.root, 'agent-state'), ...options.env?.(dirs) },
    handover: { run: (work) => work() },
  });
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

/**
 * Waits until `match` was drawn: in the live frame or in the transcript the printer wrote (with
 * ink-testing-library every write is a frame, so the whole output is searched).
 */
export async function waitFrame(r: Rendered, match: string | RegExp, timeoutMs = 15_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const frame = flat(r.stdout.frames.join('\n'));
    if (typeof match === 'string' ? frame.includes(match) : match.test(frame)) {
      // The frame is drawn at commit; its input handlers are attached in effects right after.
      await settle();
      return frame;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${String(match)}:\n${r.frame()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Picks the scripted agent in the agent picker and waits for its session. */
export async function openScenario(r: Rendered, connected = true): Promise<void> {
  const hotkey = /(\d) Scenario/.exec(await waitFrame(r, 'Choose an agent'))?.[1] as string;
  await r.press(hotkey);
  if (connected) await waitFrame(r, 'Connected to scenario: new session');
}
