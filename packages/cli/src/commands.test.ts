import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AcpClient, ENV_ALLOW_LIST, resolveClientPaths } from '@acp-kit/client';
import { completionTree } from './commands/completion.js';
import { RULES_ADD_HELP } from './help-text.js';
import { buildProgram } from './main.js';
import { fakeCommand, jsonLines, runCli, SELF, testHome, type TestHome } from './test-support/cli-harness.js';

let home: TestHome;
beforeEach(async () => {
  home = await testHome();
});
afterEach(() => home.cleanup());

describe('acp sessions', () => {
  it('lists, shows and deletes recorded sessions', async () => {
    const empty = await runCli(['sessions'], home);
    expect(empty.code).toBe(0);
    expect(empty.stderr).toContain('no sessions yet');
    const run = await runCli(['run', '--format', 'json', 'hello there', '--', ...fakeCommand()], home);
    const localId = String(jsonLines(run.stdout)[0]?.localId);
    const list = await runCli(['sessions', 'list'], home);
    expect(list.stdout).toMatch(new RegExp(`^ID +AGENT +TURNS +UPDATED +TITLE +CWD\\n${localId} +cmd:`));
    const json = JSON.parse((await runCli(['sessions', 'list', '--json'], home)).stdout);
    expect(json[0]).toMatchObject({ localId, turns: 1, lastStopReason: 'end_turn', cwd: home.work });
    const show = await runCli(['sessions', 'show', localId], home);
    expect(show.stdout).toContain('> hello there\n');
    expect(show.stdout).toContain('echo: hello there [text]');
    const events = JSON.parse((await runCli(['sessions', 'show', '--json', localId], home)).stdout);
    expect(events.events.map((e: { type: string }) => e.type)).toEqual(
      expect.arrayContaining(['attached', 'prompt', 'update', 'turn_end']),
    );
    const trace = await readFile(
      join(home.dir, 'data', 'client', 'sessions', localId, 'trace.jsonl'),
      'utf8',
    );
    expect(trace).toContain('"method":"session/prompt"');
    expect((await runCli(['sessions', 'delete', localId], home)).code).toBe(0);
    expect((await runCli(['sessions', 'show', localId], home)).code).toBe(2);
  });

  it('leaves sessions without a turn out of the list unless --all, and says how many', async () => {
    const client = await AcpClient.create({
      paths: resolveClientPaths(home.env),
      env: home.env,
      self: SELF,
      mode: 'none',
    });
    const [command, ...args] = fakeCommand() as [string, ...string[]];
    const entry = { id: 'fake', name: 'fake', source: 'user' as const, command, args };
    const connection = await client.connect(entry, { cwd: home.work });
    await connection.newSession({ cwd: home.work });
    await client.close();
    const none = await runCli(['sessions', 'list'], home);
    expect(none.stdout).toBe('');
    expect(none.stderr).toBe(
      'no sessions with a turn yet; 1 without a turn not shown (acp sessions list --all shows them)\n',
    );
    expect(JSON.parse((await runCli(['sessions', 'list', '--json'], home)).stdout)).toEqual([]);
    const run = await runCli(['run', '--format', 'json', 'hello', '--', ...fakeCommand()], home);
    const localId = String(jsonLines(run.stdout)[0]?.localId);
    const list = await runCli(['sessions', 'list'], home);
    expect(list.stdout.trim().split('\n').slice(1)).toEqual([
      expect.stringMatching(new RegExp(`^${localId} `)),
    ]);
    expect(list.stderr).toBe('1 without a turn not shown (acp sessions list --all shows them)\n');
    const all = JSON.parse((await runCli(['sessions', 'list', '--all', '--json'], home)).stdout);
    expect(all.map((meta: { turns: number }) => meta.turns).sort()).toEqual([0, 1]);
  });

  it("lists an agent's own sessions", async () => {
    const stateFile = join(home.dir, 'state.json');
    await runCli(['run', 'one', '--', ...fakeCommand({ stateFile })], home);
    await runCli(['agents', 'add', 'fake', '--', ...fakeCommand({ stateFile })], home);
    const remote = await runCli(['sessions', 'list', '--agent', 'fake'], home);
    expect(remote.code).toBe(0);
    expect(remote.stdout).toMatch(/^SESSION +UPDATED +TITLE\nfake-/);
  });
});

describe('acp agents', () => {
  it('tells an agent whose file is not executable from one that is not installed', async () => {
    const script = join(home.dir, 'my-agent');
    await writeFile(script, '#!/bin/sh\n', { mode: 0o644 });
    const added = await runCli(['agents', 'add', 'mine', '--', script], home);
    expect(added.stderr).toContain(`(${script} is not executable yet: chmod +x)`);
    const listed = await runCli(['agents'], home);
    expect(listed.stdout).toMatch(/mine +no \(not executable\)/);
    expect(listed.stdout).toContain(`${script} is not executable (chmod +x)`);
    const doctor = await runCli(['doctor'], home);
    expect(doctor.stdout).toContain(`no (${script} is not executable: chmod +x)`);
  });

  it('lists built-ins with installed state, adds, overrides and removes user agents', async () => {
    const list = await runCli(['agents'], home);
    expect(list.stdout).toMatch(/^NAME +INSTALLED +SOURCE +COMMAND +NOTES\n/);
    expect(list.stdout).toMatch(/\ndemo +yes +builtin /);
    expect(list.stdout).toMatch(/\ncodex +(yes|no) +builtin +codex-acp/);
    const added = await runCli(
      ['agents', 'add', 'mine', '--env', 'LEVEL=3', '--default', '--', 'my-agent', '--acp'],
      home,
    );
    expect(added.code).toBe(0);
    expect(added.stderr).toContain('added mine: my-agent --acp (not found on PATH yet)');
    const json = JSON.parse((await runCli(['agents', 'list', '--json'], home)).stdout) as {
      id: string;
      default: boolean;
      env?: object;
    }[];
    expect(json.find((a) => a.id === 'mine')).toMatchObject({ default: true, env: { LEVEL: '3' } });
    expect((await runCli(['run', 'hi'], home)).stderr).toContain('my-agent was not found on PATH');
    expect((await runCli(['agents', 'remove', 'mine'], home)).code).toBe(0);
    expect((await runCli(['agents', 'remove', 'claude'], home)).stderr).toContain('built in');
    expect((await runCli(['agents', 'add', 'x'], home)).code).toBe(2);
  });

  it('imports agents from a registry file', async () => {
    const registry = join(home.dir, 'registry.json');
    await writeFile(
      registry,
      JSON.stringify({
        version: '1',
        agents: [
          {
            id: 'reg-agent',
            name: 'Reg',
            version: '1',
            description: 'd',
            distribution: { npx: { package: '@x/reg@1.2.3', args: ['--acp'] } },
          },
        ],
      }),
    );
    const r = await runCli(['agents', 'add', '--registry', registry], home);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('added reg-agent: npx -y @x/reg@1.2.3 --acp');
    expect((await runCli(['agents'], home)).stdout).toMatch(/\nreg-agent +\w+ +registry +npx/);
  });
});

describe('acp rules', () => {
  it('adds, lists and removes rules, refusing compound commands', async () => {
    const added = await runCli(
      ['rules', 'add', '--deny', '--kind', 'execute', '--command', 'git push', '--project'],
      home,
    );
    expect(added.code).toBe(0);
    const id = added.stdout.trim();
    const list = await runCli(['rules'], home);
    expect(list.stdout).toContain(`${id}  deny    project ${home.work}  *      execute  -     git push …  -`);
    const bad = await runCli(['rules', 'add', '--allow', '--command', 'git status; rm -rf /'], home);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('simple command');
    expect((await runCli(['rules', 'add', '--allow', '--deny'], home)).code).toBe(2);
    expect((await runCli(['rules', 'remove', id.slice(0, 10)], home)).code).toBe(0);
    expect(JSON.parse((await runCli(['rules', 'list', '--json'], home)).stdout)).toEqual([]);
  });

  it('adds an exact command rule naming the variables it may set, and lists it', async () => {
    const added = await runCli(
      [
        ...['rules', 'add', '--allow', '--kind', 'execute', '--command', 'make', '--exact'],
        ...['--env', 'MAKEFLAGS=-j4', '--env', 'MAKEFLAGS=-j8', '--env', 'NODE_ENV'],
      ],
      home,
    );
    expect(added.code, added.stderr).toBe(0);
    const [rule] = JSON.parse((await runCli(['rules', 'list', '--json'], home)).stdout) as unknown[];
    expect(rule).toMatchObject({
      action: 'allow',
      command: 'make',
      exact: true,
      env: { MAKEFLAGS: ['-j4', '-j8'], NODE_ENV: true },
    });
    expect((await runCli(['rules'], home)).stdout).toMatch(/ make +MAKEFLAGS=-j4\|-j8 NODE_ENV=\*\n/);
    const deny = await runCli(['rules', 'add', '--deny', '--command', 'make', '--env', 'HOME'], home);
    expect(deny.code).toBe(2);
    expect(deny.stderr).toContain('"env" is for allow rules only');
    const exact = await runCli(['rules', 'add', '--allow', '--exact'], home);
    expect(exact.stderr).toContain('"exact" needs a "command"');
    // The help names the whole allow list.
    for (const { name } of ENV_ALLOW_LIST) expect(RULES_ADD_HELP).toMatch(new RegExp(`\\b${name}\\b`));
  });
  it('lists a remembered command, path and variable with their invisible characters escaped', async () => {
    const added = await runCli(
      [
        ...['rules', 'add', '--allow', '--kind', 'execute', '--command', 'git stat\u200bus', '--exact'],
        ...['--path', 'a\nb', '--env', 'GIT_DIR=/tmp/x\u202ey'],
      ],
      home,
    );
    expect(added.code, added.stderr).toBe(0);
    const list = (await runCli(['rules'], home)).stdout;
    expect(list.split('\n')).toHaveLength(3);
    expect(list).toContain(`  execute  a\\nb  git stat\\u{200b}us  GIT_DIR=/tmp/x\\u{202e}y\n`);
  });
});

describe('--format json and --json', () => {
  it('mean the same on every command that prints data', async () => {
    const run = await runCli(['run', '--json', 'hello', '--', ...fakeCommand()], home);
    expect(jsonLines(run.stdout).at(-1)).toMatchObject({ type: 'result', stopReason: 'end_turn' });
    const localId = String(jsonLines(run.stdout)[0]?.localId);
    await runCli(['rules', 'add', '--deny', '--kind', 'fetch'], home);
    for (const command of [
      ['sessions', 'list'],
      ['sessions', 'show', localId],
      ['agents', 'list'],
      ['rules', 'list'],
    ]) {
      const long = await runCli([...command, '--format', 'json'], home);
      const short = await runCli([...command, '--json'], home);
      expect(long.code, command.join(' ')).toBe(0);
      expect(JSON.parse(short.stdout)).toEqual(JSON.parse(long.stdout));
      const text = await runCli(command, home);
      expect(() => JSON.parse(text.stdout), command.join(' ')).toThrow();
    }
    const names = await runCli(['agents', 'list', '--format', 'names'], home);
    expect(names.stdout.split('\n')).toEqual(expect.arrayContaining(['demo', 'claude', 'codex']));
  });
});

describe('help', () => {
  it('lists every option of every command in its --help, with examples', async () => {
    const io = {
      stdout: { write: () => true },
      stderr: { write: () => true },
      readStdin: async () => '',
      env: home.env,
      cwd: home.work,
      self: SELF,
      onSignal: () => () => undefined,
    };
    const tree = completionTree(
      await buildProgram(
        io,
        undefined,
        () => undefined,
        async () => 0,
        'completion',
      ),
    );
    expect(tree.length).toBeGreaterThan(12);
    for (const command of tree) {
      if (command.path.at(-1) === 'help') continue;
      const shown = await runCli([...command.path, '--help'], home);
      expect(shown.code).toBe(0);
      for (const option of command.options)
        for (const name of option.names)
          expect(shown.stdout, `${command.path.join(' ')} ${name}`).toContain(name);
      expect(shown.stdout, command.path.join(' ')).toContain('Examples:');
    }
  });

  it.each([
    ['--help'],
    ['run', '--help'],
    ['sessions', '--help'],
    ['agents', 'add', '--help'],
    ['rules', 'add', '--help'],
    ['agent', '--help'],
  ])('acp %s', async (...args) => {
    const r = await runCli(args, home);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: acp/);
  });
  it('acp without a command opens the terminal UI, which needs a terminal', async () => {
    const r = await runCli([], home);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'acp: the terminal UI needs a terminal\nhint: use `acp run` for scripts and pipes, or TERM=dumb acp for a plain line-by-line conversation\n',
    );
  });
});
