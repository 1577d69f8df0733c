/**
 * `acp agent` (no --demo) as a child process, completing real turns against local model stubs:
 * an OpenAI-compatible server configured by flags and an Anthropic endpoint from the config file,
 * switched with the `model` config option.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, removeDir, spawnAgent, tempDir, type SpawnedAgent } from '../test-support/harness.js';
import { startAnthropicStub, startOpenAIStub, type ModelStub } from '../test-support/model-stubs.js';

let work: string;
let home: string;
let openai: ModelStub;
let anthropic: ModelStub;
let agent: SpawnedAgent;

beforeAll(async () => {
  work = await tempDir('ws');
  home = await tempDir('home');
  openai = await startOpenAIStub();
  anthropic = await startAnthropicStub();
  await writeFile(join(work, 'main.py'), 'print("hi")\n');
  const config = join(home, 'agent.json');
  await writeFile(
    config,
    JSON.stringify({
      providers: { claude: { type: 'anthropic', baseUrl: anthropic.baseUrl, apiKeyEnv: 'CLAUDE_KEY' } },
      models: [
        { provider: 'claude', model: 'claude-sonnet-4-5', price: { input: 3, output: 15, currency: 'USD' } },
      ],
    }),
  );
  agent = spawnAgent(
    ['--base-url', openai.baseUrl, '--model', 'qwen3:8b', '--config', config, '--log-level', 'debug'],
    {
      cwd: work,
      env: cleanEnv(home, { CLAUDE_KEY: 'test-key-not-secret' }),
    },
  );
  await agent.client.initialize();
});

afterAll(async () => {
  await agent.stop();
  await openai.close();
  await anthropic.close();
  await removeDir(work);
  await removeDir(home);
});

describe('model agent over stdio', () => {
  it('completes turns against an OpenAI-compatible server and an Anthropic endpoint', async () => {
    const { client } = agent;
    expect(client.connection.initializeResponse?.authMethods).toEqual([]);
    const { sessionId, configOptions } = await client.connection.newSession({ cwd: work, mcpServers: [] });
    expect(configOptions?.find((o) => o.id === 'model')).toMatchObject({
      currentValue: 'custom/qwen3:8b',
      options: [{ value: 'custom/qwen3:8b' }, { value: 'claude/claude-sonnet-4-5' }],
    });

    openai.enqueue(
      {
        text: ['Looking.'],
        toolCalls: [{ id: 'c1', name: 'list_files', input: { pattern: '*.py' } }],
        usage: { input: 50, output: 5 },
      },
      { text: ['There is ', '`main.py`.'], usage: { input: 80, output: 6 } },
    );
    const first = await client.connection.promptSession({
      sessionId,
      prompt: [{ type: 'text', text: 'Which Python files?' }],
    });
    expect(first.stopReason).toBe('end_turn');
    expect(client.agentText(sessionId)).toBe('Looking.There is `main.py`.');
    expect(client.toolCalls(sessionId)).toMatchObject([
      { kind: 'search', status: 'completed', rawOutput: { files: ['main.py'] } },
    ]);

    await client.connection.setSessionConfigOption({
      sessionId,
      configId: 'model',
      value: 'claude/claude-sonnet-4-5',
    });
    anthropic.enqueue({
      reasoning: ['Simple.'],
      text: [' Hello from Claude.'],
      usage: { input: 100, output: 10 },
    });
    const second = await client.connection.promptSession({
      sessionId,
      prompt: [{ type: 'text', text: 'and you?' }],
    });
    expect(second.stopReason).toBe('end_turn');
    expect(client.agentText(sessionId)).toMatch(/Hello from Claude\.$/);
    const request = anthropic.requests[0] as { model: string; messages: { role: string }[] };
    expect(request.model).toBe('claude-sonnet-4-5');
    // The conversation carried over from the other provider.
    expect(request.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
    const usage = client.updates(sessionId, 'usage_update').at(-1);
    expect(usage).toMatchObject({ used: 110, size: 200000, cost: { amount: 0.00045, currency: 'USD' } });

    // Debug logs went to stderr without the conversation or the key.
    const stderr = agent.peer.stderrTail();
    expect(stderr).toContain('acp-kit agent');
    expect(stderr).not.toContain('Which Python files?');
    expect(stderr).not.toContain('test-key-not-secret');
  });
});
