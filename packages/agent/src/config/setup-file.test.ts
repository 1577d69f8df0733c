import { mkdir, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { PassThrough } from 'node:stream';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../test-support/harness.js';
import { loadSettings } from './settings.js';
import { runAgentSetup, type SetupIo } from './setup-command.js';
import { SetupError, maskKey, setupProblems, withStandardKey, writeSetup } from './setup-file.js';

let home: string;
let path: string;

beforeEach(async () => {
  home = await tempDir('home');
  path = join(home, 'config', 'acp-kit', 'agent.json');
});

afterEach(async () => {
  await removeDir(home);
});

const readJson = async (): Promise<Record<string, unknown>> =>
  JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;

describe('writeSetup', () => {
  it('creates the file; a key makes it 0600, and the loaded settings use the model', async () => {
    const plain = writeSetup(path, {
      provider: 'openai-compatible',
      baseUrl: 'http://127.0.0.1:8/v1',
      model: 'm',
    });
    expect(plain).toMatchObject({ modelId: 'openai-compatible/m', holdsKey: false });
    expect((await stat(path)).mode & 0o777).toBe(0o666 & ~process.umask()); // the usual mode

    const secret = writeSetup(path, { provider: 'anthropic', apiKey: 'sk-ant-0123456789abcdef' });
    expect(secret).toMatchObject({ modelId: 'anthropic/claude-sonnet-4-5', holdsKey: true });
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(secret.shown).toContain('"apiKey": "sk-…cdef"');
    expect(secret.shown).not.toContain('0123456789');
    const settings = loadSettings({ HOME: home, XDG_CONFIG_HOME: join(home, 'config') });
    expect(settings.models.map((m) => m.id)).toEqual(['anthropic/claude-sonnet-4-5', 'openai-compatible/m']);
    expect(settings.problems).toEqual([]);
    // No temp file is left behind.
    expect(await readdir(dirname(path))).toEqual(['agent.json']);
  });

  it('keeps the rest of an existing file and replaces only the provider set up again', async () => {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(
      path,
      JSON.stringify({
        providers: { ollama: { type: 'openai-compatible', baseUrl: 'http://127.0.0.1:11434/v1' } },
        models: [{ provider: 'ollama', model: 'qwen3:8b', contextWindow: 40960 }],
        maxSteps: 7,
      }),
    );
    writeSetup(path, { provider: 'openai', apiKeyEnv: 'MY_OPENAI_KEY', model: 'gpt-5' });
    writeSetup(path, { provider: 'openai', apiKeyEnv: 'MY_OPENAI_KEY', model: 'gpt-5-mini' });
    expect(await readJson()).toEqual({
      providers: {
        ollama: { type: 'openai-compatible', baseUrl: 'http://127.0.0.1:11434/v1' },
        openai: { type: 'openai', apiKeyEnv: 'MY_OPENAI_KEY' },
      },
      models: [
        { provider: 'openai', model: 'gpt-5-mini' },
        { provider: 'ollama', model: 'qwen3:8b', contextWindow: 40960 },
      ],
      maxSteps: 7,
      defaultModel: 'openai/gpt-5-mini',
    });
  });

  it('refuses, writing nothing, when the existing file is not valid JSON or answers are unusable', async () => {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, '{ "providers": ');
    expect(() =>
      writeSetup(path, { provider: 'openai-compatible', baseUrl: 'http://x/v1', model: 'm' }),
    ).toThrow(/not valid JSON.*Nothing was written/);
    expect(await readFile(path, 'utf8')).toBe('{ "providers": ');
    await writeFile(path, '[1]');
    expect(() => writeSetup(path, { provider: 'anthropic', apiKey: 'k' })).toThrow(SetupError);
    expect(() => writeSetup(join(home, 'new.json'), { provider: 'openai-compatible', model: 'm' })).toThrow(
      /base URL/,
    );
  });
});

describe('setup answers', () => {
  it('names every problem', () => {
    expect(setupProblems({ provider: 'openai-compatible' })).toEqual([
      'An OpenAI-compatible server needs its base URL, e.g. http://localhost:11434/v1.',
      'Name the model your server serves (for example qwen3:8b).',
    ]);
    expect(setupProblems({ provider: 'openai', baseUrl: 'ftp://x' })).toEqual([
      '"ftp://x" is not an http:// or https:// URL.',
      'OpenAI needs an API key: give it, or set OPENAI_API_KEY.',
    ]);
    expect(setupProblems({ provider: 'anthropic', apiKeyEnv: 'not a name' })).toEqual([
      '"not a name" is not an environment variable name.',
    ]);
    expect(setupProblems({ provider: 'anthropic', apiKey: 'sk one' })).toHaveLength(1);
  });

  it('refers to the conventional key variable when it is set and no key was given', () => {
    expect(withStandardKey({ provider: 'openai' }, { OPENAI_API_KEY: 'x' })).toEqual({
      provider: 'openai',
      apiKeyEnv: 'OPENAI_API_KEY',
    });
    expect(withStandardKey({ provider: 'openai' }, {})).toEqual({ provider: 'openai' });
    expect(maskKey('short')).toBe('••••');
  });
});

describe('acp agent setup without a terminal', () => {
  function io(stdin = ''): SetupIo & { out: () => string; err: () => string } {
    const input = new PassThrough();
    input.end(stdin);
    let out = '';
    let err = '';
    const output = new PassThrough();
    output.on('data', (chunk: Buffer) => (out += chunk.toString()));
    return {
      input,
      output,
      errors: { write: (text: string) => (err += text) },
      env: { HOME: home, XDG_CONFIG_HOME: join(home, 'config') },
      out: () => out,
      err: () => err,
    };
  }

  it('takes flags, reads a key from stdin, and shows what it wrote with the key masked', async () => {
    const world = io('sk-ant-0123456789abcdef\n');
    expect(await runAgentSetup({ provider: 'anthropic', apiKeyStdin: true }, world)).toBe(0);
    expect(world.out()).toContain(`Wrote ${path} (mode 0600`);
    expect(world.out()).toContain('sk-…cdef');
    expect(world.out()).not.toContain('0123456789');
    expect(await readJson()).toMatchObject({
      providers: { anthropic: { apiKey: 'sk-ant-0123456789abcdef' } },
    });
  });

  it('exits 2 with the usage when a flag is missing or wrong, writing nothing', async () => {
    for (const options of [{}, { provider: 'nope' }, { provider: 'openai' }, { baseUrl: 'http://x/v1' }]) {
      const world = io();
      expect(await runAgentSetup(options, world)).toBe(2);
      expect(world.err()).toMatch(
        /^acp: agent setup: .+\nhint: without a terminal: acp agent setup --provider [^\n]+\n$/,
      );
    }
    await expect(stat(path)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
