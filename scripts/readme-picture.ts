/**
 * Draws the README's pictures of the terminal UI from a real run: `acp` in tmux with the demo
 * agent, one full turn ("show me around"), the screen captured with its colours and rendered as
 * SVG. Run it again whenever the UI changes, so the pictures stay true:
 *
 *   npm run picture
 *
 * Writes docs/images/acp-demo.svg (the finished turn) and docs/images/acp-demo-permission.svg
 * (the permission prompt with the diff of the write).
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { type HarnessDirs, REPO_ROOT, TuiHarness } from '../packages/tui/src/e2e/tmux-harness.js';
import { readScreen, type Screen, type ScreenCell, screenText, screenToSvg } from './ansi-svg.js';

/** Wide enough for the status bar on one line, tall enough for the permission prompt and its diff. */
const SIZE = { columns: 100, rows: 34 };
const OUT_DIR = join(REPO_ROOT, 'docs/images');

/**
 * The run's directories, at a fixed path rather than a random temp name: the workspace path is
 * on screen (tool cards, the terminal's cwd), and reads better as a project than as `acp-tui-e2e-x1Yz`.
 */
function readmeDirs(): HarnessDirs {
  const root = join(tmpdir(), 'acp-kit-readme-picture');
  rmSync(root, { recursive: true, force: true });
  const dirs = {
    root,
    config: join(root, 'config'),
    data: join(root, 'data'),
    workspace: join(root, 'my-project'),
  };
  for (const dir of [dirs.config, dirs.data, dirs.workspace, join(root, 'xdg')])
    mkdirSync(dir, { recursive: true });
  return dirs;
}

/** The screen with and without its colours, from one frame (the text did not change around the coloured capture). */
function capture(h: TuiHarness): { readonly ansi: string; readonly plain: string } {
  for (let attempt = 0; attempt < 10; attempt++) {
    const before = h.screen();
    const ansi = h.screenAnsi();
    const plain = h.screen();
    if (before === plain) return { ansi, plain };
  }
  throw new Error(`the screen kept changing while it was captured\n${h.screen()}`);
}

/**
 * Captures the screen with its colours and writes it as `name`. The coloured capture is replayed
 * in xterm.js, which must read the same text as tmux shows: a character the two measure
 * differently (an emoji under older Unicode tables) would shift the rest of its line.
 */
async function picture(h: TuiHarness, name: string, moment: string): Promise<void> {
  const { ansi, plain } = capture(h);
  const screen = await readScreen(ansi, SIZE);
  const expected = plain
    .replace(/\n$/, '')
    .split('\n')
    .map((line) => line.trimEnd());
  const actual = screenText(screen);
  const mismatch = actual.findIndex((line, row) => line !== (expected[row] ?? ''));
  if (mismatch >= 0)
    throw new Error(
      `${name}: row ${mismatch} reads differently after the replay\n tmux:  ${expected[mismatch]}\n xterm: ${actual[mismatch]}`,
    );
  const svg = screenToSvg(withoutBlankRowsBelow(screen), { title: 'acp' });
  const file = join(OUT_DIR, name);
  writeFileSync(file, svg);
  process.stdout.write(
    `wrote ${relative(REPO_ROOT, file)} (${(svg.length / 1024).toFixed(1)} KB): ${moment}\n`,
  );
}

/** Whether `parts` occur in `text` one after the other. */
function inOrder(text: string, parts: readonly string[]): boolean {
  let from = 0;
  for (const part of parts) {
    const at = text.indexOf(part, from);
    if (at < 0) return false;
    from = at + part.length;
  }
  return true;
}

/**
 * The screen without its blank rows at the bottom: after a reprint the UI sometimes leaves a row
 * or two under the status bar (where a taller frame was), which would only pad the picture.
 */
function withoutBlankRowsBelow(screen: Screen): Screen {
  const blank = (cells: readonly ScreenCell[]): boolean =>
    cells.every((c) => c.chars === ' ' && c.style.bg === undefined && !c.style.underline);
  let rows = screen.rows;
  while (rows > 1 && blank(screen.lines[rows - 1] ?? [])) rows--;
  return { ...screen, rows, lines: screen.lines.slice(0, rows) };
}

async function main(): Promise<void> {
  mkdirSync(OUT_DIR, { recursive: true });
  const dirs = readmeDirs();
  const h = TuiHarness.launch({ ...SIZE, dirs });
  try {
    writeFileSync(join(dirs.workspace, 'README.md'), '# Sample project\n\nTODO: write the docs\n');
    await h.waitFor('Choose an agent');
    h.press('d');
    await h.waitFor('Connected to demo: new session', { timeoutMs: 30_000 });
    await h.submit('show me around');
    await h.waitFor(/Permission requested[\s\S]*Create ACP_DEMO\.md/);
    await h.waitFor('↑↓ choose · Enter answer');
    await picture(h, 'acp-demo-permission.svg', 'the permission prompt for the write, with its diff');
    h.press('y');
    await h.waitFor(/Permission requested[\s\S]*\$ ls -la/);
    await h.answer('y');
    await h.waitFor(
      (screen) => screen.includes('Plan · 5/5 done') && screen.includes('Message · / for commands'),
    );
    // When the last prompt closes, the screen keeps the rows it took: blank rows above the turn's
    // end, as many as the run happened to leave. Ctrl+L reprints the session, as a person would, so
    // the picture is a full screen every run. With tmux's history cleared first, the prompt line
    // comes back only with the reprint, which draws the live region (plan, composer, status bar)
    // before the transcript: it is done when the whole transcript is back above the live region.
    h.tmux('clear-history', '-t', 'main');
    h.press('C-l');
    await h.waitFor(
      (history) =>
        inOrder(history, ['› show me around', 'no model, no cost.)', 'Plan · 5/5 done', 'Ctrl+X menu']),
      { history: true },
    );
    await picture(h, 'acp-demo.svg', 'the finished turn: tool cards, terminal output, plan, status bar');
  } finally {
    h.close();
    rmSync(dirs.root, { recursive: true, force: true, maxRetries: 20, retryDelay: 50 });
  }
}

await main();
