/**
 * The composer in the whole application: prompts typed while the session opens, images pasted
 * as paths or taken from the clipboard (a fake xclip first on PATH: a real child process) and
 * sent as ACP image blocks to the scripted agent.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { openScenario, startApp, waitFrame, waitLast, type AppFlow } from '../test-support/app-flow.js';
import { TINY_PNG, writeFakeTool } from '../test-support/images.js';
import { flat, KEYS } from '../test-support/ink.js';

let app: AppFlow | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe('the composer in the app', () => {
  it('keeps a prompt typed and sent while the session opens, and sends it once the session is ready', async () => {
    app = await startApp({ env: (dirs) => ({ SCENARIO_NEW_GATE: join(dirs.root, 'gate') }) });
    const { r, dirs } = app;
    await openScenario(r, false);
    await waitFrame(r, 'Opening the session…');
    await r.type('early bird');
    await r.press(KEYS.enter);
    await waitFrame(r, '⏳ 1 prompt queued · sent when the session is ready');
    writeFileSync(join(dirs.root, 'gate'), '');
    await waitFrame(r, 'You said: early bird');
  }, 30_000);

  it('does not drop prompts queued during a cancelled turn silently: says so, and ↑ brings them back', async () => {
    app = await startApp();
    const { r } = app;
    await openScenario(r);
    await r.type('stream 1000 20');
    await r.press(KEYS.enter);
    await waitFrame(r, 'word2');
    await r.type('first follow-up');
    await r.press(KEYS.enter);
    await r.type('second follow-up');
    await r.press(KEYS.enter);
    await waitFrame(r, '⏳ 2 prompts queued');
    await r.press(KEYS.escape);
    await waitLast(r, 'Not sent: 2 queued prompts (turn cancelled) · ↑ in the composer brings them back');
    await waitLast(r, /Message ·/);
    await r.press(KEYS.up);
    await waitLast(r, '› second follow-up');
    await r.press(KEYS.up);
    await waitLast(r, '› first follow-up');
    expect(flat(r.stdout.frames.join('\n'))).not.toContain('You said: first follow-up');
  }, 30_000);

  it('attaches a pasted image path and the clipboard image, and sends them as image blocks', async () => {
    app = await startApp({
      env: (dirs) => ({
        SCENARIO_IMAGES: '1',
        DISPLAY: ':0',
        PATH: `${join(dirs.root, 'bin')}:${process.env.PATH}`,
      }),
    });
    const { r, dirs } = app;
    const shot = join(dirs.workspace, 'shot one.png');
    writeFileSync(shot, TINY_PNG);
    writeFakeTool(
      join(dirs.root, 'bin'),
      'xclip',
      `case "$*" in *TARGETS*) printf 'image/png\\n' ;; *image/png*) cat '${shot}' ;; esac`,
    );
    await openScenario(r);
    await r.press(`'${shot}'`);
    await waitFrame(r, '[▣ shot one.png · PNG 70 B]');
    await r.press(KEYS.ctrl('v'));
    await waitFrame(r, '[▣ clipboard · PNG 70 B]');
    await r.type('look');
    await r.press(KEYS.enter);
    const answer = await waitFrame(r, 'You said: look');
    expect(answer).toContain(
      `You said: look [image image/png 70 bytes ${pathToFileURL(shot).href}] [image image/png 70 bytes no uri]`,
    );
  }, 30_000);

  it('keeps image paths as text, and says so, when the agent does not accept images', async () => {
    app = await startApp();
    const { r, dirs } = app;
    const shot = join(dirs.workspace, 'shot.png');
    writeFileSync(shot, TINY_PNG);
    await openScenario(r);
    await r.press(KEYS.ctrl('v'));
    await waitFrame(r, 'This agent does not accept images');
    await r.press(shot);
    await waitFrame(r, 'Kept as text: this agent does not accept images');
    await r.press(KEYS.enter);
    await waitFrame(r, `You said: ${shot}`);
  }, 30_000);
});
