/**
 * The transcript browser in the whole application: opened with Ctrl+F (and from the menu) over
 * the current tab's session, searched, a message copied with the system's tool (a fake xsel first
 * on PATH: a real child process), closed back to the composer.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openScenario, startApp, waitFrame, waitLast, type AppFlow } from '../test-support/app-flow.js';
import { writeFakeTool } from '../test-support/images.js';
import { KEYS } from '../test-support/ink.js';

let app: AppFlow | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe('the transcript browser in the app', () => {
  it('opens on Ctrl+F, searches the session, copies a message, and closes back to the composer', async () => {
    app = await startApp({
      env: (dirs) => ({ DISPLAY: ':0', PATH: `${join(dirs.root, 'bin')}:${process.env.PATH}` }),
    });
    const { r, dirs } = app;
    writeFakeTool(join(dirs.root, 'bin'), 'xclip', `cat > '${join(dirs.root, 'copied')}'`);
    await openScenario(r);
    await r.type('hello browser');
    await r.press(KEYS.enter);
    await waitFrame(r, 'You said: hello browser');
    await r.press(KEYS.ctrl('f'));
    await waitLast(r, '↑↓ move · / search');
    await r.press('/');
    await r.type('hello');
    // Forward from the selection (the last message), then around to the top.
    await waitLast(r, /\/hello 2\/2 · Enter done/);
    await r.press(KEYS.enter, 'n');
    await waitLast(r, 'search wrapped');
    await r.press('n');
    await waitLast(r, '“hello” 2/2 · message · y copy');
    await r.press('y');
    await waitLast(r, 'Copied the message: 23 characters (xclip)');
    expect(readFileSync(join(dirs.root, 'copied'), 'utf8')).toBe('You said: hello browser');
    await r.press(KEYS.escape);
    await waitLast(r, 'Message · / for commands');

    // The menu lists it with its key.
    await r.press(KEYS.ctrl('x'));
    await waitLast(
      r,
      /b Browse the transcript… +search, copy, open a tool call's file in the editor · Ctrl\+F/,
    );
    await r.press('b');
    await waitLast(r, '↑↓ move · / search');
    await r.press('q');
    await waitLast(r, 'Message · / for commands');
  }, 30_000);
});
