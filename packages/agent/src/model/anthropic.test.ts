import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { inProcessAgent, removeDir, tempDir } from '../test-support/harness.js';
import { startAnthropicStub, type ModelStub } from '../test-support/model-stubs.js';
import type { TestClient } from '../test-support/test-client.js';
import { ModelEngine } from './model-engine.js';

let work: string;
let data: string;
let stub: ModelStub;
let client: TestClient;

beforeEach(async () => {
  work = await tempDir('ws');
  data = await tempDir('data');
  stub = await startAnthropicStub();
  await writeFile(join(work, 'a.txt'), 'apple\n');
});

afterEach(async () => {
  await client.close();
  await stub.close();
  await removeDir(work);
  await removeDir(data);
});

describe('model agent over the Anthropic Messages API', () => {
  it('streams thinking and text, runs a tool, sends the thinking signature back, and prices usage', async () => {
    const config = join(data, 'agent.json');
    await writeFile(
      config,
      JSON.stringify({
        providers: { claude: { type: 'anthropic', baseUrl: stub.baseUrl, apiKeyEnv: 'MY_ANTHROPIC_KEY' } },
        models: [
          {
            provider: 'claude',
            model: 'claude-test',
            contextWindow: 200000,
            price: { input: 3, output: 15, currency: 'USD' },
          },
        ],
      }),
    );
    ({ client } = inProcessAgent({
      engine: new ModelEngine({ env: { HOME: data, ACP_KIT_CONFIG: config, MY_ANTHROPIC_KEY: 'test-key' } }),
      dataDir: data,
    }));
    const init = await client.initialize();
    expect(init.agentCapabilities?.promptCapabilities?.image).toBe(true);
    const { sessionId, configOptions } = await client.connection.newSession({ cwd: work, mcpServers: [] });
    expect(configOptions?.[1]).toMatchObject({ id: 'model', currentValue: 'claude/claude-test' });

    stub.enqueue(
      {
        reasoning: ['Need the file.'],
        text: ['Checking.'],
        toolCalls: [{ id: 'toolu_1', name: 'read_file', input: { path: 'a.txt' } }],
        usage: { input: 1000, output: 100 },
      },
      { text: ['It says apple.'], usage: { input: 2000, output: 50 } },
    );
    const { stopReason } = await client.connection.promptSession({
      sessionId,
      prompt: [{ type: 'text', text: 'Read a.txt' }],
    });
    expect(stopReason).toBe('end_turn');
    expect(client.agentText(sessionId)).toBe('Checking.It says apple.');
    expect(client.updates(sessionId, 'agent_thought_chunk')).toHaveLength(1);
    expect(client.toolCalls(sessionId)[0]).toMatchObject({ kind: 'read', status: 'completed' });

    const second = stub.requests[1] as {
      model: string;
      messages: { role: string; content: Record<string, unknown>[] }[];
    };
    expect(second.model).toBe('claude-test');
    const assistant = second.messages.find((m) => m.role === 'assistant');
    expect(assistant?.content[0]).toMatchObject({
      type: 'thinking',
      thinking: 'Need the file.',
      signature: 'stub-signature',
    });
    expect(assistant?.content.at(-1)).toMatchObject({ type: 'tool_use', id: 'toolu_1', name: 'read_file' });
    expect(second.messages.at(-1)?.content[0]).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_1' });

    const usage = client.updates(sessionId, 'usage_update') as {
      used: number;
      size: number;
      cost: { amount: number };
    }[];
    expect(usage.map((u) => [u.used, u.size])).toEqual([
      [1100, 200000],
      [2050, 200000],
    ]);
    // (1000·3 + 100·15)/1e6 + (2000·3 + 50·15)/1e6
    expect(usage[1]?.cost).toEqual({ amount: 0.01125, currency: 'USD' });
  });

  it('maps max_tokens and refusal stop reasons', async () => {
    ({ client } = inProcessAgent({
      engine: new ModelEngine({
        env: {
          HOME: data,
          ACP_KIT_PROVIDER: 'anthropic',
          ACP_KIT_BASE_URL: stub.baseUrl,
          ACP_KIT_API_KEY: 'k',
          ACP_KIT_MODEL: 'claude-x',
        },
      }),
      dataDir: data,
    }));
    await client.initialize();
    const { sessionId } = await client.connection.newSession({ cwd: work, mcpServers: [] });
    stub.enqueue({ text: ['cut'], finish: 'length' }, { text: ['no'], finish: 'content_filter' });
    const run = (text: string) =>
      client.connection.promptSession({ sessionId, prompt: [{ type: 'text', text }] });
    expect((await run('a')).stopReason).toBe('max_tokens');
    expect((await run('b')).stopReason).toBe('refusal');
  });
});
