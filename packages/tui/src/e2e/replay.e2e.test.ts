/**
 * `acp replay` end to end in a real terminal: a demo turn recorded by the UI, then replayed to a
 * second UI (acp replay as its agent command), which shows the same transcript.
 */
import { readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, makeDirs } from './tmux-harness.js';
import { tmuxPerTest } from './tmux-per-test.js';

const tmux = tmuxPerTest();
const TSX = createRequire(import.meta.url).resolve('tsx');
const CLI = join(REPO_ROOT, 'packages/cli/src/cli.ts');

/** The transcript of the turn, as the scrollback shows it. */
function turn(history: string): string {
  const start = history.indexOf('› read README.md');
  const end = history.indexOf('Message · / for commands', start);
  return history.slice(start, end).replace(/\s+$/gm, '');
}

describe('acp replay, in the terminal UI', () => {
  it('replays a recorded demo turn to the UI: the same transcript', async () => {
    // Kept: both launches run in them (the second reads the first's trace); removed after the test.
    tmux.keep(makeDirs());
    const first = tmux.launch({ args: ['--agent', 'demo'] });
    writeFileSync(join(first.dirs.workspace, 'README.md'), '# Sample project\n\nTODO: write the docs\n');
    await first.waitFor('Connected to demo: new session', { timeoutMs: 60_000 });
    await first.submit('read README.md');
    await first.waitFor(/✓ ≡ Read README\.md/, { history: true });
    await first.waitFor('Message · / for commands');
    const recorded = turn(first.history());
    expect(recorded).toMatch(
      /^› read README\.md\n[\s\S]*running read_file as you asked[\s\S]*✓ ≡ Read README\.md/,
    );
    first.press('C-q');
    expect(await first.exitStatus()).toBe(0);
    first.close();
    const sessions = join(first.dirs.data, 'client', 'sessions');
    const [session] = readdirSync(sessions);
    const trace = join(sessions, session as string, 'trace.jsonl');

    const second = tmux.launch({
      args: ['--', process.execPath, '--conditions=@acp-kit/source', '--import', TSX, CLI, 'replay', trace],
    });
    await second.waitFor('new session', { timeoutMs: 60_000 });
    await second.submit('read README.md');
    await second.waitFor(/✓ ≡ Read README\.md/, { history: true });
    await second.waitFor('Message · / for commands');
    expect(turn(second.history())).toBe(recorded);
    second.press('C-q');
    expect(await second.exitStatus()).toBe(0);
  }, 120_000);
});
