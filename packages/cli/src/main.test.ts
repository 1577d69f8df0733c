/** Which invocations open the terminal UI, and that the rest still reach the commands. */
import { describe, expect, it } from 'vitest';
import type { CliIo } from './io.js';
import { isTerminalUiInvocation, main } from './main.js';

function io(): CliIo & { out: () => string } {
  let out = '';
  return {
    stdout: { write: (t: string) => (out += t) },
    stderr: { write: (t: string) => (out += t) },
    readStdin: async () => '',
    env: {},
    cwd: '/',
    self: { command: process.execPath, args: ['acp'] },
    onSignal: () => () => undefined,
    out: () => out,
  };
}

describe('acp without a command', () => {
  it('opens the terminal UI for no arguments, --agent, --cwd, --resume and -- CMD', () => {
    for (const head of [[], ['--agent', 'demo'], ['--agent=demo'], ['--cwd', '/x'], ['--resume', 'abc']]) {
      expect(isTerminalUiInvocation(head)).toBe(true);
    }
    for (const head of [['run'], ['agents'], ['--help'], ['--version'], ['--agentx']]) {
      expect(isTerminalUiInvocation(head)).toBe(false);
    }
  });

  it('hands the whole argument list, including a command after --, to the UI', async () => {
    const seen: (readonly string[])[] = [];
    const code = await main(['node', 'acp', '--cwd', '/w', '--', 'my-agent', '--acp'], io(), async (args) => {
      seen.push(args);
      return 0;
    });
    expect(code).toBe(0);
    expect(seen).toEqual([['--cwd', '/w', '--', 'my-agent', '--acp']]);
  });

  it('still runs commands and help without loading the UI', async () => {
    const cli = io();
    const code = await main(['node', 'acp', '--help'], cli, async () => {
      throw new Error('the UI must not open');
    });
    expect(code).toBe(0);
    expect(cli.out()).toContain('opens the terminal UI');
  });
});
