/**
 * First-run setup of the model agent, over real stdio with a local model stub proving that the
 * written config works: the sign-in methods it advertises without a model, the form a client
 * with `elicitation.form` is asked, and the terminal method (`acp agent setup` in a real terminal).
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ErrorCodes, type AuthMethod } from '@acp-kit/protocol';
import {
  agentCommand,
  cleanEnv,
  errorOf,
  removeDir,
  spawnAgent,
  tempDir,
  type SpawnedAgent,
} from '../test-support/harness.js';
import { startOpenAIStub, type ModelStub } from '../test-support/model-stubs.js';
import type { TestClientOptions } from '../test-support/test-client.js';
import { TmuxTerminal } from '../test-support/tmux-terminal.js';

const KEY = 'sk-test-0123456789abcdef';

let work: string;
let home: string;
let stub: ModelStub;
let agents: SpawnedAgent[] = [];
let terminal: TmuxTerminal | undefined;

beforeEach(async () => {
  work = await tempDir('ws');
  home = await tempDir('home');
  stub = await startOpenAIStub();
});

afterEach(async () => {
  terminal?.close();
  terminal = undefined;
  await Promise.all(agents.map((a) => a.stop()));
  agents = [];
  await stub.close();
  await removeDir(work);
  await removeDir(home);
});

const env = (): NodeJS.ProcessEnv => cleanEnv(home, { ACP_KIT_DATA_DIR: join(home, 'data') });
const configPath = (): string => join(home, 'config', 'acp-kit', 'agent.json');

function start(client: TestClientOptions): SpawnedAgent {
  const agent = spawnAgent([], { cwd: work, env: env(), client });
  agents.push(agent);
  return agent;
}

/** A session on `agent` and one turn answered by the stub: the configuration works. */
async function provesModelWorks(agent: SpawnedAgent): Promise<void> {
  const { client } = agent;
  const { sessionId } = await client.connection.newSession({ cwd: work, mcpServers: [] });
  stub.enqueue({ text: ['Configured ', 'and working.'] });
  const { stopReason } = await client.connection.promptSession({
    sessionId,
    prompt: [{ type: 'text', text: 'Hello' }],
  });
  expect(stopReason).toBe('end_turn');
  expect(client.agentText(sessionId)).toBe('Configured and working.');
  expect(stub.requests.at(-1)).toMatchObject({ model: 'm1' });
}

async function expectSecretFile(): Promise<Record<string, unknown>> {
  expect((await stat(configPath())).mode & 0o777).toBe(0o600);
  return JSON.parse(await readFile(configPath(), 'utf8')) as Record<string, unknown>;
}

describe('sign-in methods without a model', () => {
  it('offers the form and the terminal method only to clients that can use them', async () => {
    const plain = start({});
    const bare = await plain.client.initialize();
    expect(bare.authMethods?.map((m) => m.id)).toEqual(['acp-kit-configure-model']);

    const able = start({ capabilities: { auth: { terminal: true }, elicitation: { form: {} } } });
    const init = await able.client.initialize();
    expect(init.authMethods).toEqual([
      expect.objectContaining({ id: 'acp-kit-setup', name: 'Set up a model' }),
      expect.objectContaining({ id: 'acp-kit-setup-terminal', type: 'terminal', args: ['setup'] }),
      expect.objectContaining({ id: 'acp-kit-configure-model' }),
    ]);
    const error = await errorOf(able.client.connection.newSession({ cwd: work, mcpServers: [] }));
    expect(error.code).toBe(ErrorCodes.AuthRequired);
    expect(error.message).toContain('acp agent setup');
    expect(error.data).toEqual({
      authMethods: [
        { id: 'acp-kit-setup', name: 'Set up a model' },
        { id: 'acp-kit-setup-terminal', name: 'Set up in a terminal', type: 'terminal', args: ['setup'] },
        { id: 'acp-kit-configure-model', name: 'Configure a model' },
      ],
    });
  });
});

describe('setting up through a form (elicitation/create)', () => {
  it('asks again with the problem, writes the config (0600) and the agent works at once', async () => {
    const answers = [
      { provider: 'openai-compatible', model: 'm1' }, // no base URL
      { provider: 'openai-compatible', baseUrl: stub.baseUrl, model: 'm1', apiKey: KEY },
    ];
    const agent = start({
      capabilities: { elicitation: { form: {} } },
      elicit: () => ({ action: 'accept', content: answers.shift() ?? {} }),
    });
    await agent.client.initialize();
    await agent.client.connection.authenticate({ methodId: 'acp-kit-setup' });

    const [first, second] = agent.client.elicitations;
    expect(first).toMatchObject({ mode: 'form', requestedSchema: { required: ['provider'] } });
    expect(
      Object.keys((first as { requestedSchema: { properties: object } }).requestedSchema.properties),
    ).toEqual(['provider', 'baseUrl', 'model', 'apiKey']);
    expect(first).toHaveProperty('requestId');
    expect(second?.message).toMatch(/needs its base URL/);
    const config = await expectSecretFile();
    expect(config).toMatchObject({
      providers: { 'openai-compatible': { type: 'openai-compatible', baseUrl: stub.baseUrl, apiKey: KEY } },
      defaultModel: 'openai-compatible/m1',
    });
    await provesModelWorks(agent);
  });

  it('writes nothing and answers -32000 when the user declines', async () => {
    const agent = start({
      capabilities: { elicitation: { form: {} } },
      elicit: () => ({ action: 'decline' }),
    });
    await agent.client.initialize();
    const error = await errorOf(agent.client.connection.authenticate({ methodId: 'acp-kit-setup' }));
    expect(error.code).toBe(ErrorCodes.AuthRequired);
    expect(error.message).toMatch(/nothing was written/);
    await expect(stat(configPath())).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('setting up in a terminal (type: "terminal")', () => {
  it('runs the agent command with the method’s args in a real terminal, then the restarted agent works', async () => {
    const first = start({ capabilities: { auth: { terminal: true } } });
    const init = await first.client.initialize();
    const method = init.authMethods?.find((m: AuthMethod) => m.id === 'acp-kit-setup-terminal') as {
      args: string[];
    };
    // What a client does: the agent's own command line plus the method's args, interactively.
    const { command, args } = agentCommand(method.args);
    terminal = new TmuxTerminal(command, args, { cwd: work, env: { ...env(), TERM: 'xterm-256color' } });
    await terminal.waitFor('Choose 1-3');
    terminal.typeLine('1');
    await terminal.waitFor('Base URL');
    terminal.typeLine(stub.baseUrl);
    await terminal.waitFor('Model:');
    terminal.typeLine('m1');
    await terminal.waitFor('API key');
    terminal.typeLine(KEY);
    expect(await terminal.exitStatus()).toBe(0);
    const screen = terminal.text();
    expect(screen).toContain('mode 0600');
    expect(screen).toContain('"apiKey": "sk-…cdef"');
    expect(screen).not.toContain(KEY);
    expect(await expectSecretFile()).toMatchObject({ providers: { 'openai-compatible': { apiKey: KEY } } });

    await first.stop();
    const restarted = start({ capabilities: { auth: { terminal: true } } });
    expect((await restarted.client.initialize()).authMethods).toEqual([]);
    await provesModelWorks(restarted);
  });
});
