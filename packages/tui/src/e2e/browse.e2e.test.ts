/**
 * The transcript browser in a real terminal (tmux), after a turn of the demo agent (`grep TODO`: a
 * search tool call whose location is `README.md:3`): a search stepped to its next match (the
 * highlight and the counter move), the tool call's file opened in `$EDITOR` at its line (a script
 * that records its arguments and what the terminal looked like to it) with the UI intact after
 * it, a copy through OSC 52 into tmux's clipboard, and the escape corpus drawn in the browser.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ESCAPE_CORPUS } from '../sanitize/corpus.js';
import { findUnsafeSequences } from '../sanitize/find-unsafe.js';
import { writeFakeTool } from '../test-support/images.js';
import { makeDirs, SCENARIO_AGENT, type HarnessDirs, type TuiHarness } from './tmux-harness.js';
import { tmuxPerTest } from './tmux-per-test.js';

const tmux = tmuxPerTest();

const README = '# Sample project\n\nTODO: write the docs\n';

/** The demo agent after `grep TODO` in a workspace whose README has one TODO, at line 3. */
async function demoGrep(dirs: HarnessDirs, env: Readonly<Record<string, string>> = {}): Promise<TuiHarness> {
  writeFileSync(join(dirs.workspace, 'README.md'), README);
  const h = tmux.launch({ args: ['--agent', 'demo'], env, columns: 100, rows: 30 });
  await h.waitFor('Connected to demo: new session');
  await h.submit('grep TODO');
  await h.waitFor(/✓ ⌕ Search for \/TODO\/ \(1 match\)/, { history: true });
  await h.waitFor('Message · / for commands');
  return h;
}

/** The line of the screen (with SGR attributes) that shows `text`. */
function lineWith(screen: string, text: string): string {
  // eslint-disable-next-line no-control-regex
  return screen.split('\n').find((line) => line.replace(/\x1b\[[0-9;]*m/g, '').includes(text)) ?? '';
}

/** Inverse video (every match) and a background colour (the current one) in a captured line. */
const INVERSE = '\x1b[7m';
const BACKGROUND = /\x1b\[(4[0-7]|48;[0-9;]+)m/; // eslint-disable-line no-control-regex

describe('the transcript browser in a terminal', () => {
  it("searches, steps to the next match, and opens the tool call's file in $EDITOR at its line", async () => {
    const dirs = tmux.keep(makeDirs());
    const record = join(dirs.root, 'editor.txt');
    // The editor records its arguments, whether it got the terminal, and the terminal's mode.
    const editor = writeFakeTool(
      join(dirs.root, 'bin'),
      'record-editor',
      `tty=no; [ -t 0 ] && [ -t 1 ] && tty=tty\n{ printf '%s\\n' "$@"; echo $tty; stty -a; } > '${record}.part'; mv '${record}.part' '${record}'`,
    );
    const h = await demoGrep(dirs, { VISUAL: editor, EDITOR: editor });
    h.press('C-f');
    await h.waitFor('↑↓ move · / search · n N match · y copy · o open in editor · Esc close');
    h.type('/todo');
    // The search starts at the selection (the tool call, last): its title's TODO is match 2 of 3.
    let screen = await h.waitFor(/\/todo +2\/3 · Enter done/);
    expect(screen).toMatch(/▌ ✓ ⌕ Search for \/TODO\/ \(1 match\)/);
    let ansi = h.screenAnsi();
    expect(lineWith(ansi, 'Search for /TODO/')).toMatch(BACKGROUND);
    expect(lineWith(ansi, 'README.md:3: TODO')).toContain(INVERSE);
    expect(lineWith(ansi, 'README.md:3: TODO')).not.toMatch(BACKGROUND);

    h.press('Enter', 'n');
    await h.waitFor('“todo” 3/3 · tool call · 1 file · o open · y copy');
    ansi = h.screenAnsi();
    expect(lineWith(ansi, 'README.md:3: TODO')).toMatch(BACKGROUND);
    expect(lineWith(ansi, 'Search for /TODO/')).toContain(INVERSE);
    expect(lineWith(ansi, 'Search for /TODO/')).not.toMatch(BACKGROUND);

    h.press('o');
    await h.waitFor(() => existsSync(record), { timeoutMs: 30_000 });
    const seen = readFileSync(record, 'utf8').split('\n');
    expect(seen.slice(0, 3)).toEqual(['+3', join(dirs.workspace, 'README.md'), 'tty']);
    // The UI left raw mode before handing the terminal over.
    expect(seen.join(' ')).toMatch(/(^|[ ;])icanon\b/);
    expect(seen.join(' ')).toMatch(/(^|[ ;])echo\b/);

    // Back where it was: the browser, its search, then the session intact behind it.
    screen = await h.waitFor('Back from README.md:3 in record-editor');
    expect(screen).toContain('“todo” 3/3 · tool call');
    h.press('Escape');
    screen = await h.waitFor('Message · / for commands');
    expect(screen).toMatch(/● connected │ acp-kit demo agent \(no model\)/);
    expect(h.history()).toMatch(/› grep TODO[\s\S]*✓ ⌕ Search for \/TODO\/ \(1 match\)[\s\S]*README\.md:3/);
    await h.submit('grep write');
    await h.waitFor(/✓ ⌕ Search for \/write\/ \(1 match\)/, { history: true });
    h.press('C-q');
    expect(await h.exitStatus()).toBe(0);
  }, 120_000);

  it("copies the selected tool call's output through OSC 52 into tmux's clipboard", async () => {
    const dirs = tmux.keep(makeDirs());
    writeFileSync(join(dirs.config, 'tui.json'), JSON.stringify({ clipboard: 'osc52' }));
    const h = await demoGrep(dirs);
    // tmux takes OSC 52 from the programs in it when set-clipboard is on.
    h.tmux('set', '-g', 'set-clipboard', 'on');
    h.press('C-f');
    await h.waitFor('tool call · 1 file · o open · y copy');
    h.press('y');
    await h.waitFor(/Copied the tool call: \d+ characters \(OSC 52\)/);
    expect(h.tmux('show-buffer')).toContain('README.md:3: TODO: write the docs');
  }, 120_000);

  // Skipped at stop 23, to be fixed first thing (see the stop's closing note): since client commit
  // 0495556 (a usage update without a cost keeps the session's cost), after the corpus turn's form
  // is declined the pane's whole scrollback is gone (a clear reached tmux) and 'corpus done' is
  // never found. The cost's currency, drawn raw, was one leak (fixed in format.ts); another
  // remains. The same turn run by hand from the bundle keeps its scrollback.
  it('draws the escape corpus from every agent-controlled field as text only', async () => {
    const dirs = tmux.keep(makeDirs());
    const corpusFile = join(dirs.root, 'corpus.json');
    writeFileSync(corpusFile, JSON.stringify(ESCAPE_CORPUS.map((entry) => entry.input)));
    const h = tmux.launch({
      args: ['--', process.execPath, SCENARIO_AGENT],
      env: { SCENARIO_CORPUS: corpusFile },
      columns: 100,
      rows: 40,
    });
    await h.waitFor('Connected to scenario-agent.mjs: new session');
    await h.submit('corpus');
    await h.answer('y');
    await h.waitFor(/Input requested by[\s\S]*Esc decline/);
    h.press('Escape');
    await h.waitFor('corpus done', { history: true });
    // The permission question about the corpus command is taller than the screen: the session
    // printed before it stays in the scrollback (Ink's full-screen frames used to erase it).
    expect(h.history()).toContain('Connected to scenario-agent.mjs: new session');
    h.press('C-f');
    await h.waitFor('↑↓ move · / search');
    for (const query of ['Tool', 'Output', 'Message']) {
      h.type(`/${query}`);
      await h.waitFor(new RegExp(`/${query} +\\d+/\\d+`));
      h.press('Enter');
      await h.waitFor(`“${query}”`);
      expect(findUnsafeSequences(h.screenAnsi())).toEqual([]);
    }
    h.press('g');
    await h.waitFor('▌ ℹ Connected to scenario-agent.mjs: new session');
    expect(findUnsafeSequences(h.screenAnsi())).toEqual([]);
    expect(findUnsafeSequences(h.historyWithEscapes())).toEqual([]);
    expect(h.pane('#{alternate_on}')).toBe('0');
    expect(h.tmux('list-buffers')).toBe('');
  }, 120_000);
});
