/**
 * The escape-sequence corpus through every agent-controlled field (agent name and version, mode
 * names, session title, thoughts, messages, Markdown, tool titles, paths, diffs, tool output,
 * terminal output, plan, notices, commands, permission text and options, form elicitation
 * message, titles, descriptions and choices, usage, stderr), checked
 * on what reached the terminal: `capture-pane -e` (only SGR attributes), the raw bytes the UI
 * wrote (only Ink's own cursor and erase sequences besides SGR), and the terminal's state (title,
 * alternate screen, clipboard buffers).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ESCAPE_CORPUS } from '../sanitize/corpus.js';
import { findUnsafeSequences } from '../sanitize/find-unsafe.js';
import { makeDirs, SCENARIO_AGENT } from './tmux-harness.js';
import { tmuxPerTest } from './tmux-per-test.js';

const tmux = tmuxPerTest();

/**
 * What the UI itself writes: cursor up/left, erase line, cursor show/hide, synchronized output,
 * bracketed paste on/off (while it reads keys), our clear.
 */
const INK_SEQUENCES = /\x1b\[(?:\d*[ABCDG]|2K|\?25[lh]|\?2026[hl]|\?2004[hl]|2J|3J|H)/g; // eslint-disable-line no-control-regex

describe('escape-sequence corpus in every agent-controlled field', () => {
  it('never reaches the terminal as anything but text and SGR colours', async () => {
    const dirs = tmux.keep(makeDirs());
    const corpusFile = join(dirs.root, 'corpus.json');
    writeFileSync(corpusFile, JSON.stringify(ESCAPE_CORPUS.map((entry) => entry.input)));
    const rawLog = join(dirs.root, 'raw.log');
    // Tall enough for the question, whose command is the whole corpus shown escaped.
    const h = tmux.launch({
      rows: 80,
      rawLog,
      args: ['--', process.execPath, SCENARIO_AGENT],
      env: { SCENARIO_CORPUS: corpusFile, SCENARIO_HOSTILE_NAME: '1' },
    });
    await h.waitFor('Connected to scenario-agent.mjs: new session');
    const title = h.pane('#{pane_title}');
    await h.submit('corpus');
    await h.waitFor(/Permission requested/);
    await h.answer('y');
    // The form: message, titles, descriptions, choices, default, pattern and type name from the agent.
    await h.waitFor(/Input requested by[\s\S]*Esc decline/);
    h.press('Escape');
    await h.waitFor('corpus done', { history: true });
    // Screens that show more agent text: the command palette, the mode picker, the menu.
    h.type('/');
    await h.waitFor('desc');
    h.press('Escape');
    await h.waitFor((screen) => !screen.includes('desc'));
    h.press('BSpace');
    await h.waitFor('Message · / for commands');
    h.press('C-x');
    await h.waitFor('Menu');
    h.press('m');
    await h.waitFor(/Mode[\s\S]*Ask/);
    h.press('Escape');
    await h.waitFor('Message · / for commands');

    const captured = h.historyWithEscapes();
    expect(findUnsafeSequences(captured)).toEqual([]);
    // Commands and paths show a sequence escaped (`\x1b]0;pwned\x07`): it is part of what runs.
    // Anywhere else, what a sequence hides stays hidden.
    const history = h.history();
    const text = history.replace(/\\x(?:1b|9[0-9a-f])\S*/g, '');
    for (const entry of ESCAPE_CORPUS) {
      if (entry.hidden) expect(text, entry.name).not.toContain(entry.hidden);
    }
    expect(history).toContain('Message [');
    expect(h.pane('#{pane_title}')).toBe(title);
    expect(h.pane('#{alternate_on}')).toBe('0');
    expect(h.tmux('list-buffers')).toBe('');

    const raw = readFileSync(rawLog, 'utf8');
    expect(raw.length).toBeGreaterThan(1000);
    const stripped = raw.replace(INK_SEQUENCES, '').replace(/\r/g, '');
    expect(findUnsafeSequences(stripped)).toEqual([]);
  }, 60_000);
});
