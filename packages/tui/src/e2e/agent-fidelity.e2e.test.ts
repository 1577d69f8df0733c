/**
 * End to end in tmux, what real agents made the UI get wrong (issue 17): an agent killed in the
 * middle of a command it runs itself, the session's cost across a restart, a skin-tone emoji in
 * boxes, code spans in titles and hints, and the hunk review of an edit sent as the replaced
 * string only (GitHub Copilot).
 */
import { describe, expect, it } from 'vitest';
import { makeScenarioDirs, NOTES, type TuiHarness } from './tmux-harness.js';
import { tmuxPerTest } from './tmux-per-test.js';

const tmux = tmuxPerTest();

const start = async (columns = 100): Promise<TuiHarness> => {
  tmux.keep(makeScenarioDirs({ files: { 'notes.txt': NOTES } }));
  const h = tmux.launch({ args: ['--agent', 'scenario'], columns });
  await h.waitFor('Connected to scenario: new session');
  return h;
};

const count = (text: string, part: string): number => text.split(part).length - 1;

/** The lines of the box that starts with the line holding `title` (its borders included). */
function box(screen: string, title: string): string[] {
  const lines = screen.split('\n');
  const top = lines.findIndex((line, i) => line.startsWith('╭') && lines[i + 1]?.includes(title));
  const bottom = lines.findIndex((line, i) => i > top && line.startsWith('╰'));
  return top < 0 || bottom < 0 ? [] : lines.slice(top, bottom + 1);
}

describe('real agents’ ways, end to end', () => {
  it('an agent killed mid-command: the card fails without a spinner, the exit is said once; the cost stays after a restart', async () => {
    const h = await start();
    await h.submit('cost');
    await h.waitFor(/ctx .* · \$0\.42/);
    await h.submit('crash kill');
    await h.waitFor((screen) => screen.includes('r restart the agent'));
    // The panel comes first; the transcript is printed above it right after.
    const crashed = await h.waitFor('✗ » sleep 30 · failed', { history: true });
    expect(crashed).toContain('ended without an exit status');
    expect(crashed).not.toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] running/);
    // The transcript says how it exited, with its stderr; the panel does not say it all again.
    expect(count(crashed, 'boom: simulated crash')).toBe(1);
    expect(crashed).not.toContain('(killed by SIGKILL)');
    expect(crashed).toContain('Scenario was killed by SIGKILL');
    h.press('r');
    await h.waitFor('Message · / for commands');
    // Claude sends usage without the cost until a turn ends: the cost known so far stays shown.
    await h.submit('usage');
    await h.waitFor('usage sent', { history: true });
    expect(await h.waitFor(/ctx .*12%/)).toMatch(/ctx .* · \$0\.42/);
  }, 90_000);

  it('draws a skin-tone emoji inside boxes without breaking their borders', async () => {
    const h = await start(60);
    await h.submit('emoji');
    const asked = await h.waitFor('↑↓ choose · Enter answer');
    const lines = box(asked, 'Permission requested');
    expect(lines.length).toBeGreaterThan(4);
    for (const line of lines.slice(1, -1)) expect(line).toMatch(/^│.*│$/);
    expect(lines.join('\n')).toContain('Approve 👍');
    h.press('y');
    await h.waitFor('emoji result: yes', { history: true });
    await h.waitFor('Message · / for commands');
    // Nothing of the question's frames was left behind in the scrollback.
    expect(h.history()).not.toContain('Asked because');
  }, 60_000);

  it('shows code spans in card titles, notices and picker hints as code, not raw backticks', async () => {
    const h = await start();
    // Claude's command title is a code span: `ls -la`.
    await h.submit('command claude');
    await h.answer('y');
    await h.waitFor('command result: yes', { history: true });
    const shown = await h.waitFor('✓ » ls -la', { history: true });
    expect(shown).toContain('Allowed: ls -la (by you)');
    expect(shown).not.toContain('`');
    // The catalog's hints: "see https://opencode.ai (installs the `opencode` command)".
    h.press('C-n');
    const picker = await h.waitFor('installs the opencode command');
    expect(picker).not.toContain('`');
  }, 60_000);

  it('reviews an edit sent as the replaced string at its line, as the question shows it', async () => {
    const h = await start();
    await h.submit('fragment');
    const asked = await h.waitFor('h review the changes hunk by hunk');
    expect(asked).toContain('notes.txt:2 +1 -1');
    expect(asked).toContain('@@ -2,1 +2,1 @@');
    h.press('h');
    const review = await h.waitFor('Review write to notes.txt · 1 hunk');
    expect(review).toContain('hunk 1 @@ -2,1 +2,1 @@ +1 -1');
    expect(review).not.toContain('No newline at end of file');
    h.press('Escape');
    await h.answer('n');
    await h.waitFor('fragment result: no', { history: true });
  }, 60_000);
});
