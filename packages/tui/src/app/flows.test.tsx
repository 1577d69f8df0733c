/**
 * Flows through the whole application with ink-testing-library: the real controller and engine,
 * the scripted agent as a child process, keys pressed on the rendered app.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { NOTES } from '../e2e/tmux-harness.js';
import {
  openScenario,
  startApp,
  waitFrame,
  waitLast,
  type AppFlow,
  type AppFlowOptions,
} from '../test-support/app-flow.js';
import { KEYS, expectSafeFrame, flat } from '../test-support/ink.js';

let app: AppFlow | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** The app on the agent picker; the scripted agent has a sign-in hint, `notes.txt` is in the workspace. */
async function start(options: AppFlowOptions = {}): Promise<AppFlow> {
  app = await startApp({
    agent: { authHint: 'run `scenario --login`' },
    files: { 'notes.txt': NOTES },
    ...options,
  });
  return app;
}

describe('the app', () => {
  it('picks an agent, answers a permission with a remembered rule, reviews a write, lists the rule', async () => {
    const { r, controller, dirs } = await start();
    const picker = await waitFrame(r, 'Choose an agent');
    expect(picker).toContain('d acp-kit demo agent [demo · no model]');
    await openScenario(r);
    await r.type('edit notes.txt');
    await r.press(KEYS.enter);
    await waitFrame(r, 'Permission requested');
    await r.press('r', 'r');
    expect(await waitFrame(r, 'Remember: as a saved rule for this project')).toContain('Edit notes.txt');
    await r.press('y');
    await waitFrame(r, 'Review write to notes.txt · 3 hunks');
    await r.press('n', 'y', 'y', KEYS.enter);
    const told = await waitFrame(r, /write result: error: The user accepted 2 of 3 changes/);
    expect(told).toContain('rejected the changes at line 2');
    expect(readFileSync(join(dirs.workspace, 'notes.txt'), 'utf8')).toContain('line 11 (changed)');
    expect(readFileSync(join(dirs.workspace, 'notes.txt'), 'utf8')).not.toContain('line 2 (changed)');
    expect(controller.rules).toMatchObject([{ action: 'allow', kinds: ['edit'], project: dirs.workspace }]);

    await r.press(KEYS.ctrl('x'));
    await waitFrame(r, 'Menu');
    await r.press('p');
    const rules = await waitFrame(r, 'Permission rules · base mode: ask');
    expect(rules).toContain('allow edit');
    await r.press('d', 'd');
    await waitFrame(r, 'No saved rules');
    expect(controller.rules).toEqual([]);
    expectSafeFrame(r.frame());
  }, 30_000);

  it('reviews a change shown in the permission right there: one decision, no second review', async () => {
    const { r, dirs } = await start();
    await openScenario(r);
    await r.type('patch notes.txt');
    await r.press(KEYS.enter);
    const asked = await waitFrame(r, 'h review the changes hunk by hunk');
    expect(asked).toContain('notes.txt:2 +3 -3');
    await r.press('h');
    await waitLast(r, /Review write to notes\.txt · 3 hunks[\s\S]*Enter allow accepted · Esc back/);
    // Esc goes back to the question (it does not cancel the turn).
    await r.press(KEYS.escape);
    await waitLast(r, 'h review the changes hunk by hunk');
    await r.press('h');
    await waitLast(r, 'Review write to notes.txt · 3 hunks');
    await r.press('n', 'y', 'y', KEYS.enter);
    const told = await waitFrame(r, /write result: error: Only part of the write/);
    // No second step: the write review of its own (ReviewModal) never showed.
    expect(told).not.toContain('The agent wants to write');
    const notes = readFileSync(join(dirs.workspace, 'notes.txt'), 'utf8');
    expect(notes).toContain('line 11 (changed)');
    expect(notes).not.toContain('line 2 (changed)');

    // Allowed as shown: written as shown, nothing asked after the permission.
    const from = r.stdout.frames.length;
    await r.type('patch notes.txt');
    await r.press(KEYS.enter);
    await waitLast(r, 'h review the changes hunk by hunk');
    await r.press('y');
    expect(await waitFrame(r, 'write result: ok', { from })).not.toContain('The agent wants to write');
    expect(readFileSync(join(dirs.workspace, 'notes.txt'), 'utf8')).toContain('line 2 (changed)');
  }, 30_000);

  it('switches modes with Shift+Tab and the mode picker, and shows the session in the status bar', async () => {
    const { r } = await start();
    await openScenario(r, false);
    await waitFrame(r, /connected │ Scenario agent 1\.0 │ Ask/);
    await r.press(KEYS.shiftTab);
    await waitFrame(r, /connected │ Scenario agent 1\.0 │ Code/);
    await r.press(KEYS.ctrl('x'));
    await waitFrame(r, 'Menu');
    await r.press('m');
    await waitFrame(r, 'Code [current]');
    await r.press('1');
    await waitFrame(r, /connected │ Scenario agent 1\.0 │ Ask/);
    await r.press(KEYS.ctrl('x'), 't');
    const settings = await waitFrame(r, 'Theme: dark');
    expect(settings).toContain('Review agent writes hunk by hunk: changed');
  }, 30_000);

  it('shows a stalled turn with its silence and restarts the agent on Ctrl+R', async () => {
    const { r } = await start({ settings: { stallSeconds: 1 } });
    await openScenario(r);
    await r.type('hang');
    await r.press(KEYS.enter);
    await waitFrame(r, 'ignoring cancel');
    const stalled = await waitFrame(r, /⚠ no updates for \d+ s · Esc to cancel/);
    expect(stalled).toContain('Ctrl+R restart the agent');
    await r.press(KEYS.ctrl('r'));
    await waitFrame(r, 'Connected to scenario: session loaded by the agent');
    await waitFrame(r, 'Message · / for commands');
    await r.type('ok');
    await r.press(KEYS.enter);
    await waitFrame(r, 'You said: ok');
  }, 30_000);

  it('gives the MCP servers again to the session reattached after a restart', async () => {
    const { r } = await start({
      settings: { stallSeconds: 1, mcpServers: { files: { command: 'mcp-files' } } },
    });
    await openScenario(r);
    await r.type('mcp');
    await r.press(KEYS.enter);
    await waitFrame(r, 'MCP servers given: files');
    await r.type('hang');
    await r.press(KEYS.enter);
    await waitFrame(r, /⚠ no updates for \d+ s · Esc to cancel/);
    await r.press(KEYS.ctrl('r'));
    await waitFrame(r, 'Connected to scenario: session loaded by the agent');
    await r.type('mcp again');
    await r.press(KEYS.enter);
    expect(await waitFrame(r, /MCP servers given \(again\): \w+/)).toContain(
      'MCP servers given (again): files',
    );
  }, 30_000);

  it('signs in with a typed API key: masked, refused when wrong, connected when right', async () => {
    const { r } = await start({ env: () => ({ SCENARIO_AUTH: '1' }) });
    await openScenario(r, false);
    const dialog = await waitFrame(r, 'Scenario needs you to sign in');
    expect(dialog).toContain('4 Typed key [asks for your key]');
    await r.press('4');
    await waitFrame(r, 'Typed key: enter your Scenario API key');
    await r.type('sk-wrong');
    await waitFrame(r, '(8 characters)');
    await r.press(KEYS.enter);
    await waitFrame(r, 'Typed key did not sign you in');
    expect(flat(r.stdout.frames.join('\n'))).not.toContain('sk-wrong');
    await r.press('4');
    await waitFrame(r, 'Typed key: enter your Scenario API key');
    await r.type('sk-scenario-good');
    await r.press(KEYS.enter);
    await waitFrame(r, 'Connected to scenario: new session');
    await waitFrame(r, 'Message · / for commands');
    await r.type('in');
    await r.press(KEYS.enter);
    await waitFrame(r, 'You said: in');
    expect(flat(r.stdout.frames.join('\n'))).not.toContain('sk-scenario-good');
  }, 30_000);

  it('keeps saying which credentials were held back after a sign-in attempt they may explain', async () => {
    const { r } = await start({ env: () => ({ SCENARIO_AUTH: '1', OPENAI_API_KEY: 'not-for-this-agent' }) });
    await openScenario(r, false);
    await waitFrame(r, 'Scenario needs you to sign in');
    const heldBack = /Held back from\s+this agent:\s[^(]*OPENAI_API_KEY/;
    // The dialog wraps its lines inside a box: read them as one text.
    const dialog = (): string => flat(r.frame()).replace(/\s*│\s*/g, ' ');
    expect(dialog()).toMatch(heldBack);
    await r.press('4');
    await waitFrame(r, 'Typed key: enter your Scenario API key');
    await r.type('sk-wrong');
    await r.press(KEYS.enter);
    await waitFrame(r, 'Typed key did not sign you in');
    expect(dialog()).toMatch(heldBack);
    expect(flat(r.stdout.frames.join('\n'))).not.toContain('not-for-this-agent');
  }, 30_000);

  it('shows why a session could not be opened, with the sign-in hint, and what can be done', async () => {
    const { r } = await start({ env: () => ({ SCENARIO_NEW_ERROR: '1' }) });
    await openScenario(r, false);
    const panel = await waitFrame(r, 'Could not open the session with Scenario');
    await waitFrame(r, 'scenario backend exited with code 1');
    // The hint's code span as code, without its backticks.
    expect(flat(r.frame())).toContain('If Scenario needs you to sign in: run scenario --login');
    expect(panel).toContain('r try again');
  }, 30_000);

  it('shows the session facts: agent, ids, directory, MCP servers passed to it', async () => {
    const { r } = await start({
      settings: { mcpServers: { files: { command: 'mcp-files', env: { TOKEN: 'secret-value' } } } },
    });
    await openScenario(r);
    await r.press(KEYS.ctrl('x'), 'i');
    const info = await waitFrame(r, 'MCP servers');
    expect(info).toContain('MCP servers files');
    await r.press(KEYS.escape, KEYS.ctrl('x'), 't');
    const settings = await waitFrame(r, 'MCP files');
    expect(settings).toContain('env: TOKEN');
    expect(settings).not.toContain('secret-value');
  }, 30_000);
});
