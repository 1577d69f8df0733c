import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { quoteArgv } from '@acp-kit/client';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  SELF,
  fakeCommand,
  jsonLines,
  runCli,
  spawnCli,
  testHome,
  type TestHome,
} from './test-support/cli-harness.js';

let home: TestHome;
beforeEach(async () => {
  home = await testHome();
});
afterEach(() => home.cleanup());

const script = (steps: unknown[]): string => JSON.stringify(steps);
const perm = (kind: string, extra: Record<string, unknown> = {}) => ({
  request: 'session/request_permission',
  params: {
    toolCall: { toolCallId: `${kind}-1`, kind, title: `${kind} it`, ...extra },
    options: [
      { optionId: 'yes', name: 'Yes', kind: 'allow_once' },
      { optionId: 'no', name: 'No', kind: 'reject_once' },
    ],
  },
});

describe('acp run, text', () => {
  it("prints the agent's message on stdout and the rest on stderr", async () => {
    const r = await runCli(['run', 'hello', '--', ...fakeCommand()], home);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('echo: hello [text]\n');
    const tools = await runCli(
      [
        'run',
        script([
          {
            update: {
              sessionUpdate: 'plan',
              entries: [{ content: 'Step one', priority: 'high', status: 'pending' }],
            },
          },
          {
            update: {
              sessionUpdate: 'tool_call',
              toolCallId: 't',
              title: 'Read \x1b[31mx',
              kind: 'read',
              status: 'completed',
            },
          },
          { text: 'answer' },
        ]),
        '--',
        ...fakeCommand(),
      ],
      home,
    );
    expect(tools.stdout).toBe('answer\n');
    expect(tools.stderr).toContain('▸ plan:\n▸   [ ] Step one\n');
    expect(tools.stderr).toContain('▸ tool: Read x [read]\n▸   done: Read x\n');
  });

  it('--verbose prints a streamed thought as lines, not one note per chunk', async () => {
    const thought = (text: string) => ({
      update: { sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text } },
    });
    const steps = [
      thought('Looking '),
      thought('at the '),
      thought('files.\nThen '),
      thought('done.'),
      { text: 'answer' },
    ];
    const r = await runCli(['run', '--verbose', script(steps), '--', ...fakeCommand()], home);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('answer\n');
    expect(r.stderr.split('\n').filter((line) => line.includes('thinking'))).toEqual([
      '▸ thinking: Looking at the files.',
      '▸ thinking: Then done.',
    ]);
  });

  it('reads the prompt from stdin with -, and attaches files', async () => {
    await writeFile(join(home.work, 'notes.md'), '# notes\n');
    const r = await runCli(['run', '-', '--file', 'notes.md', '--', ...fakeCommand()], home, {
      stdin: 'from stdin',
    });
    expect(r.stdout).toBe('echo: from stdin [text,resource]\n');
  });
});

describe('acp run with a prompt piped in', () => {
  it('reads the prompt from a pipe when no argument is given', async () => {
    const r = await runCli(['run', '--', ...fakeCommand()], home, { stdin: 'piped prompt\n' });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('echo: piped prompt\n [text]\n');
  });

  it('sends the argument with the piped text attached as a second text block', async () => {
    const r = await runCli(['run', '--format', 'json', 'summarise this', '--', ...fakeCommand()], home, {
      stdin: 'line one\nline two\n',
    });
    expect(r.code).toBe(0);
    const lines = jsonLines(r.stdout);
    const text = lines
      .filter((line) => line.type === 'update')
      .map((line) => (line.update as { content?: { text?: string } }).content?.text ?? '')
      .join('');
    expect(text).toBe('echo: summarise this [text,text]');
    const { localId } = lines.at(-1) as { localId: string };
    const shown = jsonLines(
      (await runCli(['sessions', 'show', localId, '--format', 'json'], home)).stdout,
    )[0] as {
      events: { type: string; prompt?: unknown }[];
    };
    expect(JSON.stringify(shown.events)).toContain('line one\\nline two\\n');
  });

  it('tells a shell pipe (read) from a stdin nobody writes to (not read) in a real process', async () => {
    const acp = quoteArgv([SELF.command, ...SELF.args]);
    const agent = quoteArgv(fakeCommand());
    const sh = (line: string) =>
      promisify(execFile)('sh', ['-c', line], { cwd: home.work, env: home.env }).then(
        (r) => r.stdout,
        (error: { stdout: string }) => error.stdout,
      );
    expect(await sh(`printf 'from a pipe' | ${acp} run -- ${agent}`)).toBe('echo: from a pipe [text]\n');
    expect(await sh(`printf 'attached' | ${acp} run 'the argument' -- ${agent}`)).toBe(
      'echo: the argument [text,text]\n',
    );
    // execFile's stdin is a socket this test never writes to or closes: not waited for.
    expect(await sh(`${acp} run 'alone' -- ${agent}`)).toBe('echo: alone [text]\n');
  });

  it('says how to give a prompt when there is none, and ignores an empty pipe next to an argument', async () => {
    const none = await runCli(['run', '--', ...fakeCommand()], home);
    expect(none.code).toBe(2);
    expect(none.stderr).toBe(
      'acp: no prompt\nhint: acp run "PROMPT", or pipe it in: echo "PROMPT" | acp run (acp run - reads stdin whatever it is)\n',
    );
    const empty = await runCli(['run', '--', ...fakeCommand()], home, { stdin: '  \n' });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('acp: the prompt is empty (stdin had no text)');
    const argument = await runCli(['run', 'hello', '--', ...fakeCommand()], home, { stdin: '' });
    expect(argument.stdout).toBe('echo: hello [text]\n');
  });
});

describe('acp run --format json', () => {
  it("prints every update in the client's model (one schema for both versions), nothing lost, and stopReason last", async () => {
    const updates = [
      { sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'thinking' } },
      {
        sessionUpdate: 'tool_call',
        toolCallId: 't1',
        title: 'Edit',
        kind: 'edit',
        status: 'pending',
        locations: [{ path: '/x', line: 3 }],
      },
      { sessionUpdate: 'future_variant', anything: { nested: [1, 2] } },
      { sessionUpdate: 'usage_update', used: 10, size: 100 },
      {
        sessionUpdate: 'agent_message_chunk',
        content: { type: 'text', text: 'done' },
        messageId: 'm',
        _meta: { vendor: { a: 1 } },
      },
    ];
    const r = await runCli(
      ['run', '--format', 'json', script(updates.map((update) => ({ update }))), '--', ...fakeCommand()],
      home,
    );
    expect(r.code).toBe(0);
    const lines = jsonLines(r.stdout);
    expect(lines[0]).toMatchObject({ type: 'session', format: 2, how: 'new' });
    const received = lines.filter((l) => l.type === 'update');
    expect(received.every((l) => typeof l.sessionId === 'string' && l.sessionId !== '')).toBe(true);
    // Each in the client's model, the same for both protocol versions; nothing is lost.
    expect(received.map((l) => l.update)).toEqual([
      expect.objectContaining({ kind: 'commands' }),
      { kind: 'message_chunk', role: 'thought', content: { type: 'text', text: 'thinking' } },
      {
        kind: 'tool_call',
        toolCallId: 't1',
        newInstance: true,
        patch: { title: 'Edit', kind: 'edit', status: 'pending', locations: [{ path: '/x', line: 3 }] },
      },
      { kind: 'unknown', version: 1, updateKind: 'future_variant', raw: updates[2] },
      { kind: 'usage', used: 10, size: 100 },
      {
        kind: 'message_chunk',
        role: 'agent',
        messageId: 'm',
        content: { type: 'text', text: 'done' },
        meta: { vendor: { a: 1 } },
      },
    ]);
    expect(lines.at(-1)).toMatchObject({ type: 'result', stopReason: 'end_turn', exitCode: 0 });
  });

  it('reports each permission decision with the option sent', async () => {
    const r = await runCli(
      [
        'run',
        '--format',
        'json',
        '--approve',
        'reads',
        script([perm('read', { locations: [{ path: join(home.work, 'a') }] }), perm('edit')]),
        '--',
        ...fakeCommand(),
      ],
      home,
    );
    const decisions = jsonLines(r.stdout).filter((l) => l.type === 'permission');
    expect(decisions.map((d) => [d.kind, d.decision, (d.outcome as { optionId?: string }).optionId])).toEqual(
      [
        ['read', 'allow', 'yes'],
        ['edit', 'deny', 'no'],
      ],
    );
  });
});

describe('acp run --approve and rules', () => {
  const decisions = async (args: string[], steps: unknown[]) => {
    const r = await runCli(['run', '--format', 'json', ...args, script(steps), '--', ...fakeCommand()], home);
    return jsonLines(r.stdout)
      .filter((l) => l.type === 'permission')
      .map((l) => l.decision);
  };
  const readInside = () => perm('read', { locations: [{ path: join(home.work, 'a.txt') }] });
  const readOutside = () => perm('read', { locations: [{ path: '/etc/passwd' }] });
  const run = () => perm('execute', { rawInput: { command: 'git status' } });
  const compound = () => perm('execute', { rawInput: { command: 'git status; curl x | sh' } });

  it('applies the base modes', async () => {
    expect(await decisions([], [readInside(), perm('edit'), readOutside()])).toEqual([
      'allow',
      'deny',
      'deny',
    ]);
    expect(await decisions(['--approve', 'all'], [readInside(), perm('edit'), run(), readOutside()])).toEqual(
      ['allow', 'allow', 'allow', 'deny'],
    );
    expect(await decisions(['--approve', 'none'], [readInside()])).toEqual(['deny']);
  });

  it('applies saved rules and --policy on top', async () => {
    expect(
      (await runCli(['rules', 'add', '--allow', '--kind', 'execute', '--command', 'git status'], home)).code,
    ).toBe(0);
    expect(await decisions([], [run(), compound()])).toEqual(['allow', 'deny']);
    expect(await decisions(['--approve', 'none'], [run()])).toEqual(['deny']);
    const policy = join(home.dir, 'policy.json');
    await writeFile(policy, JSON.stringify({ rules: [{ id: 'no-edits', action: 'deny', kinds: ['edit'] }] }));
    expect(await decisions(['--approve', 'all', '--policy', policy], [perm('edit'), run()])).toEqual([
      'deny',
      'allow',
    ]);
  });
});

describe('acp run exit codes', () => {
  it.each([
    ['refusal', 3],
    ['max_tokens', 5],
    ['max_turn_requests', 5],
  ])('%s → %i', async (stop, code) => {
    expect((await runCli(['run', script([{ stop }]), '--', ...fakeCommand()], home)).code).toBe(code);
  });

  it('6 when the agent needs authentication, naming the credentials it was not given and how to pass them', async () => {
    home.env.FAKE_API_KEY = 'set-by-the-user';
    const r = await runCli(['run', 'hi', '--', ...fakeCommand({ requireAuth: true })], home);
    expect(r.code).toBe(6);
    expect(r.stderr).toContain('held back from this agent (named like credentials): FAKE_API_KEY');
    expect(r.stderr).toContain('ACP_KIT_PASS_ENV=FAKE_API_KEY');
    expect(r.stderr).not.toContain('set-by-the-user');
    home.env.ACP_KIT_PASS_ENV = 'FAKE_API_KEY';
    const passed = await runCli(['run', 'hi', '--', ...fakeCommand({ requireAuth: true })], home);
    expect(passed.stderr).not.toContain('held back');
  });

  it('--auth shows what a login prints (its URL) while it waits, and Ctrl-C stops waiting', async () => {
    const agent = fakeCommand({
      requireAuth: true,
      loginPrints: 'https://login.example/xyz',
      authMethods: [{ id: 'browser', name: 'Log in with a browser' }],
    });
    const r = await runCli(['run', '--auth', 'browser', 'hi', '--', ...agent], home, {
      onStderr: (text, interrupt) => {
        if (text.includes('waiting for the browser')) interrupt();
      },
    });
    expect(r.stderr).toContain('agent (signing in): Open this URL to sign in: https://login.example/xyz');
    expect(r.stderr).toContain('agent (signing in): waiting for the browser');
    expect(r.code).toBe(130);
  });

  it('2 for an --auth method the agent does not list, naming the ones it does', async () => {
    const agent = fakeCommand({ requireAuth: true, authMethods: [{ id: 'browser-login', name: 'Log in' }] });
    const r = await runCli(['run', '--auth', 'bogus', 'hi', '--', ...agent], home);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('has no sign-in method "bogus"');
    expect(r.stderr).toContain('--auth browser-login (Log in)');
  });

  it('6 when the agent needs authentication, saying what to do', async () => {
    const r = await runCli(
      [
        'run',
        'hi',
        '--',
        ...fakeCommand({
          requireAuth: true,
          authData: {
            authMethods: [{ id: 'key', name: 'API key', type: 'env_var', vars: [{ name: 'FAKE_KEY' }] }],
          },
        }),
      ],
      home,
    );
    expect(r.code).toBe(6);
    expect(r.stderr).toContain('needs authentication');
    expect(r.stderr).toContain('set FAKE_KEY in the environment');
    const json = await runCli(
      ['run', '--format', 'json', 'hi', '--', ...fakeCommand({ requireAuth: true })],
      home,
    );
    expect(jsonLines(json.stdout).at(-1)).toMatchObject({ type: 'result', stopReason: null, exitCode: 6 });
    const agentMethod = {
      requireAuth: true,
      authData: { authMethods: [{ id: 'browser-login', name: 'Log in' }] },
    };
    const told = await runCli(['run', 'hi', '--', ...fakeCommand(agentMethod)], home);
    expect(told.stderr).toContain('Log in: run again with --auth browser-login');
    const authed = await runCli(
      ['run', '--auth', 'browser-login', 'hi', '--', ...fakeCommand(agentMethod)],
      home,
    );
    expect(authed.code).toBe(0);
  });

  it("adds the catalog's sign-in hint when the agent fails to open a session with a JSON-RPC error", async () => {
    const [command, ...args] = fakeCommand({
      newSessionError: {
        code: -32603,
        message: 'Internal error',
        data: { details: 'process exited with code 1' },
      },
    });
    await mkdir(home.env.ACP_KIT_CONFIG_DIR as string, { recursive: true });
    await writeFile(
      join(home.env.ACP_KIT_CONFIG_DIR as string, 'agents.json'),
      JSON.stringify({
        agents: { locked: { name: 'Locked', command, args, authHint: 'run `locked login`' } },
      }),
    );
    const r = await runCli(['run', '--agent', 'locked', 'hi'], home);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('Internal error {"details":"process exited with code 1"}');
    expect(r.stderr).toContain('if Locked needs you to sign in: run `locked login`');
  });

  it('runs a terminal login with --auth when someone is at the terminal, then restarts the agent', async () => {
    const method = { id: 'tlogin', name: 'Terminal login', type: 'terminal', args: ['--login'] };
    const agent = fakeCommand({
      requireAuth: true,
      loginFile: join(home.dir, 'logged-in'),
      authMethods: [method],
      authData: { authMethods: [method] },
    });
    const told = await runCli(['run', 'hi', '--', ...agent], home);
    expect(told.code).toBe(6);
    expect(told.stderr).toContain('or run again with --auth tlogin to do it here');
    const piped = await runCli(['run', '--auth', 'tlogin', 'hi', '--', ...agent], home);
    expect(piped.code).toBe(2);
    expect(piped.stderr).toContain('--auth tlogin runs a login in a terminal and this is not one');
    const authed = await runCli(['run', '--auth', 'tlogin', 'hi', '--', ...agent], home, {
      interactive: true,
    });
    expect(authed.stderr).not.toContain('error');
    expect(authed.code).toBe(0);
    expect(authed.stdout).toContain('hi');
  });

  it('passes the key of an API-key auth method from ACP_KIT_AUTH_API_KEY, never from argv', async () => {
    const method = { id: 'key', name: 'Fake API key', _meta: { 'api-key': { provider: 'fake' } } };
    const agent = fakeCommand({
      requireAuth: true,
      requireApiKey: 'k-123',
      authMethods: [method],
      authData: { authMethods: [method] },
    });
    const told = await runCli(['run', 'hi', '--', ...agent], home);
    expect(told.code).toBe(6);
    expect(told.stderr).toContain(
      'Fake API key: set ACP_KIT_AUTH_API_KEY to your fake API key and run again with --auth key',
    );
    const missing = await runCli(['run', '--auth', 'key', 'hi', '--', ...agent], home);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--auth key needs your fake API key: set ACP_KIT_AUTH_API_KEY');
    const wrongKey = {
      ...home,
      env: { ...home.env, ACP_KIT_AUTH_API_KEY: 'k-wrong', OPENAI_API_KEY: 'not-for-this-agent' },
    };
    const refused = await runCli(['run', '--auth', 'key', 'hi', '--', ...agent], wrongKey);
    expect(refused.code).toBe(6);
    expect(refused.stderr).toContain('did not sign you in with key: Invalid API key');
    expect(refused.stderr).not.toContain('k-wrong');
    // What the agent was not given may be why it refused: said after the attempt too.
    expect(refused.stderr).toContain('held back from this agent (named like credentials): OPENAI_API_KEY;');
    expect(refused.stderr).not.toContain('not-for-this-agent');
    const withKey = { ...home, env: { ...home.env, ACP_KIT_AUTH_API_KEY: 'k-123' } };
    const authed = await runCli(['run', '--auth', 'key', 'hi', '--', ...agent], withKey);
    expect(authed.code).toBe(0);
    expect(authed.stdout).toContain('hi');
  });

  it('7 when the agent crashes mid-turn, with its exit reason', async () => {
    const r = await runCli(
      [
        'run',
        script([{ text: 'partial' }, { stderr: 'segfault in module\n' }, { exit: 11 }]),
        '--',
        ...fakeCommand(),
      ],
      home,
    );
    expect(r.code).toBe(7);
    expect(r.stdout).toBe('partial\n');
    expect(r.stderr).toContain('exited with code 11');
    expect(r.stderr).toContain('segfault in module');
  });

  it('8 when the agent is unknown, missing or broken', async () => {
    const unknown = await runCli(['run', '--agent', 'nope', 'hi'], home);
    expect(unknown.code).toBe(8);
    expect(unknown.stderr).toContain('no agent named "nope"');
    const json = await runCli(['run', '--agent', 'nope', '--format', 'json', 'hi'], home);
    expect(json.code).toBe(8);
    expect(json.stderr).toBe('');
    expect(jsonLines(json.stdout)).toEqual([
      expect.objectContaining({ type: 'error', code: 'AGENT_NOT_FOUND', exitCode: 8 }),
      { type: 'result', stopReason: null, exitCode: 8 },
    ]);
    const missing = await runCli(['run', '--agent', 'claude', 'hi'], {
      ...home,
      env: { ...home.env, PATH: home.dir },
    });
    expect(missing.code).toBe(8);
    expect(missing.stderr).toContain('npm install -g @agentclientprotocol/claude-agent-acp');
    expect((await runCli(['run', 'hi', '--', ...fakeCommand({ protocolVersion: 7 })], home)).code).toBe(8);
  });

  it('2 for bad usage', async () => {
    expect((await runCli(['run', '--', ...fakeCommand()], home)).code).toBe(2);
    expect((await runCli(['run', '--agent', 'demo', 'hi', '--', ...fakeCommand()], home)).code).toBe(2);
    expect((await runCli(['run', '--approve', 'some', 'hi'], home)).code).toBe(2);
    expect((await runCli(['run', '--bogus', 'hi'], home)).code).toBe(2);
    expect((await runCli(['run', 'hi'], home)).stderr).toContain('no agent');
    expect((await runCli(['run', '--session', 'nope', 'hi', '--', ...fakeCommand()], home)).code).toBe(2);
    const help = await runCli(['run', '--help'], home);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Exit codes: 0 end_turn');
  });

  it('Ctrl-C cancels the turn (4); a second one stops the agent (130)', async () => {
    const cancelled = await runCli(
      [
        'run',
        '--format',
        'json',
        script([{ text: 'working' }, { waitForCancel: true }]),
        '--',
        ...fakeCommand(),
      ],
      home,
      {
        onStdout: (out, interrupt) => {
          if (out.includes('"working"') && !out.includes('"info"')) interrupt();
        },
      },
    );
    expect(cancelled.code).toBe(4);
    expect(jsonLines(cancelled.stdout).at(-1)).toMatchObject({ stopReason: 'cancelled', exitCode: 4 });
    let presses = 0;
    const killed = await runCli(
      ['run', script([{ text: 'stubborn' }, { hang: true }]), '--', ...fakeCommand()],
      home,
      {
        onStdout: (out, interrupt) => {
          if (out.includes('stubborn') && presses === 0) {
            presses = 2;
            interrupt();
            interrupt();
          }
        },
      },
    );
    expect(killed.code).toBe(130);
    expect(killed.stderr).toContain('stopping the agent');
  });

  it('4 for a cancelled turn the agent answered with an error (Qwen Code), with a diagnostic', async () => {
    const aborted = { code: -32603, message: 'Internal error', data: { details: 'Request was aborted.' } };
    const r = await runCli(
      [
        'run',
        '--verbose',
        script([{ text: 'working\n' }, { waitForCancel: true, answerError: aborted }]),
        '--',
        ...fakeCommand(),
      ],
      home,
      {
        onStdout: (out, interrupt) => {
          if (out.includes('working')) interrupt();
        },
      },
    );
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('▸ stopped: cancelled');
    expect(r.stderr).not.toContain('the agent answered with error');
    expect(r.stderr).toContain(
      '▸ diagnostic: the agent answered the cancelled turn with error -32603 (Internal error {"details":"Request was aborted."}) instead of the stop reason "cancelled"',
    );
  });

  it('handles a real SIGINT', async () => {
    const child = spawnCli(
      [
        'run',
        '--format',
        'json',
        script([{ text: 'waiting' }, { waitForCancel: true }]),
        '--',
        ...fakeCommand(),
      ],
      home,
    );
    let out = '';
    let sent = false;
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('"waiting"') && !sent) {
        sent = true;
        child.kill('SIGINT');
      }
    });
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    expect(code).toBe(4);
    expect(jsonLines(out).at(-1)).toMatchObject({ stopReason: 'cancelled' });
  });
});

describe('acp run --session', () => {
  it('continues a stored session: resumed by the same agent, continued by another', async () => {
    const stateFile = join(home.dir, 'agent-state.json');
    const first = await runCli(
      ['run', '--format', 'json', 'first', '--', ...fakeCommand({ stateFile })],
      home,
    );
    const localId = String(jsonLines(first.stdout)[0]?.localId);
    const again = await runCli(
      ['run', '--format', 'json', '--session', localId, 'second', '--', ...fakeCommand({ stateFile })],
      home,
    );
    expect(jsonLines(again.stdout)[0]).toMatchObject({ type: 'session', localId, how: 'resume' });
    const other = await runCli(
      ['run', '--session', localId.slice(0, 14), 'third', '--', ...fakeCommand({ stateFile, caps: {} })],
      home,
    );
    expect(other.code).toBe(0);
    expect(other.stderr).toContain('continuing from the saved transcript');
    expect(other.stdout).toContain('echo: <previous-conversation>');
    const show = await runCli(['sessions', 'show', localId], home);
    expect(show.stdout.match(/^> /gm)).toHaveLength(3);
  });
});

describe('acp run --session without --agent', () => {
  it("continues with the session's recorded agent, not the default one", async () => {
    const demo = await runCli(['run', '--agent', 'demo', '--format', 'json', 'hello'], home);
    const demoId = String(jsonLines(demo.stdout)[0]?.localId);
    const stateFile = join(home.dir, 'agent-state.json');
    await runCli(['agents', 'add', 'fake', '--', ...fakeCommand({ stateFile })], home);
    await runCli(['agents', 'add', 'other', '--default', '--', ...fakeCommand({ caps: {} })], home);
    const first = await runCli(['run', '--agent', 'fake', '--json', 'first'], home);
    const fakeId = String(jsonLines(first.stdout)[0]?.localId);

    const again = await runCli(['run', '--json', '--session', fakeId, 'second'], home);
    expect(again.code, again.stderr).toBe(0);
    expect(jsonLines(again.stdout)[0]).toMatchObject({
      type: 'session',
      localId: fakeId,
      agent: 'fake',
      how: 'resume',
    });
    const text = await runCli(['run', '--session', demoId, 'and again'], home);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain('demo agent');
    const shown = await runCli(['sessions', 'show', demoId], home);
    expect(shown.stdout.match(/^> /gm)).toHaveLength(2);
  });

  it('asks for the command again when the session ran an agent given as a command', async () => {
    const first = await runCli(['run', '--format', 'json', 'first', '--', ...fakeCommand()], home);
    const localId = String(jsonLines(first.stdout)[0]?.localId);
    const again = await runCli(['run', '--session', localId, 'second'], home);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(
      new RegExp(
        `^acp: session ${localId} ran an agent given as a command\nhint: give that command again after --`,
      ),
    );
    const missing = await runCli(['run', '--session', 'nope', 'second'], home);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(
      'acp: no recorded session matches nope\nhint: `acp sessions list` shows the recorded sessions and their ids\n',
    );
  });
});

describe('acp run --agent demo', () => {
  it('streams a full demo turn; --format json prints the event stream', async () => {
    const text = await runCli(['run', '--agent', 'demo', 'hello'], home);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('demo agent');
    // Nobody was asked: the agent says which policy decided, not that a user rejected it.
    expect(text.stdout).toContain(
      "recording notes in `ACP_DEMO.md`: not done (The client's permission policy rejected this without asking anyone: edit is not a read (--approve reads))",
    );
    expect(text.stdout).not.toContain('The user rejected');
    const json = await runCli(
      // The demo speaks v2: the json event schema is the same for both versions (docs/run-json.md).
      ['run', '--agent', 'demo', '--approve', 'all', '--format', 'json', 'hello'],
      home,
    );
    expect(json.code).toBe(0);
    const lines = jsonLines(json.stdout);
    const kinds = new Set(
      lines
        .filter((l) => l.type === 'update')
        .map((l) => {
          const update = l.update as { kind: string; role?: string };
          return update.role ? `${update.kind}:${update.role}` : update.kind;
        }),
    );
    for (const kind of ['message_chunk:agent', 'message_chunk:thought', 'tool_call', 'plan', 'usage'])
      expect(kinds).toContain(kind);
    expect(lines.some((l) => l.type === 'permission' && l.decision === 'allow')).toBe(true);
    expect(lines.at(-1)).toMatchObject({ type: 'result', stopReason: 'end_turn', exitCode: 0 });
  });
});
