/** `acp completion`: scripts generated from the commander tree, loaded by the real shells. */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, SELF, testHome, type TestHome } from '../test-support/cli-harness.js';

let home: TestHome;
/** An `acp` on disk (the scripts call it back for agent names). */
let acp: string;
const scripts: Record<string, string> = {};

const has = (shell: string): boolean => spawnSync(shell, ['-c', 'true']).status === 0;

beforeAll(async () => {
  home = await testHome();
  acp = join(home.dir, 'bin', 'acp');
  mkdirSync(join(home.dir, 'bin'));
  writeFileSync(acp, `#!/bin/sh\nexec ${[SELF.command, ...SELF.args].map((w) => `'${w}'`).join(' ')} "$@"\n`);
  chmodSync(acp, 0o755);
  mkdirSync(join(home.work, 'subdir'));
  await runCli(['agents', 'add', 'mine', '--', 'my-agent'], home);
  for (const shell of ['bash', 'zsh', 'fish']) {
    const result = await runCli(['completion', shell], home);
    expect(result.code).toBe(0);
    scripts[shell] = join(home.dir, `acp.${shell}`);
    writeFileSync(scripts[shell] as string, result.stdout);
  }
}, 30_000);
afterAll(() => home.cleanup());

/** What bash offers for the words typed so far (the last one is being completed). */
function bashOffers(...words: string[]): string[] {
  const array = [acp, ...words].map((w) => `'${w}'`).join(' ');
  const result = spawnSync(
    'bash',
    [
      '-c',
      `source '${scripts.bash}'; COMP_WORDS=(${array}); COMP_CWORD=${words.length}; _acp_complete; printf '%s\\n' "\${COMPREPLY[@]}"`,
    ],
    { cwd: home.work, env: home.env, encoding: 'utf8' },
  );
  expect(result.stderr).toBe('');
  return result.stdout.split('\n').filter(Boolean).sort();
}

describe('acp completion bash', () => {
  it('is a valid bash script', () => {
    expect(spawnSync('bash', ['-n', scripts.bash as string]).status).toBe(0);
  });

  it('offers commands, subcommands, options and fixed values', () => {
    expect(bashOffers('')).toEqual([
      'agent',
      'agents',
      'chain',
      'check',
      'completion',
      'doctor',
      'help',
      'proxy',
      'replay',
      'rules',
      'run',
      'serve',
      'sessions',
    ]);
    expect(bashOffers('ru')).toEqual(['rules', 'run']);
    expect(bashOffers('re')).toEqual(['replay']);
    expect(bashOffers('do')).toEqual(['doctor']);
    expect(bashOffers('check', '--o')).toEqual(['--offline', '--only']);
    expect(bashOffers('sessions', '')).toEqual(['delete', 'help', 'list', 'show']);
    expect(bashOffers('run', '--f')).toEqual(['--file', '--format']);
    expect(bashOffers('run', '--format', '')).toEqual(['json', 'text']);
    expect(bashOffers('run', '--approve', 'r')).toEqual(['reads']);
    expect(bashOffers('agents', 'list', '--format', '')).toEqual(['json', 'names', 'text']);
    expect(bashOffers('completion', '')).toEqual(['bash', 'fish', 'zsh']);
    expect(bashOffers('--')).toEqual([
      '--agent',
      '--cwd',
      '--help',
      '--protocol',
      '--resume',
      '--url',
      '--version',
    ]);
    // The agent's own options come from the agent package.
    expect(bashOffers('agent', '--de')).toEqual(['--demo', '--demo-delay']);
  });

  it('skips options with values when finding the command, and stops after --', () => {
    expect(bashOffers('run', '--agent', 'demo', '--f')).toEqual(['--file', '--format']);
    expect(bashOffers('sessions', 'list', '--agent', 'demo', '--cwd', 'x', '--f')).toEqual(['--format']);
    expect(bashOffers('run', 'hello', '--', 'my-ag')).toEqual([]);
  });

  it('offers agent names from the catalog, and directories for --cwd', () => {
    expect(bashOffers('--agent', 'mi')).toEqual(['mine']);
    expect(bashOffers('run', '--agent', 'de')).toEqual(['demo']);
    expect(bashOffers('run', '--agent', '')).toEqual(
      expect.arrayContaining(['claude', 'codex', 'demo', 'mine']),
    );
    expect(bashOffers('run', '--cwd', 'sub')).toEqual(['subdir']);
  });
});

describe.skipIf(!has('zsh'))('acp completion zsh', () => {
  it('is a valid zsh script that finds the command being typed', () => {
    expect(spawnSync('zsh', ['-n', scripts.zsh as string]).status).toBe(0);
    const walk = spawnSync(
      'zsh',
      [
        '-c',
        `compdef() { :; }; source '${scripts.zsh}'; _acp_walk sessions list --agent demo --format; echo "[$_acp_path][$_acp_pending][$(_acp_value "$_acp_path" --format)]"`,
      ],
      { encoding: 'utf8' },
    );
    expect(walk.stdout.trim()).toBe('[sessions list][--format][choices:text json]');
  });
});

describe.skipIf(!has('fish'))('acp completion fish', () => {
  /** What fish offers for a command line (fish's own `complete -C`). */
  function fishOffers(line: string): string[] {
    const result = spawnSync(
      'fish',
      ['--no-config', '-c', `source '${scripts.fish}'; complete -C '${line}'`],
      {
        cwd: home.work,
        env: { ...home.env, PATH: `${join(home.dir, 'bin')}:${home.env.PATH}` },
        encoding: 'utf8',
      },
    );
    expect(result.stderr).toBe('');
    return result.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => l.split('\t')[0] as string)
      .sort();
  }

  it('is a valid fish script offering commands, options and values', () => {
    expect(spawnSync('fish', ['--no-config', '-n', scripts.fish as string]).status).toBe(0);
    expect(fishOffers('acp ru')).toEqual(['rules', 'run']);
    expect(fishOffers('acp sessions ')).toEqual(['delete', 'help', 'list', 'show']);
    expect(fishOffers('acp run --format ')).toEqual(['json', 'text']);
    expect(fishOffers('acp run --agent demo --fo')).toEqual(['--format']);
    expect(fishOffers('acp --agent mi')).toEqual(['mine']);
  });
});
