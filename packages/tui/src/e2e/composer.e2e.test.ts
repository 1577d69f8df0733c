/**
 * The composer in a real terminal (tmux): pastes arrive bracketed (`paste-buffer -p` brackets
 * them only when the app turned bracketed paste mode on), so a pasted line break does not send
 * the prompt, and a pasted image path becomes an image sent to the agent.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { TINY_PNG } from '../test-support/images.js';
import { makeScenarioDirs, type TuiHarness } from './tmux-harness.js';
import { tmuxPerTest } from './tmux-per-test.js';

const tmux = tmuxPerTest();

/** Pastes `text` as a terminal does (bracketed when the app asked for it). */
function paste(h: TuiHarness, text: string): void {
  h.tmux('set-buffer', '-b', 'paste', text);
  h.tmux('paste-buffer', '-p', '-d', '-b', 'paste', '-t', 'main');
}

describe('the composer in a terminal', () => {
  it('takes a bracketed paste as text, line breaks included, and a pasted image path as an image', async () => {
    const run = tmux.keep(makeScenarioDirs({ files: { 'shot one.png': TINY_PNG } }));
    const shot = join(run.workspace, 'shot one.png');
    const h = tmux.launch({ args: ['--agent', 'scenario'], env: { SCENARIO_IMAGES: '1' } });
    await h.waitFor('Connected to scenario: new session');
    paste(h, `'${shot}'`);
    await h.waitFor('[▣ shot one.png · PNG 70 B]');
    // Short enough to pass for typed keys without the brackets (its line break would send it).
    paste(h, 'one\ntwo\n');
    const composed = await h.waitFor(/› one\s*│\n│\s+two/);
    expect(composed).not.toContain('You said');
    h.press('Enter');
    const sent = await h.waitFor(/You said: one\s+two/, { history: true });
    expect(sent.replace(/\s+/g, ' ')).toContain(`[image image/png 70 bytes ${pathToFileURL(shot).href}]`);
  }, 90_000);
});
