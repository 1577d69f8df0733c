/**
 * Renders the screenshots of docs/tui.md from tmux captures of the real UI (demo agent and the
 * scripted agent), as fenced text blocks:
 *
 *   node --conditions=@acp-kit/source --import tsx packages/tui/scripts/screenshots.ts > /tmp/shots.md
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeDirs, SCENARIO_AGENT, TuiHarness } from '../src/e2e/tmux-harness.js';

const COLUMNS = 100;
const ROWS = 30;
const shots: string[] = [];

function shot(title: string, screen: string): void {
  const lines = screen.split('\n').map((line) => line.trimEnd());
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  shots.push(`### ${title}\n\n\`\`\`text\n${lines.join('\n')}\n\`\`\`\n`);
}

async function demo(): Promise<void> {
  const h = TuiHarness.launch({ columns: COLUMNS, rows: ROWS });
  try {
    writeFileSync(join(h.dirs.workspace, 'README.md'), '# Sample project\n\nTODO: write the docs\n');
    shot('Agent picker (`acp`)', await h.waitFor('Choose an agent'));
    h.press('d');
    await h.waitFor('Connected to demo: new session', { timeoutMs: 30_000 });
    await h.submit('show me around');
    await h.waitFor(/Permission requested[\s\S]*Create ACP_DEMO\.md/);
    shot('Permission prompt', await h.waitFor('↑↓ choose · Enter answer'));
    h.press('h');
    shot('Reviewing a write hunk by hunk', await h.waitFor('Review write to ACP_DEMO.md'));
    h.press('y');
    await h.waitFor('1 accepted');
    h.press('Enter');
    await h.waitFor(/Permission requested[\s\S]*\$ ls -la/);
    shot('A command’s permission', await h.waitFor('↑↓ choose · Enter answer'));
    h.press('y');
    await h.waitFor(
      (screen) => screen.includes('Plan · 5/5 done') && screen.includes('Message · / for commands'),
    );
    shot('A finished turn: tool cards, terminal, plan, status bar', h.screen());
    h.press('C-x');
    shot('Menu (Ctrl+X)', await h.waitFor('Menu'));
    h.press('Escape');
    await h.waitFor('Message · / for commands');
    h.press('C-f');
    await h.waitFor('↑↓ move · / search');
    h.type('/readme');
    await h.waitFor(/\/readme +\d+\/\d+/);
    h.press('Enter', 'N');
    shot('Transcript browser (Ctrl+F) with a search', await h.waitFor(/“readme” \d+\/\d+ · tool call/));
    h.press('Escape');
    await h.waitFor('Message · / for commands');
    h.type('/');
    shot('Slash-command palette', await h.waitFor('/help'));
    h.press('Escape');
  } finally {
    h.close();
  }
}

async function scenario(): Promise<void> {
  const dirs = makeDirs();
  writeFileSync(
    join(dirs.config, 'agents.json'),
    JSON.stringify({
      agents: { scenario: { name: 'Scenario', command: process.execPath, args: [SCENARIO_AGENT] } },
    }),
  );
  writeFileSync(
    join(dirs.workspace, 'notes.txt'),
    Array.from({ length: 25 }, (_, i) => `line ${i + 1}`).join('\n') + '\n',
  );
  const h = TuiHarness.launch({
    dirs,
    columns: COLUMNS,
    rows: ROWS,
    args: ['--agent', 'scenario'],
    env: { SCENARIO_STATE: join(dirs.root, 'state') },
  });
  try {
    await h.waitFor('Connected to scenario: new session');
    await h.submit('edit notes.txt');
    await h.waitFor('Permission requested');
    await h.answer('y');
    await h.waitFor('Review write to notes.txt · 3 hunks');
    h.press('y');
    shot('Hunk review of a three-hunk write', await h.waitFor('1 accepted · 0 rejected · 2 undecided'));
    h.press('n', 'y', 'Enter');
    await h.waitFor('write result: error');
    h.press('C-n');
    const picker = await h.waitFor('New tab: choose an agent');
    h.press(/(\d) Scenario/.exec(picker)?.[1] ?? '1');
    await h.waitFor(/2 Scenario/);
    await h.submit('hello from the second tab');
    shot('Two tabs', await h.waitFor('You said: hello from the second tab'));
    await h.submit('elicit');
    await h.waitFor(/Input requested by Scenario agent[\s\S]*Esc decline/);
    h.type('Ada');
    shot('A form the agent asks for', await h.waitFor(/Name \*[\s│]+Ada/));
    h.press('Escape');
    await h.waitFor('elicit result');
    await h.submit('crash');
    shot('The agent crashed', await h.waitFor('Scenario exited'));
    h.press('C-x', 'w');
    await h.waitFor('Traffic');
    h.press('Up', 'Enter');
    shot('Traffic (raw JSON-RPC of the session)', await h.waitFor('"jsonrpc"'));
    h.press('Escape');
    h.press('C-x', 't');
    shot('Settings', await h.waitFor('Theme:'));
    h.press('Escape');
    h.press('C-x', 'p');
    shot('Permission rules', await h.waitFor('Permission rules'));
    h.press('Escape');
    // F1 sent in the same read as the Escape would be taken for Alt+F1.
    await h.waitFor((screen) => !screen.includes('Permission rules'));
    h.press('F1');
    shot('Keys (F1 or ?)', await h.waitFor('Keys'));
  } finally {
    h.close();
  }
}

/** Signing in: the agent's methods, then a typed API key (masked). */
async function signIn(): Promise<void> {
  const dirs = makeDirs();
  writeFileSync(
    join(dirs.config, 'agents.json'),
    JSON.stringify({
      agents: { scenario: { name: 'Scenario', command: process.execPath, args: [SCENARIO_AGENT] } },
    }),
  );
  const h = TuiHarness.launch({
    dirs,
    columns: COLUMNS,
    rows: ROWS,
    args: ['--agent', 'scenario'],
    env: { SCENARIO_STATE: join(dirs.root, 'state'), SCENARIO_AUTH: '1' },
  });
  try {
    shot('Signing in', await h.waitFor('Scenario needs you to sign in'));
    h.press('4');
    await h.waitFor('enter your Scenario API key');
    h.type('sk-scenario-good');
    shot('Signing in with a typed API key', await h.waitFor('(16 characters)'));
  } finally {
    h.close();
  }
}

await demo();
await scenario();
await signIn();
process.stdout.write(shots.join('\n'));
