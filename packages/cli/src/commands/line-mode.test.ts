/** `TERM=dumb acp`: the line-mode conversation, in-process with the fake and demo agents. */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeCommand, runCli, testHome, type CliResult, type TestHome } from '../test-support/cli-harness.js';
import { MAX_COMMAND_OUTPUT_LINES, MAX_QUESTION_DIFF_LINES } from './line-mode.js';

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

/** One turn of the demo agent on `prompt`, every question answered `y`; the input ends after it. */
async function demoTurn(
  prompt: string,
  args: readonly string[] = [],
): Promise<{ result: CliResult; answers: number }> {
  const input = new PassThrough();
  input.write(`${prompt}\n`);
  let answers = 0;
  const result = await runCli(['--agent', 'demo', ...args], home, {
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
  return { result, answers };
}

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
    expect(result.stderr).toContain(
      '▸   1) Yes\n▸   2) No\n▸ answer 1-2 (y = 1, n = deny, /quit = cancel the turn and leave):\n',
    );
    expect(count(result.stderr, 'answer 1-2')).toBe(2);
    expect(result.stderr).toContain('▸ permission allowed: Edit notes.md');
    expect(result.stdout).toContain('RESULT {"result":{"outcome":{"outcome":"selected","optionId":"yes"}}}');
    expect(result.stdout).toContain('echo: hello there [text]');
    expect(result.stdout + result.stderr).not.toMatch(/\x1b/); // eslint-disable-line no-control-regex
  });

  it('prints a command’s output under it, as each agent sends it, its last lines when long', async () => {
    const done = (toolCallId: string, extra: Record<string, unknown> = {}) => ({
      update: { sessionUpdate: 'tool_call_update', toolCallId, status: 'completed', ...extra },
    });
    const long = Array.from({ length: MAX_COMMAND_OUTPUT_LINES + 5 }, (_, i) => `row ${i}`).join('\n');
    const steps = [
      // Claude: a terminal it runs itself, streamed through _meta.
      {
        update: {
          sessionUpdate: 'tool_call',
          toolCallId: 'c1',
          title: 'ls',
          kind: 'execute',
          content: [{ type: 'terminal', terminalId: 'c1' }],
          _meta: { terminal_info: { terminal_id: 'c1' } },
        },
      },
      {
        update: {
          sessionUpdate: 'tool_call_update',
          toolCallId: 'c1',
          _meta: { terminal_output: { terminal_id: 'c1', data: 'README.md\nnotes.txt' } },
        },
      },
      done('c1', { _meta: { terminal_exit: { terminal_id: 'c1', exit_code: 0, signal: null } } }),
      // codex-acp 0.x: the output only in rawOutput.
      {
        update: {
          sessionUpdate: 'tool_call',
          toolCallId: 'x1',
          title: 'Run wc',
          kind: 'execute',
          rawInput: { command: ['bash', '-lc', 'wc -l notes.txt'] },
        },
      },
      done('x1', { rawOutput: { stdout: '3 notes.txt\n', exit_code: 0 } }),
      // Qwen Code and Copilot: as text content; a long one shows its last lines.
      { update: { sessionUpdate: 'tool_call', toolCallId: 'q1', title: 'seq', kind: 'execute' } },
      done('q1', { content: [{ type: 'content', content: { type: 'text', text: long } }] }),
      { text: 'ran' },
    ];
    const input = new PassThrough();
    input.write(`${JSON.stringify(steps)}\n`);
    const result = await runCli(['--', ...fakeCommand()], home, {
      input,
      onStdout: (stdout) => {
        if (count(stdout, '> ') === 2) input.end();
      },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('▸   done: ls\n▸     README.md\n▸     notes.txt\n');
    expect(result.stderr).toContain('▸   done: Run wc\n▸     3 notes.txt\n');
    expect(result.stderr).toContain('▸   done: seq\n▸     … 5 earlier lines\n▸     row 5\n');
    expect(result.stderr).toContain(`▸     row ${MAX_COMMAND_OUTPUT_LINES + 4}\n`);
    expect(result.stderr).not.toContain('▸     row 4\n');
  });

  it('shows the diff a permission question carries, at most a screenful of it', async () => {
    const edit = (path: string, oldText: string | null, newText: string) => ({
      request: 'session/request_permission',
      params: {
        toolCall: {
          toolCallId: path,
          kind: 'edit',
          title: `Edit ${path}`,
          content: [{ type: 'diff', path, oldText, newText }],
        },
        options: [
          { optionId: 'yes', name: 'Yes', kind: 'allow_once' },
          { optionId: 'no', name: 'No', kind: 'reject_once' },
        ],
      },
    });
    const big = Array.from({ length: 300 }, (_, i) => `line ${i}\n`).join('');
    // The whole of notes.md, as it is in the workspace (its place in the file is looked up).
    await writeFile(join(home.work, 'notes.md'), 'line one\nline two\n');
    const input = new PassThrough();
    input.write(
      `${JSON.stringify([
        edit('notes.md', 'line one\nline two\n', 'line one\nline 2\n'),
        edit('big.txt', null, big),
        // An edit as the replaced string (GitHub Copilot, Claude): numbered from its line.
        edit('notes.md', 'line two', 'line 2'),
      ])}\n`,
    );
    let answers = 0;
    const result = await runCli(['--', ...fakeCommand()], home, {
      input,
      onStderr: (stderr) => {
        while (count(stderr, 'answer 1-2') > answers) {
          answers++;
          input.write('n\n');
        }
      },
      onStdout: (stdout) => {
        if (count(stdout, '> ') === 2) input.end();
      },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(
      '▸ permission: Edit notes.md (File edits need your approval)\n▸   notes.md:\n▸     @@ -1,2 +1,2 @@\n▸       line one\n▸     - line two\n▸     + line 2\n▸   1) Yes\n',
    );
    expect(result.stderr).toContain('▸   big.txt (new file):\n▸     @@ -0,0 +1,300 @@\n▸     + line 0\n');
    expect(result.stderr).toContain(
      '▸   notes.md:\n▸     @@ -2,1 +2,1 @@\n▸     - line two\n▸     + line 2\n▸   1) Yes\n',
    );
    expect(result.stderr).toContain(`▸     + line ${MAX_QUESTION_DIFF_LINES - 3}\n`);
    expect(result.stderr).not.toContain(`+ line ${MAX_QUESTION_DIFF_LINES - 2}\n`);
    expect(result.stderr).toContain(
      `▸   … ${300 - (MAX_QUESTION_DIFF_LINES - 2)} more lines of diff not shown\n`,
    );
  });

  it('/quit at a permission question denies it, cancels the turn and leaves without asking again', async () => {
    const input = new PassThrough();
    input.write(`${JSON.stringify([permission, { text: 'edited' }])}\n`);
    let quit = false;
    const result = await runCli(['--', ...fakeCommand()], home, {
      input,
      onStderr: (stderr) => {
        if (!quit && stderr.includes('answer 1-2')) {
          quit = true;
          input.write('/quit\n');
        }
      },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(count(result.stderr, 'answer 1-2')).toBe(1);
    // Cancelling the turn answers its open question `cancelled`, as ACP asks.
    expect(result.stderr).toContain(
      '▸ cancelling the turn; leaving once it has ended\n▸ permission cancelled: Edit notes.md',
    );
    expect(result.stderr).toContain('▸ stopped: cancelled');
    // No prompt after the turn: the conversation ended there.
    expect(count(result.stdout, '> ')).toBe(1);
  });

  it('runs the demo agent, answering its questions with y, and ends with the input', async () => {
    const { result, answers } = await demoTurn('hello');
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

  it('shows the working directory and environment a command asks for, invisible characters escaped', async () => {
    await mkdir(join(home.work, 'sub'));
    const create = {
      request: 'terminal/create',
      params: {
        command: 'git',
        args: ['status\u200b'],
        cwd: join(home.work, 'sub'),
        env: [
          { name: 'GIT_DIR', value: '/tmp/evil\nrepo' },
          { name: 'NO_COLOR', value: '1' },
        ],
      },
    };
    const edit = {
      request: 'session/request_permission',
      params: {
        toolCall: {
          toolCallId: 'p1',
          kind: 'edit',
          title: 'Edit the notes',
          locations: [{ path: 'notes\u200b.md' }, { path: 'a\nb.md' }],
        },
        options: permission.params.options,
      },
    };
    const input = new PassThrough();
    input.write(`${JSON.stringify([edit, create])}\n`);
    let answers = 0;
    const result = await runCli(['--', ...fakeCommand()], home, {
      input,
      onStderr: (stderr) => {
        while (count(stderr, 'answer 1-') > answers) {
          answers++;
          input.write('n\n');
        }
        if (answers === 2) input.end();
      },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(
      '▸ permission: Edit the notes (File edits need your approval)\n' +
        '▸   path notes\\u{200b}.md\n' +
        '▸   path a\\nb.md\n',
    );
    expect(result.stderr).toContain(
      "▸ permission: git 'status\\u{200b}' (sets GIT_DIR (off the environment allow list))\n" +
        '▸   in sub\n' +
        '▸   env GIT_DIR=/tmp/evil\\nrepo (off the allow list)\n' +
        '▸   env NO_COLOR=1\n',
    );
  });

  it('asks once about a compound command: the agent’s question covers the terminal that runs it', async () => {
    // v1: the terminal is the client's (terminal/create), covered by the agent's question; a v2
    // agent runs its own terminal after the same one question.
    const { result, answers } = await demoTurn('run echo one; echo two', ['--protocol', '1']);
    expect(result.code, result.stderr).toBe(0);
    expect(answers, result.stderr).toBe(1);
    expect(result.stderr).toContain('▸ permission: echo one; echo two');
    expect(result.stderr).toContain('▸ permission allowed: /bin/sh -c');
  }, 30_000);
});
