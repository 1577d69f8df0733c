import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../test-support/harness.js';
import { loadSettings, setupInstructions } from './settings.js';

let home: string;

beforeEach(async () => {
  home = await tempDir('home');
});

afterEach(async () => {
  await removeDir(home);
});

describe('loadSettings', () => {
  const base = () => ({ HOME: home, XDG_CONFIG_HOME: join(home, 'config') });

  it('has no models and says exactly what to set when nothing is configured', () => {
    const settings = loadSettings(base());
    expect(settings.models).toEqual([]);
    expect(setupInstructions(settings)).toContain(join(home, 'config', 'acp-kit', 'agent.json'));
  });

  it('configures an OpenAI-compatible server from ACP_KIT_* variables, flags winning', () => {
    const settings = loadSettings(
      {
        ...base(),
        ACP_KIT_BASE_URL: 'http://localhost:11434/v1',
        ACP_KIT_MODEL: 'qwen3:8b,llama3.2',
        ACP_KIT_MAX_STEPS: '7',
      },
      { model: 'qwen3:8b', contextWindow: 40960 },
    );
    expect(settings.models).toEqual([
      expect.objectContaining({
        id: 'custom/qwen3:8b',
        model: 'qwen3:8b',
        contextWindow: 40960,
        images: false,
      }),
    ]);
    expect(settings.providers.get('custom')).toMatchObject({
      type: 'openai-compatible',
      baseUrl: 'http://localhost:11434/v1',
    });
    expect(settings.maxSteps).toBe(7);
  });

  it('needs a base URL and a model for an OpenAI-compatible server', () => {
    const settings = loadSettings({ ...base(), ACP_KIT_API_KEY: 'k', ACP_KIT_PROVIDER: 'openai-compatible' });
    expect(settings.models).toEqual([]);
    expect(settings.problems.join('\n')).toMatch(/ACP_KIT_MODEL[\s\S]*ACP_KIT_BASE_URL/);
  });

  it('picks up OPENAI_API_KEY and ANTHROPIC_API_KEY with default or named models', () => {
    const settings = loadSettings({
      ...base(),
      OPENAI_API_KEY: 'o',
      ANTHROPIC_API_KEY: 'a',
      ANTHROPIC_MODEL: 'claude-opus-4-1',
    });
    expect(settings.models.map((m) => [m.id, m.contextWindow, m.images])).toEqual([
      ['openai/gpt-5-mini', 400000, true],
      ['anthropic/claude-opus-4-1', 200000, true],
    ]);
  });

  it('reads the config file, honours defaultModel, and reports what is unusable', async () => {
    await writeFile(
      join(home, 'agent.json'),
      JSON.stringify({
        providers: {
          ollama: { type: 'openai-compatible', baseUrl: 'http://localhost:11434/v1' },
          openrouter: {
            type: 'openai-compatible',
            baseUrl: 'https://openrouter.ai/api/v1',
            apiKeyEnv: 'OPENROUTER_API_KEY',
          },
          paid: { type: 'anthropic', apiKeyEnv: 'MISSING_KEY' },
        },
        models: [
          { provider: 'ollama', model: 'qwen3:8b', name: 'Qwen3 8B' },
          { provider: 'openrouter', model: 'x/y', contextWindow: 1000 },
          { provider: 'paid', model: 'claude-z' },
          { provider: 'nope', model: 'm' },
        ],
        defaultModel: 'openrouter/x/y',
        maxRetries: 0,
      }),
    );
    const settings = loadSettings({
      ...base(),
      ACP_KIT_CONFIG: join(home, 'agent.json'),
      OPENROUTER_API_KEY: 'r',
    });
    expect(settings.models.map((m) => m.id)).toEqual(['openrouter/x/y', 'ollama/qwen3:8b']);
    expect(settings.providers.get('openrouter')?.apiKey).toBe('r');
    expect(settings.maxRetries).toBe(0);
    expect(settings.problems).toEqual([
      'paid: set MISSING_KEY to use claude-z',
      'Model m names an unknown provider "nope"',
    ]);
  });

  it('reports an invalid config file instead of failing', async () => {
    await writeFile(join(home, 'agent.json'), '{ not json');
    const settings = loadSettings({ ...base(), ACP_KIT_CONFIG: join(home, 'agent.json') });
    expect(settings.problems[0]).toMatch(/is not valid JSON/);
    await writeFile(join(home, 'agent.json'), JSON.stringify({ providers: { x: { type: 'bogus' } } }));
    expect(loadSettings({ ...base(), ACP_KIT_CONFIG: join(home, 'agent.json') }).problems[0]).toMatch(
      /providers\.x\.type/,
    );
  });
});
