/**
 * The early start of `acp --agent NAME`: it draws the session screen and starts the agent before
 * the UI is loaded, and the UI's first write replaces the drawing in place (no second copy, no
 * moment without it).
 */
import { EventEmitter } from 'node:events';
import { rmSync } from 'node:fs';
import xterm from '@xterm/headless';
import { afterEach, describe, expect, it } from 'vitest';
import { readScreen } from '../../../../scripts/ansi-svg.ts';
import { batchedStdout } from '../app/services/batched-stdout.js';
import { makeScenarioDirs, scenarioEnv, type HarnessDirs } from '../e2e/tmux-harness.js';
import { darkTheme } from '../theme/theme.js';
import { drawEarly, type EarlyArguments, type EarlyIo } from './early-draw.js';
import { startDrawnAgent, takeOverPrefix, type EarlyStart } from './early-start.js';
import { sessionChrome } from './session-chrome.js';

const CLEAR = '\x1b[2J\x1b[3J\x1b[H';

/** A terminal's stdout as the early start and Ink see it: its width, and every write kept. */
class TerminalOut extends EventEmitter {
  readonly isTTY = true;
  readonly writes: string[] = [];
  constructor(public columns: number) {
    super();
  }
  write(data: string): boolean {
    this.writes.push(data);
    return true;
  }
}

class TerminalIn extends EventEmitter {
  readonly isTTY = true;
  raw: boolean[] = [];
  setRawMode(raw: boolean): this {
    this.raw.push(raw);
    return this;
  }
}

const screenText = async (data: string, columns: number, rows = 16): Promise<string[]> => {
  const screen = await readScreen(data.replace(/\n/g, '\r\n'), { columns, rows });
  return screen.lines.map((cells) =>
    cells
      .map((cell) => cell.chars)
      .join('')
      .trimEnd(),
  );
};

/** A terminal fed `writes` in order: the text of its screen. */
async function replay(writes: readonly string[], columns: number, rows = 16): Promise<string[]> {
  const term = new xterm.Terminal({ cols: columns, rows, allowProposedApi: true, convertEol: true });
  try {
    for (const data of writes) await new Promise<void>((done) => term.write(data, done));
    const lines: string[] = [];
    for (let row = 0; row < 16; row++)
      lines.push(
        term.buffer.active.getLine(term.buffer.active.viewportY + row)?.translateToString(true) ?? '',
      );
    return lines;
  } finally {
    term.dispose();
  }
}

const KEYS = { menu: 'Ctrl+X', cancel: 'Esc', restart: 'Ctrl+R', newTab: 'Ctrl+N' };

describe('the UI taking over the early drawing', () => {
  const chrome = (columns: number, name = 'Scenario'): string[] =>
    sessionChrome({ columns, theme: darkTheme, keys: KEYS, agentName: name, now: 0 }) ?? [];

  it('replaces it in the same write as its first frame, leaving the lines above as they were', async () => {
    const drawn = chrome(80);
    const out = new TerminalOut(80);
    const shell = '$ ls\nREADME.md\n$ acp --agent scenario\n';
    const before = `${shell}\x1b[?25l${drawn.join('\n')}\n`;
    const terminal = batchedStdout(
      out as unknown as NodeJS.WriteStream,
      takeOverPrefix({ lines: drawn.length, columns: 80 }, 80, CLEAR),
    );
    // What Ink writes for its first frame (here: the frame one spinner step later).
    const frame = chrome(80).map((line) => line.replace('⠋', '⠙'));
    terminal.write('\x1b[?25l');
    terminal.write(`${frame.join('\n')}\n`);
    await Promise.resolve();
    expect(out.writes).toHaveLength(1);
    const after = await replay([before, ...out.writes], 80);
    expect(after.slice(0, 3)).toEqual(['$ ls', 'README.md', '$ acp --agent scenario']);
    expect(after.slice(3, 3 + frame.length)).toEqual(await screenText(frame.join('\n'), 80, frame.length));
    expect(after.slice(3 + frame.length).every((line) => line === '')).toBe(true);
  });

  it('clears the screen instead when the width changed meanwhile (the drawing was re-wrapped)', () => {
    expect(takeOverPrefix({ lines: 7, columns: 80 }, 100, CLEAR)).toBe(CLEAR);
  });
});

/** The early start as the UI runs it: the drawing, then its agent. */
const startEarly = async (args: EarlyArguments, io: EarlyIo): Promise<EarlyStart> =>
  startDrawnAgent(await drawEarly(args, io));

describe('startEarly', () => {
  let dirs: HarnessDirs;
  let early: EarlyStart | undefined;
  afterEach(async () => {
    await early?.agent?.discard();
    early = undefined;
    rmSync(dirs.root, { recursive: true, force: true });
  });
  const io = (out: TerminalOut, input: TerminalIn) => ({
    env: {
      ...process.env,
      ACP_KIT_CONFIG_DIR: dirs.config,
      ACP_KIT_DATA_DIR: dirs.data,
      ...scenarioEnv(dirs),
    },
    stdin: input as unknown as NodeJS.ReadStream,
    stdout: out as unknown as NodeJS.WriteStream,
  });

  it('draws the session screen, holds typed keys for the UI and starts the agent', async () => {
    dirs = makeScenarioDirs();
    const out = new TerminalOut(90);
    const input = new TerminalIn();
    early = await startEarly({ agent: 'scenario', cwd: dirs.workspace }, io(out, input));
    expect(early.drawn).toEqual({ lines: 7, columns: 90 });
    const screen = await replay(out.writes, 90);
    expect(screen[0]).toMatch(/^. Starting Scenario…$/);
    expect(screen[2]).toMatch(/^│ › {2}Message · \/ for commands/);
    expect(screen[4]).toBe(' 1 Scenario  ◌');
    expect(screen[5]).toBe('◌ connecting │ Scenario');
    expect(input.raw).toEqual([true]);
    const started = early.agent?.adopt();
    expect(started?.peer.pid).toBeGreaterThan(0);
    await started?.shutdown();
  });

  it('draws the agent picker for acp, with the agents it found for the UI to show', async () => {
    dirs = makeScenarioDirs();
    const out = new TerminalOut(120);
    const input = new TerminalIn();
    early = await startEarly({}, io(out, input));
    expect(early.agent).toBeUndefined();
    expect(early.agents?.map((agent) => agent.id).slice(0, 3)).toEqual(['demo', 'acp-kit', 'scenario']);
    // A terminal taller than the picker (the catalog's list): nothing scrolls off its top.
    const screen = await replay(out.writes, 120, 30);
    expect(early.drawn).toEqual({ lines: screen.filter((line) => line !== '').length, columns: 120 });
    expect(screen[1]).toMatch(/^│ Choose an agent +│$/);
    expect(screen[2]).toMatch(/^│ {3}d acp-kit demo agent \[demo · no model\]/);
    expect(screen[4]).toMatch(/^│ ❯ 2 Scenario \[installed\] {2}user · /);
    expect(input.raw).toEqual([true]);
  });

  it('does nothing for a reopened session, a command, a remote agent or an unknown name', async () => {
    dirs = makeScenarioDirs();
    for (const args of [
      { resume: 's-1' },
      { agent: 'scenario', resume: 's-1' },
      { command: ['node', 'agent.mjs'] },
      { url: 'http://127.0.0.1:1/acp' },
      { agent: 'nobody' },
    ]) {
      const out = new TerminalOut(90);
      const input = new TerminalIn();
      early = await startEarly(args, io(out, input));
      expect(early.drawn).toBeUndefined();
      expect(early.agent).toBeUndefined();
      expect(out.writes).toEqual([]);
      expect(input.raw).toEqual([]);
    }
  });

  it('leaves the drawing to the UI when the screen is too narrow for it, and still starts the agent', async () => {
    dirs = makeScenarioDirs();
    const out = new TerminalOut(30);
    early = await startEarly({ agent: 'scenario' }, io(out, new TerminalIn()));
    expect(early.drawn).toBeUndefined();
    expect(out.writes).toEqual([]);
    expect(early.agent).toBeDefined();
  });
});
