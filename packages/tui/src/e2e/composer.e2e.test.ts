/**
 * The composer in a real terminal (tmux): pastes arrive bracketed (`paste-buffer -p` brackets
 * them only when the app turned bracketed paste mode on), so a pasted line break does not send
 * the prompt, and a pasted image path becomes an image sent to the agent; typed text followed by
 * Enter in one read (`send-keys "text" Enter`, as expect, screen readers and IMEs send it) sends.
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
    await h.waitFor(/› one\s*│\n│\s+two/);
    // Longer than a burst of typed keys, line breaks inside and at the end: still only text.
    paste(h, 'three is a longer line\nfour\n');
    const composed = await h.waitFor(/│\s+three is a longer line\s*│\n│\s+four/);
    expect(composed).not.toContain('You said');
    h.press('Enter');
    const sent = await h.waitFor(/You said: one\s+two\s+three is a longer line\s+four/, { history: true });
    expect(sent.replace(/\s+/g, ' ')).toContain(`[image image/png 70 bytes ${pathToFileURL(shot).href}]`);
  }, 90_000);

  it('sends typed text followed by Enter in one read, long or short', async () => {
    tmux.keep(makeScenarioDirs());
    const h = tmux.launch({ args: ['--agent', 'scenario'] });
    await h.waitFor('Connected to scenario: new session');
    // One send-keys command: the text and Enter reach the UI in one read.
    h.tmux('send-keys', '-t', 'main', 'a prompt typed in one go by a script', 'Enter');
    await h.waitFor('You said: a prompt typed in one go by a script', { history: true });
    h.tmux('send-keys', '-t', 'main', 'short one', 'Enter');
    await h.waitFor('You said: short one', { history: true });
    // Nothing was left in the composer: it shows its placeholder again.
    await h.waitFor('Message · / for commands');
  }, 90_000);
});
