/**
 * End to end in a real terminal (tmux): `acp` with no arguments, the demo agent one keystroke
 * away, and a full turn by keyboard — plan, tool calls, a permission whose write is reviewed hunk
 * by hunk inside it (one decision: no second review), a command shown once, a terminal — then a
 * second turn whose permission is rejected and which is cancelled.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { permissionBox } from './tmux-harness.js';
import { tmuxPerTest } from './tmux-per-test.js';

const tmux = tmuxPerTest();

describe('the demo agent, by keyboard', () => {
  it('runs a full turn: plan, tool calls, a write reviewed in its permission, terminal; then reject and cancel', async () => {
    // v1: the hunk review inside the permission needs the write's texts, which a v2 agent's diff
    // (a git patch) does not carry yet; the v2 tour is cancel-call.e2e.test.ts's.
    const h = tmux.launch({ args: ['--protocol', '1'] });
    writeFileSync(join(h.dirs.workspace, 'README.md'), '# Sample project\n\nTODO: write the docs\n');
    const picker = await h.waitFor('Choose an agent');
    expect(picker).toMatch(/d acp-kit demo agent \[demo · no model\]/);
    h.press('d');
    await h.waitFor('Connected to demo: new session', { timeoutMs: 60_000 });
    await h.submit('show me around');

    // The finished search card is printed into the transcript (the printer paces its writes, so
    // wait for it rather than expecting it at the moment the permission prompt appears).
    await h.waitFor(/✓ ⌕ List \*\*\/\*/, { history: true });
    await h.waitFor(/Permission requested[\s\S]*Create ACP_DEMO\.md[\s\S]*h review the changes hunk by hunk/);
    // The write's hunks are reviewed inside the permission: accepting them is the one answer.
    await h.answer('h');
    await h.waitFor(/Review write to ACP_DEMO\.md \(new file\)[\s\S]*Enter allow accepted/);
    h.press('y');
    await h.waitFor('1 accepted');
    h.press('Enter');

    // No second review of the write: the next question is the command, shown once, as a command.
    const asked = permissionBox(await h.waitFor(/Permission requested[\s\S]*\$ ls -la/));
    expect(asked).toContain('Run a command');
    expect(asked.split('ls -la').length - 1).toBe(1);
    expect(asked).not.toContain('`');
    await h.answer('y');
    const done = await h.waitFor(/Done\. I read README\.md/, { history: true });
    expect(done).toMatch(/✓ ≡ Read README\.md/);
    expect(done).toMatch(/✓ ✎ Create ACP_DEMO\.md/);
    expect(done).toMatch(/\$ .*ls -la/);
    expect(done).toMatch(/ACP_DEMO\.md\n[\s\S]*README\.md/);
    expect(done).toContain('✓ exited with 0');
    expect(done).toContain('Allowed: Create ACP_DEMO.md (by you)');
    const screen = await h.waitFor('Plan · 5/5 done');
    expect(screen).toMatch(/● connected │ acp-kit demo agent \(no model\)/);
    expect(readFileSync(join(h.dirs.workspace, 'ACP_DEMO.md'), 'utf8')).toContain('# acp-kit demo notes');

    // Second turn: reject the edit, then cancel while the command's permission is pending.
    await h.submit('again please');
    await h.waitFor(/Permission requested[\s\S]*ACP_DEMO\.md/);
    await h.answer('n');
    await h.waitFor(/Permission requested[\s\S]*\$ ls -la/);
    await h.answer('Escape');
    const cancelled = await h.waitFor('Turn cancelled', { history: true });
    expect(cancelled).toContain('Denied: Edit ACP_DEMO.md (by you)');
    expect(readFileSync(join(h.dirs.workspace, 'ACP_DEMO.md'), 'utf8')).not.toContain('Tour 2');
    await h.waitFor('Message · / for commands');
    // Nothing printed was lost: both turns are still in the scrollback. (A live region as tall
    // as the screen makes Ink clear the screen, and tmux's scrollback with it.)
    expect(h.history()).toMatch(
      /› show me around[\s\S]*✓ ⌕ List \*\*\/\* \(1 file\)[\s\S]*Done\. I read README\.md[\s\S]*› again please[\s\S]*Turn cancelled/,
    );

    h.press('C-q');
    expect(await h.exitStatus()).toBe(0);
    expect(existsSync(join(h.dirs.data, 'client', 'sessions'))).toBe(true);
  }, 90_000);

  it('in Auto-edit mode, asks about the write once, with its diff, and reviews nothing after', async () => {
    // v1: acp reviews a write it makes for the agent (fs/write_text_file); a v2 agent writes itself.
    const h = tmux.launch({ args: ['--agent', 'demo', '--protocol', '1'] });
    await h.waitFor('Connected to demo: new session', { timeoutMs: 60_000 });
    h.press('BTab');
    await h.waitFor(/│ Auto-edit/);
    await h.submit('show me around');
    // The agent writes without asking; acp asks itself, showing the write as a diff.
    const asked = permissionBox(
      await h.waitFor(/Permission requested[\s\S]*ACP_DEMO\.md \(new file\)[\s\S]*h review the changes/),
    );
    expect(asked).toContain('# acp-kit demo notes');
    await h.answer('y');
    await h.waitFor(/Permission requested[\s\S]*\$ ls -la/);
    await h.answer('y');
    await h.waitFor(/Done\. .*recording notes in ACP_DEMO\.md: done/, { history: true });
    expect(readFileSync(join(h.dirs.workspace, 'ACP_DEMO.md'), 'utf8')).toContain('# acp-kit demo notes');
  }, 90_000);
});
