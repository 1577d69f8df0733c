/**
 * Form elicitations through the whole application with ink-testing-library: the scripted agent
 * sends `elicitation/create`, the engine asks the controller, the form is filled in by keyboard,
 * and the agent reports the answer it got.
 */
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { startApp, waitFrame, type AppFlow } from '../test-support/app-flow.js';
import { KEYS, expectSafeFrame, flat, type Rendered } from '../test-support/ink.js';

let app: AppFlow | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** Polls a condition of the engine's state (bounded). */
async function until(condition: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for a condition');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** An agent on the official SDK's experimental v2 API (the protocol interop suite's). */
const SDK_V2_AGENT = {
  command: process.execPath,
  args: [
    fileURLToPath(new URL('../../../protocol/test/interop/fixtures/sdk-v2-agent.mjs', import.meta.url)),
    'v2',
  ],
};

/** The app with the scripted agent (or `agent` in its place) opened by the controller (no picker). */
async function start(agent?: Readonly<Record<string, unknown>>): Promise<AppFlow> {
  app = await startApp({ picker: false, ...(agent ? { agent } : {}) });
  const entry = app.controller.client.catalog.get('scenario');
  if (!entry) throw new Error('the scenario agent is not in the catalog');
  app.controller.openAgent(entry);
  await waitFrame(app.r, 'Connected to scenario: new session');
  return app;
}

/** Sends a prompt and waits for the form it makes the agent ask for; returns what was drawn. */
async function ask(r: Rendered, prompt: string): Promise<string> {
  const from = r.stdout.frames.length;
  await r.type(prompt);
  await r.press(KEYS.enter);
  return waitFrame(r, /Input requested by Scenario agent.*Esc decline/, { from });
}

describe('form elicitation through the engine', () => {
  it('fills in a form by keyboard and the agent gets exactly the accepted content', async () => {
    const { r, controller } = await start();
    const form = await ask(r, 'elicit');
    expect(form).toContain('The deploy tool needs a few details.');
    expect(form).toContain('⚑ 1 form waiting');
    expect(form).toMatch(/1 Scenario agent\s+⚑/);
    await r.type('Ada');
    await r.press(KEYS.tab, KEYS.backspace);
    await r.type('3');
    await r.press(KEYS.tab, KEYS.right); // production
    await r.press(KEYS.tab, ' ', KEYS.right, ' '); // both regions
    await r.press(KEYS.tab, ' '); // notify
    await r.press(KEYS.enter);
    const told = await waitFrame(r, 'elicit result: accept');
    expect(told).toContain(
      'elicit result: accept name="Ada" replicas=3 environment="production" regions=["eu-west-1","us-east-1"] notify=true',
    );
    expect(told).toContain('The deploy tool needs a few details. → accept');
    expect(controller.store.getSnapshot().elicitations).toEqual([]);
    expect(flat(r.frame())).not.toContain('Input requested');
    expectSafeFrame(r.frame());
  }, 30_000);

  it('keeps the session keys the form does not use: the menu covers it, and it comes back as left', async () => {
    const { r, controller } = await start();
    await ask(r, 'elicit');
    await r.type('Ad');
    // Shift+Tab is the form's (previous field), not the session's next mode.
    await r.press(KEYS.shiftTab);
    let from = r.stdout.frames.length;
    await r.press(KEYS.ctrl('x'));
    await waitFrame(r, 'Menu', { from });
    expect(controller.store.getSnapshot().elicitations).toHaveLength(1);
    from = r.stdout.frames.length;
    await r.press(KEYS.escape);
    const back = await waitFrame(r, /Input requested by Scenario agent.*Esc decline/, { from });
    // As it was left: the focus on Submit (and "Ad" typed, see the answer below).
    expect(back).toContain('❯ Submit');
    expect(controller.active?.session?.state.modes?.currentModeId).toBe('ask');
    await r.press(KEYS.shiftTab, KEYS.shiftTab, KEYS.shiftTab, KEYS.shiftTab, KEYS.shiftTab);
    await r.type('a');
    await r.press(KEYS.tab, KEYS.tab, KEYS.tab, ' ', KEYS.ctrl('s'));
    await waitFrame(
      r,
      'elicit result: accept name="Ada" replicas=2 environment="staging" regions=["eu-west-1"] notify=false',
    );
  }, 30_000);

  it('declines with Esc; a form the agent withdraws disappears; cancelling the turn cancels its form', async () => {
    const { r, controller } = await start();
    await ask(r, 'elicit');
    await r.press(KEYS.escape);
    await waitFrame(r, 'The deploy tool needs a few details. → decline');
    await waitFrame(r, 'elicit result: decline');
    // The Esc that declined did not cancel the turn too.
    await until(() => controller.active?.session?.state.status === 'idle');
    expect(controller.active?.session?.state.lastStopReason).toBe('end_turn');

    let from = r.stdout.frames.length;
    await r.type('elicit withdraw');
    await r.press(KEYS.enter);
    // The engine answers the withdrawn request itself: the form is cancelled.
    await waitFrame(r, 'elicit result: cancel', { from });
    expect(controller.store.getSnapshot().elicitations).toEqual([]);
    expect(flat(r.frame())).not.toContain('Input requested');

    await ask(r, 'elicit');
    from = r.stdout.frames.length;
    expect(controller.cancel()).toBe('cancelled');
    await waitFrame(r, 'The deploy tool needs a few details. → cancel', { from });
    expect(controller.store.getSnapshot().elicitations).toEqual([]);
  }, 30_000);

  it('shows the same form for a v2 agent, and the agent gets the answer', async () => {
    const { r, controller } = await start(SDK_V2_AGENT);
    expect(controller.active?.connection?.protocolVersion).toBe(2);
    const from = r.stdout.frames.length;
    await r.type('form');
    await r.press(KEYS.enter);
    await waitFrame(r, /Input requested by sdk-v2-interop-agent.*Which branch\?.*Esc decline/, { from });
    // The status bar's count may be drawn a frame after the form (a second store change).
    await waitFrame(r, '⚑ 1 form waiting', { from });
    await r.type('main');
    await r.press(KEYS.ctrl('s'));
    await waitFrame(r, 'form: accept {"branch":"main"}');
    await waitFrame(r, 'Which branch? → accept');
    expect(controller.store.getSnapshot().elicitations).toEqual([]);
  }, 30_000);
});
