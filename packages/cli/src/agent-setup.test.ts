import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spawnCli, testHome, type TestHome } from './test-support/cli-harness.js';

let home: TestHome;
beforeEach(async () => {
  home = await testHome();
});
afterEach(async () => {
  await home.cleanup();
});

/** Runs `acp ARGS` as a child process; its exit code and output. */
async function acp(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawnCli(args, home);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (data: Buffer) => (stdout += data.toString()));
  child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, stdout, stderr };
}

describe('acp agent setup', () => {
  it.each([
    [
      'after setup',
      [
        'agent',
        'setup',
        '--provider',
        'openai-compatible',
        '--base-url',
        'http://localhost:11434/v1',
        '--model',
        'qwen3:8b',
      ],
    ],
    [
      'before setup',
      [
        'agent',
        '--provider',
        'openai-compatible',
        '--base-url',
        'http://localhost:11434/v1',
        '--model',
        'qwen3:8b',
        'setup',
      ],
    ],
  ])(
    'takes the model flags %s, as its help shows, and writes the config',
    async (_where, args) => {
      const { code, stderr, stdout } = await acp(args);
      expect(stderr).toBe('');
      expect(code).toBe(0);
      expect(stdout).toContain('Default model: openai-compatible/qwen3:8b');
      const config = JSON.parse(
        await readFile(join(home.env.ACP_KIT_CONFIG_DIR as string, 'agent.json'), 'utf8'),
      );
      expect(config).toMatchObject({
        providers: { 'openai-compatible': { baseUrl: 'http://localhost:11434/v1' } },
        defaultModel: 'openai-compatible/qwen3:8b',
      });
    },
    30_000,
  );

  it('without a terminal and without flags: the two-line error, the flags to give on the hint line', async () => {
    const { code, stderr, stdout } = await acp(['agent', 'setup']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      'acp: agent setup: no terminal to ask on: give at least --provider (or --base-url and --model)\n' +
        'hint: without a terminal: acp agent setup --provider openai-compatible|openai|anthropic [--base-url URL] [--model NAME] [--api-key-env VAR | --api-key-stdin] [--config FILE]\n',
    );
  });
});
