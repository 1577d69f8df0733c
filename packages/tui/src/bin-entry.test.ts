/** Where the terminal UI refuses to start, and what it says instead. */
import { describe, expect, it } from 'vitest';
import { terminalProblem, tuiMain } from './bin-entry.js';

const tty = { isTTY: true };

describe('the terminal UI needs a real terminal', () => {
  it('refuses a dumb terminal and pipes with an acp: line and a hint', () => {
    expect(terminalProblem({ TERM: 'dumb' }, tty, tty)).toMatch(
      /^acp: the terminal UI cannot draw on a dumb terminal \(TERM=dumb\)\nhint: run `acp`, which talks in plain lines/,
    );
    expect(terminalProblem({ TERM: 'xterm' }, {}, tty)).toMatch(
      /^acp: the terminal UI needs a terminal\nhint: use `acp run`/,
    );
    expect(terminalProblem({ TERM: 'xterm' }, tty, { isTTY: false })).toBeDefined();
    expect(terminalProblem({ TERM: 'xterm-256color' }, tty, tty)).toBeUndefined();
  });

  it('exits 2 without drawing anything', async () => {
    let written = '';
    const stream = {
      isTTY: true,
      write: (text: string) => (written += text),
    } as unknown as NodeJS.WriteStream;
    const code = await tuiMain(
      { agent: 'demo' },
      { env: { TERM: 'dumb' }, stdin: { isTTY: true } as NodeJS.ReadStream, stdout: stream, stderr: stream },
    );
    expect(code).toBe(2);
    expect(written).toMatch(/^acp: the terminal UI cannot draw on a dumb terminal/);
    expect(written).not.toMatch(/\x1b/); // eslint-disable-line no-control-regex
  });
});
