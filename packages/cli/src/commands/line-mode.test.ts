/** `TERM=dumb acp`: the line-mode conversation, in-process with the fake and demo agents. */
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeCommand, runCli, testHome, type TestHome } from '../test-support/cli-harness.js';

let home: TestHome;
beforeEach(async () => {
  home = await testHome();
  home.env.TERM = 'dumb';
});
afterEach(() => home.cleanup());

const permission = {
  request: 'session/request_permission',
  params: {
    toolCall: { toolCallId: 'e1', kind: 'edit', title: 'Edit notes.md' },
    options: [
      { optionId: 'yes', name: 'Yes', kind: 'allow_once' },
      { optionId: 'no', name: 'No', kind: 'reject_once' },
    ],
  },
};

/** Counts how often `needle` occurs in `text`. */
const count = (text: string, needle: string): number => text.split(needle).length - 1;

describe('acp on a dumb terminal', () => {
  it('talks in plain lines: prompts, streamed answers, permissions answered by number', async () => {
    const input = new PassThrough();
    input.write(`${JSON.stringify([permission, { text: 'edited' }])}\n`);
    let answered = false;
    let quit = false;
    const result = await runCli(['--', ...fakeCommand()], home, {
      input,
      onStderr: (stderr) => {
        if (!answered && stderr.includes('answer 1-2')) {
          answered = true;
          input.write('7\n'); // not a choice: asked again
          input.write('1\n');
        }
      },
      onStdout: (stdout) => {
        if (!quit && count(stdout, '> ') === 2) {
          quit = true;
          input.write('hello there\n/quit\n');
        }
      },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('▸ permission: Edit notes.md');
    expect(result.stderr).toContain('▸   1) Yes\n▸   2) No\n▸ answer 1-2 (y = 1, n = deny):\n');
    expect(count(result.stderr, 'answer 1-2')).toBe(2);
    expect(result.stderr).toContain('▸ permission allowed: Edit notes.md');
    expect(result.stdout).toContain('RESULT {"result":{"outcome":{"outcome":"selected","optionId":"yes"}}}');
    expect(result.stdout).toContain('echo: hello there [text]');
    expect(result.stdout + result.stderr).not.toMatch(/\x1b/); // eslint-disable-line no-control-regex
  });

  it('runs the demo agent, answering its questions with y, and ends with the input', async () => {
    const input = new PassThrough();
    input.write('hello\n');
    let answers = 0;
    const result = await runCli(['--agent', 'demo'], home, {
      input,
      onStderr: (stderr) => {
        while (count(stderr, 'answer 1-') > answers) {
          answers++;
          input.write('y\n');
        }
      },
      onStdout: (stdout) => {
        if (count(stdout, '> ') === 2) input.end();
      },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('demo agent');
    expect(answers).toBeGreaterThan(0);
    expect(result.stdout + result.stderr).not.toMatch(/\x1b/); // eslint-disable-line no-control-regex
  }, 30_000);

  it('leaves on Ctrl-C at the prompt', async () => {
    let pressed = false;
    const result = await runCli(['--', ...fakeCommand()], home, {
      input: new PassThrough(),
      onStdout: (stdout, interrupt) => {
        if (!pressed && stdout.endsWith('> ')) {
          pressed = true;
          interrupt();
        }
      },
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('> \n');
  });

  it('asks which agent when none is given, and reports an unknown session in the one error style', async () => {
    const input = new PassThrough();
    input.end('demo\n');
    const picked = await runCli([], home, { input });
    expect(picked.code).toBe(0);
    expect(picked.stdout).toMatch(/Agents:\n {2}1\) demo — /);
    expect(picked.stderr).toContain('(line mode: TERM=dumb)');
    const missing = await runCli(['--resume', 'nope'], home, { input: new PassThrough() });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(
      'acp: no recorded session matches nope\nhint: `acp sessions list` shows the recorded sessions and their ids\n',
    );
  }, 30_000);
});
