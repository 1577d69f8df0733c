/** `acp`'s one parser: the UI's options on the root command, the commands, and what each loads. */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { TuiArguments } from '@acp-kit/tui';
import type { CliIo } from './io.js';
import { main } from './main.js';
import { SELF } from './test-support/cli-harness.js';

function io(env: NodeJS.ProcessEnv = {}): CliIo & { out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return {
    stdout: { write: (t: string) => (out += t) },
    stderr: { write: (t: string) => (err += t) },
    readStdin: async () => '',
    env,
    cwd: '/',
    self: { command: process.execPath, args: ['acp'] },
    onSignal: () => () => undefined,
    out: () => out,
    err: () => err,
  };
}

/** Runs `acp ARGS` with a UI that records what it was asked to open. */
async function root(args: string[]): Promise<{ code: number; opened: TuiArguments[]; err: string }> {
  const opened: TuiArguments[] = [];
  const cli = io();
  const code = await main(['node', 'acp', ...args], cli, async (options) => {
    opened.push(options);
    return 0;
  });
  return { code, opened, err: cli.err() };
}

describe('acp without a command', () => {
  it('opens the terminal UI with the options parsed', async () => {
    expect((await root([])).opened).toEqual([{}]);
    expect((await root(['--agent', 'demo'])).opened).toEqual([{ agent: 'demo' }]);
    expect((await root(['--agent', 'demo', '--protocol', '2'])).opened).toEqual([
      { agent: 'demo', protocol: 2 },
    ]);
    expect((await root(['--protocol', '3'])).code).toBe(2);
    expect((await root(['--agent=demo', '--cwd', '/w', '--resume', 'abc'])).opened).toEqual([
      { agent: 'demo', cwd: '/w', resume: 'abc' },
    ]);
    expect((await root(['--cwd', '/w', '--', 'my-agent', '--acp', '--cwd', 'x'])).opened).toEqual([
      { cwd: '/w', command: ['my-agent', '--acp', '--cwd', 'x'] },
    ]);
    expect((await root(['--resume', 's-1', '--', 'my-agent'])).opened).toEqual([
      { resume: 's-1', command: ['my-agent'] },
    ]);
  });

  it('reports mistakes in the one error style, without opening the UI', async () => {
    const cases: [string[], RegExp][] = [
      [['--agent', 'x', '--', 'y'], /^acp: give either --agent NAME or a command after --, not both\nhint: /],
      [['--'], /^acp: a command is needed after --\nhint: acp -- COMMAND/],
      [['--agent'], /^acp: option '--agent <name>' argument missing\nhint: see `acp --help`/],
      [['--bogus'], /^acp: unknown option '--bogus'\nhint: see `acp --help`/],
      [['rn'], /^acp: unknown command 'rn'\nhint: did you mean run\? see `acp --help`/],
      [['version'], /^acp: unknown command 'version'\nhint: did you mean --version\? see `acp --help`\n$/],
      [['sessions', 'frob'], /^acp: unknown command 'frob'\nhint: see `acp sessions --help`\n$/],
      [
        ['sessions', 'shwo', 'x'],
        /^acp: unknown command 'shwo'\nhint: did you mean show\? see `acp sessions --help`\n$/,
      ],
      [
        ['agents', 'lsit'],
        /^acp: unknown command 'lsit'\nhint: did you mean list\? see `acp agents --help`\n$/,
      ],
      [['rules', 'frob'], /^acp: unknown command 'frob'\nhint: see `acp rules --help`\n$/],
      [
        ['--agent', 'demo', 'run', 'hi'],
        /^acp: --agent before a command belongs to the terminal UI\nhint: put/,
      ],
      [
        ['run', '--format', 'xml', 'hi'],
        /^acp: option '--format <format>' argument 'xml' is invalid.*\nhint: see `acp run --help`/,
      ],
      [['sessions', 'show'], /^acp: missing required argument 'id'\nhint: see `acp sessions show --help`/],
      [
        ['run', '--json', '--format', 'text', 'hi'],
        /^acp: option '--json' cannot be used with option '--format/,
      ],
    ];
    for (const [args, expected] of cases) {
      const result = await root(args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.opened).toEqual([]);
      expect(result.err, args.join(' ')).toMatch(expected);
      expect(result.err).not.toMatch(/^error:/m);
    }
  });

  it('needs a terminal, and says what to use instead', async () => {
    const cli = io({ TERM: 'xterm' });
    expect(await main(['node', 'acp'], cli)).toBe(2);
    expect(cli.err()).toBe(
      'acp: the terminal UI needs a terminal\nhint: use `acp run` for scripts and pipes, or TERM=dumb acp for a plain line-by-line conversation\n',
    );
  });

  it('shows the UI options, the agent command and examples in the root help, without loading the UI', async () => {
    const cli = io();
    const code = await main(['node', 'acp', '--help'], cli, async () => {
      throw new Error('the UI must not open');
    });
    expect(code).toBe(0);
    const text = cli.out();
    expect(text).toMatch(
      /^Usage: acp \[--agent NAME \| --url URL\] \[--cwd DIR\] \[--resume ID\] \[-- AGENT-COMMAND/,
    );
    for (const flag of [
      '--agent <name>',
      '--cwd <dir>',
      '--resume <id>',
      'agent-command',
      'Examples:',
      'TERM=dumb',
    ])
      expect(text).toContain(flag);
    for (const command of ['run', 'sessions', 'agents', 'rules', 'doctor', 'completion', 'agent', 'help'])
      expect(text).toMatch(new RegExp(`\\n  ${command} `));
  });
});

describe('startup', () => {
  const recorder = fileURLToPath(new URL('./test-support/load-recorder.mjs', import.meta.url));

  /** The modules `acp ARGS` loads (from source, as the tests run it). */
  function modulesLoadedBy(args: string[]): string[] {
    const dir = mkdtempSync(join(tmpdir(), 'acp-load-'));
    try {
      const log = join(dir, 'modules.log');
      const result = spawnSync(
        SELF.command,
        [...SELF.args.slice(0, -1), `--import=${recorder}`, SELF.args.at(-1) as string, ...args],
        {
          env: { ...process.env, ACP_LOAD_LOG: log },
          encoding: 'utf8',
        },
      );
      expect(result.status, result.stderr).toBe(0);
      return readFileSync(log, 'utf8').split('\n').filter(Boolean);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it('acp --version and acp run --help load commander and the CLI only', () => {
    for (const args of [['--version'], ['run', '--help']]) {
      const loaded = modulesLoadedBy(args);
      expect(loaded.some((url) => url.includes('/packages/cli/src/main.ts'))).toBe(true);
      const heavy = loaded.filter((url) =>
        /\/packages\/(client|tui|agent|protocol)\/|\/node_modules\/(ink|react)\//.test(url),
      );
      expect(heavy, args.join(' ')).toEqual([]);
    }
  });
});

describe('deprecated variable names', () => {
  it('are warned about on stderr, never on the stdout of acp agent, which stays protocol frames', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'acp-old-names-'));
    mkdirSync(join(dir, 'sessions', 'demo'), { recursive: true });
    try {
      const child = spawn(SELF.command, [...SELF.args, 'agent', '--demo'], {
        env: { ...process.env, ACP_KIT_LOG: 'warn', ACP_KIT_DATA_DIR: dir, ACP_KIT_AGENT_DATA_DIR: '' },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const answered = new Promise<void>((resolve) =>
        child.stdout.on('data', (chunk: Buffer) => {
          stdout += chunk.toString();
          if (stdout.includes('\n')) resolve();
        }),
      );
      child.stdin.write(
        `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: 1 } })}\n`,
      );
      await answered;
      child.stdin.end();
      await new Promise((resolve) => child.on('exit', resolve));
      for (const line of stdout.trim().split('\n'))
        expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
      expect(stderr).toContain(
        'acp: warning: ACP_KIT_LOG is deprecated: rename it to ACP_KIT_AGENT_LOG_LEVEL (docs/configuration.md)\n',
      );
      expect(stderr).toContain(`sessions are read from ${dir} in the old layout`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
