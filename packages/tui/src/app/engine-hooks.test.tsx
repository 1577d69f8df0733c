/**
 * The app on the engine's hooks, with ink-testing-library: write reviews attributed by session,
 * session rules on the rules screen, the rule a remembered answer creates, live traffic. The real
 * controller and engine, the scripted agent as a child process, keys pressed on the rendered app.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { NOTES } from '../e2e/tmux-harness.js';
import { openScenario, startApp, waitFrame, waitLast, type AppFlow } from '../test-support/app-flow.js';
import { KEYS, type Rendered } from '../test-support/ink.js';

let app: AppFlow | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** The app connected to the scripted agent, `notes.txt` in the workspace; `hotkey` picks the agent. */
async function start(): Promise<AppFlow & { hotkey: string }> {
  app = await startApp({ files: { 'notes.txt': NOTES } });
  return { ...app, hotkey: await openScenario(app.r) };
}

async function send(r: Rendered, text: string): Promise<void> {
  await r.type(text);
  await r.press(KEYS.enter);
}

describe('write review', () => {
  it('belongs to the tab whose session writes, when another tab runs in the same directory', async () => {
    const { r, controller, dirs, hotkey } = await start();
    const first = controller.store.getSnapshot().activeTabId as string;
    await send(r, 'hang');
    await waitFrame(r, 'ignoring cancel');
    await r.press(KEYS.ctrl('n'));
    await waitLast(r, 'New tab: choose an agent');
    await r.press(hotkey);
    await waitLast(r, /Message · \/ for commands/);
    const second = controller.store.getSnapshot().activeTabId as string;
    expect(second).not.toBe(first);
    await send(r, 'edit notes.txt');
    await waitLast(r, 'Permission requested');
    await r.press('y');
    await waitLast(r, 'Review write to notes.txt · 3 hunks');
    expect(controller.store.getSnapshot().reviews.map((review) => review.tabId)).toEqual([second]);
    await r.press('A', KEYS.enter);
    await waitFrame(r, 'write result: ok');
    expect(readFileSync(join(dirs.workspace, 'notes.txt'), 'utf8')).toContain('line 20 (changed)');
  }, 60_000);

  it('is withdrawn when the turn is cancelled, and the file stays as it was', async () => {
    const { r, controller, dirs } = await start();
    await send(r, 'edit notes.txt');
    await waitLast(r, 'Permission requested');
    await r.press('y');
    await waitLast(r, 'Review write to notes.txt');
    expect(controller.cancel()).toBe('cancelled');
    await waitFrame(
      r,
      /write result: error: The write to .*notes\.txt was rejected \(the turn was cancelled\)/,
    );
    expect(controller.store.getSnapshot().reviews).toEqual([]);
    expect(readFileSync(join(dirs.workspace, 'notes.txt'), 'utf8')).toBe(NOTES);
  }, 60_000);
});

describe('session rules', () => {
  it('shows the rule before answering, then lists it by tab on the rules screen and deletes it', async () => {
    const { r, controller } = await start();
    await send(r, 'edit notes.txt');
    await waitLast(r, 'Permission requested');
    await r.press('r');
    const modal = await waitLast(r, 'Remember: as a rule for this session');
    expect(modal).toContain('Rule: allow edit notes.txt (deny if you reject)');
    await r.press('y');
    await waitLast(r, 'Review write to notes.txt');
    await r.press('A', KEYS.enter);
    await waitFrame(r, 'write result: ok');
    expect(controller.sessionRules).toMatchObject([{ rule: { action: 'allow', kinds: ['edit'] } }]);
    expect(controller.rules).toEqual([]);

    await r.press(KEYS.ctrl('x'));
    await waitLast(r, 'Menu');
    await r.press('p');
    const screen = await waitLast(r, 'Permission rules · base mode: ask');
    expect(screen).toContain('allow edit notes.txt');
    expect(screen).toContain('allow · session');
    expect(screen).toContain('this session only · tab 1 · Scenario agent');
    await r.press('d', 'd');
    await waitLast(r, 'No saved rules, no session rules');
    expect(controller.sessionRules).toEqual([]);
  }, 60_000);
});

describe('traffic', () => {
  it('follows the session’s frames live, without reading its trace file', async () => {
    const { r, controller } = await start();
    const session = controller.active?.session;
    if (!session) throw new Error('no session');
    // The screen must not depend on the file: remove it (the engine keeps writing to the open file).
    rmSync(join(controller.client.transcripts.sessionDir(session.localId), 'trace.jsonl'), { force: true });
    await r.press(KEYS.ctrl('x'));
    await waitLast(r, 'Menu');
    await r.press('w');
    const opened = await waitLast(r, `Traffic · ${session.localId}`);
    expect(opened).toMatch(/→ initialize #\S+/);
    expect(opened).toMatch(/→ session\/new #\S+/);
    controller.submit('hello there');
    await waitLast(r, /→ session\/prompt #\S+ .*← session\/update agent_message_chunk .*← result #/);
  }, 60_000);
});
