import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ErrorCodes } from '@acp-kit/protocol';
import { errorOf, inProcessAgent, removeDir, tempDir } from '../test-support/harness.js';
import { startOpenAIStub, type ModelStub } from '../test-support/model-stubs.js';
import { choose, type TestClient, type TestClientOptions } from '../test-support/test-client.js';
import { ModelEngine } from './model-engine.js';

let work: string;
let data: string;
let stub: ModelStub;
let client: TestClient;

beforeEach(async () => {
  work = await tempDir('ws');
  data = await tempDir('data');
  stub = await startOpenAIStub();
  await writeFile(join(work, 'a.txt'), 'apple\nbanana\n');
});

afterEach(async () => {
  await client?.close();
  await stub.close();
  await removeDir(work);
  await removeDir(data);
});

function env(extra: Record<string, string> = {}): Record<string, string> {
  return {
    HOME: data,
    XDG_CONFIG_HOME: join(data, 'config'),
    ACP_KIT_BASE_URL: stub.baseUrl,
    ACP_KIT_MODEL: 'stub-model,other-model',
    ACP_KIT_API_KEY: 'sk-test-not-a-secret',
    ACP_KIT_CONTEXT_WINDOW: '32000',
    ACP_KIT_RETRY_DELAY_MS: '1',
    ...extra,
  };
}

async function start(environment: Record<string, string>, options: TestClientOptions = {}): Promise<string> {
  ({ client } = inProcessAgent({ engine: new ModelEngine({ env: environment }), dataDir: data }, options));
  await client.initialize();
  return (await client.connection.newSession({ cwd: work, mcpServers: [] })).sessionId;
}

function prompt(sessionId: string, text: string) {
  return client.connection.promptSession({ sessionId, prompt: [{ type: 'text', text }] });
}

type Message = { role: string; content: unknown };

describe('model agent over an OpenAI-compatible endpoint', () => {
  it('streams reasoning and text with messageIds, runs tools, reports usage, ends the turn', async () => {
    stub.enqueue(
      {
        reasoning: ['Let me ', 'look.'],
        text: ['Reading ', 'the file.'],
        toolCalls: [{ id: 'call_a', name: 'read_file', input: { path: 'a.txt' } }],
        usage: { input: 100, output: 20 },
      },
      { text: ['It lists ', 'apple and banana.'], usage: { input: 150, output: 10 } },
    );
    const sessionId = await start(env());
    expect((await prompt(sessionId, 'What is in a.txt?')).stopReason).toBe('end_turn');

    const thoughts = client.updates(sessionId, 'agent_thought_chunk') as {
      messageId: string;
      content: { text: string };
    }[];
    expect(thoughts.map((t) => t.content.text).join('')).toBe('Let me look.');
    expect(new Set(thoughts.map((t) => t.messageId)).size).toBe(1);
    const messages = client.updates(sessionId, 'agent_message_chunk') as { messageId: string }[];
    expect(client.agentText(sessionId)).toBe('Reading the file.It lists apple and banana.');
    expect(new Set(messages.map((m) => m.messageId)).size).toBe(2);

    const [call] = client.toolCalls(sessionId);
    expect(call).toMatchObject({ kind: 'read', status: 'completed', rawInput: { path: 'a.txt' } });
    expect(client.updates(sessionId, 'usage_update')).toEqual([
      { sessionUpdate: 'usage_update', used: 120, size: 32000, cost: null },
      { sessionUpdate: 'usage_update', used: 160, size: 32000, cost: null },
    ]);

    const second = stub.requests[1] as {
      model: string;
      messages: Message[];
      tools: { function: { name: string } }[];
    };
    expect(second.model).toBe('stub-model');
    expect(second.messages.at(-1)).toMatchObject({
      role: 'tool',
      tool_call_id: 'call_a',
      content: 'apple\nbanana\n',
    });
    expect(second.tools.map((t) => t.function.name)).toEqual([
      'read_file',
      'list_files',
      'grep',
      'write_file',
      'edit_file',
      'run_command',
      'update_plan',
    ]);
    expect(JSON.stringify(second.messages[0])).toContain(work);
  });

  it('publishes the configured models as the model config option and switches between them', async () => {
    stub.enqueue({ text: ['ok'] });
    const sessionId = await start(env());
    const { configOptions } = await client.connection.setSessionConfigOption({
      sessionId,
      configId: 'model',
      value: 'custom/other-model',
    });
    expect(configOptions[1]).toMatchObject({
      id: 'model',
      category: 'model',
      currentValue: 'custom/other-model',
      options: [{ value: 'custom/stub-model' }, { value: 'custom/other-model' }],
    });
    await prompt(sessionId, 'hi');
    expect(stub.requests[0]).toMatchObject({ model: 'other-model' });
    await prompt(sessionId, '/model');
    expect(client.agentText(sessionId)).toContain('`custom/other-model` (current)');
  });

  it('maps stop reasons: max_tokens, refusal and max_turn_requests at the step limit', async () => {
    const sessionId = await start(env({ ACP_KIT_MAX_STEPS: '2' }));
    stub.enqueue({ text: ['cut'], finish: 'length' });
    expect((await prompt(sessionId, 'long')).stopReason).toBe('max_tokens');
    stub.enqueue({ text: ['no'], finish: 'content_filter' });
    expect((await prompt(sessionId, 'bad')).stopReason).toBe('refusal');
    const list = { id: 'x', name: 'list_files', input: { pattern: '*.txt' } };
    stub.enqueue({ toolCalls: [{ ...list, id: 'c1' }] }, { toolCalls: [{ ...list, id: 'c2' }] });
    expect((await prompt(sessionId, 'loop')).stopReason).toBe('max_turn_requests');
    expect(stub.requests).toHaveLength(4);
  });

  it('retries transient errors with backoff, then succeeds', async () => {
    const sessionId = await start(env());
    stub.enqueue(
      { status: 503, body: { error: { message: 'overloaded' } } },
      { status: 429, body: { error: { message: 'slow down' } }, headers: { 'retry-after': '0' } },
      { text: ['fine'] },
    );
    expect((await prompt(sessionId, 'hi')).stopReason).toBe('end_turn');
    expect(stub.requests).toHaveLength(3);
    expect(client.agentText(sessionId)).toBe('fine');
  });

  it('answers fatal provider errors with a JSON-RPC error the user can act on', async () => {
    const sessionId = await start(env({ ACP_KIT_MAX_RETRIES: '1' }));
    stub.enqueue({ status: 401, body: { error: { message: 'Incorrect API key provided' } } });
    const auth = await errorOf(prompt(sessionId, 'hi'));
    expect(auth.code).toBe(ErrorCodes.AuthRequired);
    expect(auth.message).toBe(
      'custom rejected the credentials (HTTP 401): Incorrect API key provided. Check ACP_KIT_API_KEY.',
    );
    expect(auth.message).not.toContain('sk-test');

    stub.enqueue({ status: 404, body: { error: { message: 'model not found' } } });
    const missing = await errorOf(prompt(sessionId, 'hi'));
    expect(missing.code).toBe(ErrorCodes.InternalError);
    expect(missing.message).toMatch(/does not know model "stub-model" \(HTTP 404\)/);

    stub.enqueue({ status: 500, body: {} }, { status: 500, body: {} });
    expect((await errorOf(prompt(sessionId, 'hi'))).message).toMatch(/HTTP 500\) after 2 attempts/);
    // The session stays usable.
    stub.enqueue({ text: ['back'] });
    expect((await prompt(sessionId, 'again')).stopReason).toBe('end_turn');
  });

  it('explains an unreachable server', async () => {
    const sessionId = await start(
      env({ ACP_KIT_BASE_URL: 'http://127.0.0.1:9/v1', ACP_KIT_MAX_RETRIES: '0' }),
    );
    const error = await errorOf(prompt(sessionId, 'hi'));
    expect(error.message).toMatch(/Could not reach custom at http:\/\/127\.0\.0\.1:9\/v1/);
  });

  it('cancels mid-stream: the request is aborted and the prompt answers cancelled', async () => {
    const sessionId = await start(env());
    stub.enqueue({ text: ['partial', 'never sent'], hang: true });
    const running = prompt(sessionId, 'go');
    await client.waitForUpdate(sessionId, (u) => u.sessionUpdate === 'agent_message_chunk');
    await client.connection.cancelSession({ sessionId });
    expect((await running).stopReason).toBe('cancelled');
    await stub.disconnected;
    // The partial answer is part of the conversation the model sees next.
    stub.enqueue({ text: ['next'] });
    await prompt(sessionId, 'continue');
    const messages = (stub.requests[1] as { messages: Message[] }).messages;
    expect(messages.slice(-3)).toMatchObject([
      { role: 'user', content: 'go' },
      { role: 'assistant', content: 'partial' },
      { role: 'user', content: 'continue' },
    ]);
  });

  it('cancels mid-tool: the command stops and the model later sees the call as cancelled', async () => {
    const sessionId = await start(env());
    await client.connection.setSessionMode({ sessionId, modeId: 'full-access' });
    stub.enqueue({ toolCalls: [{ id: 'sleep', name: 'run_command', input: { command: 'sleep 30' } }] });
    const running = prompt(sessionId, 'wait');
    await client.waitForUpdate(sessionId, (u) => (u as { status?: string }).status === 'in_progress');
    await client.connection.cancelSession({ sessionId });
    expect((await running).stopReason).toBe('cancelled');
    expect(client.toolCalls(sessionId)[0]).toMatchObject({
      status: 'failed',
      rawOutput: { cancelled: true },
    });
    stub.enqueue({ text: ['ok'] });
    await prompt(sessionId, 'next');
    const messages = (stub.requests[1] as { messages: Message[] }).messages;
    expect(messages.find((m) => m.role === 'tool')).toMatchObject({ content: 'Cancelled by the user.' });
  });

  it('tells the model when the user rejected a tool call', async () => {
    const sessionId = await start(env(), { permission: choose('reject_once') });
    stub.enqueue(
      { toolCalls: [{ id: 'w', name: 'write_file', input: { path: 'b.txt', content: 'x' } }] },
      { text: ['understood'] },
    );
    await prompt(sessionId, 'write');
    const messages = (stub.requests[1] as { messages: Message[] }).messages;
    expect(messages.at(-1)).toMatchObject({
      role: 'tool',
      content: 'Not run: The user rejected this tool call.',
    });
  });

  it('update_plan becomes a plan update (full replacement), not a tool call', async () => {
    const sessionId = await start(env());
    const entries = [
      { content: 'Read the code', priority: 'high', status: 'completed' },
      { content: 'Fix the bug', status: 'in_progress' },
    ];
    stub.enqueue(
      { toolCalls: [{ id: 'plan', name: 'update_plan', input: { entries } }] },
      { text: ['Planned.'] },
    );
    await prompt(sessionId, 'plan it');
    expect(client.updates(sessionId, 'plan')).toEqual([
      {
        sessionUpdate: 'plan',
        entries: [
          { content: 'Read the code', priority: 'high', status: 'completed' },
          { content: 'Fix the bug', priority: 'medium', status: 'in_progress' },
        ],
      },
    ]);
    expect(client.toolCalls(sessionId)).toEqual([]);
    const messages = (stub.requests[1] as { messages: Message[] }).messages;
    expect(messages.at(-1)).toMatchObject({ role: 'tool', content: 'Plan updated (1/2 steps completed).' });
  });

  it('plan mode offers only read-only tools and exit_plan_mode', async () => {
    const sessionId = await start(env(), { permission: choose('allow_once') });
    stub.enqueue(
      {
        toolCalls: [{ id: 'p', name: 'exit_plan_mode', input: { plan: '1. Edit b.txt', mode: 'auto-edit' } }],
      },
      { toolCalls: [{ id: 'w', name: 'write_file', input: { path: 'b.txt', content: 'done' } }] },
      { text: ['Done.'] },
    );
    await prompt(sessionId, '/plan write b.txt');
    const offered = (i: number) =>
      (stub.requests[i] as { tools: { function: { name: string } }[] }).tools.map((t) => t.function.name);
    expect(offered(0)).toEqual(['read_file', 'list_files', 'grep', 'update_plan', 'exit_plan_mode']);
    expect(offered(1)).toContain('write_file');
    expect(client.permissionRequests.map((r) => r.toolCall.kind)).toEqual(['switch_mode']);
    expect(
      client
        .updates(sessionId, 'current_mode_update')
        .map((u) => (u as { currentModeId: string }).currentModeId),
    ).toEqual(['plan', 'auto-edit']);
  });

  it('inlines embedded context and reads file links through read_file', async () => {
    const sessionId = await start(env());
    stub.enqueue({ text: ['seen'] });
    await client.connection.promptSession({
      sessionId,
      prompt: [
        { type: 'text', text: 'Look' },
        { type: 'resource', resource: { uri: 'file:///virtual/notes.md', text: 'embedded words' } },
        { type: 'resource_link', uri: `file://${join(work, 'a.txt')}`, name: 'a.txt' },
      ],
    });
    const user = (stub.requests[0] as { messages: Message[] }).messages.at(-1) as {
      content: { text?: string }[];
    };
    const texts = user.content.map((part) => part.text ?? '');
    expect(texts[1]).toBe('<context uri="file:///virtual/notes.md">\nembedded words\n</context>');
    expect(texts[2]).toContain('apple\nbanana');
    expect(client.toolCalls(sessionId)[0]).toMatchObject({ kind: 'read', status: 'completed' });
  });

  it('sends images only to models that accept them (per the config file)', async () => {
    const config = join(data, 'agent.json');
    await writeFile(
      config,
      JSON.stringify({
        providers: { local: { type: 'openai-compatible', baseUrl: stub.baseUrl } },
        models: [
          { provider: 'local', model: 'vision', images: true },
          { provider: 'local', model: 'text-only', images: false },
        ],
      }),
    );
    const sessionId = await start({ HOME: data, ACP_KIT_CONFIG: config });
    const image = { type: 'image' as const, data: 'iVBORw0KGgo=', mimeType: 'image/png' };
    stub.enqueue({ text: ['a cat'] }, { text: ['no eyes'] });
    await client.connection.promptSession({ sessionId, prompt: [image] });
    await client.connection.setSessionConfigOption({
      sessionId,
      configId: 'model',
      value: 'local/text-only',
    });
    await client.connection.promptSession({ sessionId, prompt: [image] });
    const last = (i: number) => (stub.requests[i] as { messages: Message[] }).messages.at(-1)?.content;
    expect(last(0)).toMatchObject([
      { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
    ]);
    // A single text part goes out as a plain string.
    expect(last(1)).toMatch(/image \(image\/png\); text-only \(local\) does not accept images/);
  });

  it('sends images to a model that accepts them', async () => {
    const sessionId = await start(env({ ACP_KIT_IMAGES: '1' }));
    stub.enqueue({ text: ['a cat'] });
    await client.connection.promptSession({
      sessionId,
      prompt: [{ type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' }],
    });
    const user = (stub.requests[0] as { messages: Message[] }).messages.at(-1) as { content: unknown[] };
    expect(user.content[0]).toMatchObject({
      type: 'image_url',
      image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' },
    });
  });

  it('compacts: the summary replaces the history the model sees', async () => {
    const sessionId = await start(env());
    stub.enqueue({ text: ['first answer'] }, { text: ['Summary: the user said hello.'] }, { text: ['ok'] });
    await prompt(sessionId, 'hello');
    await prompt(sessionId, '/compact');
    expect(client.agentText(sessionId)).toContain('Summary: the user said hello.');
    await prompt(sessionId, 'next');
    const messages = (stub.requests[2] as { messages: Message[] }).messages.filter(
      (m) => m.role !== 'system',
    );
    expect(messages).toHaveLength(3);
    expect(String(messages[0]?.content)).toContain('Summary: the user said hello.');
  });

  it('restores the conversation for the model after session/load', async () => {
    const sessionId = await start(env());
    stub.enqueue({ text: ['remembered'] }, { text: ['yes'] });
    await prompt(sessionId, 'remember 42');
    await client.connection.closeSession({ sessionId });
    await client.connection.loadSession({ sessionId, cwd: work, mcpServers: [] });
    await prompt(sessionId, 'what number?');
    const messages = (stub.requests[1] as { messages: Message[] }).messages.filter(
      (m) => m.role !== 'system',
    );
    expect(messages).toMatchObject([
      { role: 'user', content: 'remember 42' },
      { role: 'assistant', content: 'remembered' },
      { role: 'user', content: 'what number?' },
    ]);
  });
});

describe('model agent without credentials', () => {
  it('initializes, then answers session/new with -32000 naming what to set', async () => {
    ({ client } = inProcessAgent({
      engine: new ModelEngine({ env: { HOME: data, XDG_CONFIG_HOME: join(data, 'c') } }),
      dataDir: data,
    }));
    const init = await client.initialize();
    expect(init.authMethods).toEqual([
      expect.objectContaining({ id: 'acp-kit-configure-model', name: 'Configure a model' }),
    ]);
    const error = await errorOf(client.connection.newSession({ cwd: work, mcpServers: [] }));
    expect(error.code).toBe(ErrorCodes.AuthRequired);
    for (const name of [
      'ACP_KIT_BASE_URL',
      'ACP_KIT_MODEL',
      'ACP_KIT_API_KEY',
      'OPENAI_API_KEY',
      'ANTHROPIC_API_KEY',
      'agent.json',
    ]) {
      expect(error.message).toContain(name);
    }
    expect(error.data).toEqual({
      authMethods: [{ id: 'acp-kit-configure-model', name: 'Configure a model' }],
    });
    await expect(client.connection.authenticate({ methodId: 'acp-kit-configure-model' })).rejects.toThrow(
      /No model/,
    );
  });
});
