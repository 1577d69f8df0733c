/**
 * When the client closes the agent's stdin, every running turn is cancelled at once and the
 * process exits, for the demo and the model agent, as real child processes. Requests already
 * received are still answered (a script may pipe requests in and read the answers).
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanEnv, removeDir, spawnAgent, tempDir, type SpawnedAgent } from '../test-support/harness.js';
import { startOpenAIStub, type ModelStub } from '../test-support/model-stubs.js';
import { RawAgent } from '../test-support/raw-agent.js';

let work: string;
let home: string;
let agent: SpawnedAgent | undefined;
let stub: ModelStub | undefined;

beforeEach(async () => {
  work = await tempDir('ws');
  home = await tempDir('home');
});

afterEach(async () => {
  await agent?.stop();
  await stub?.close();
  agent = undefined;
  stub = undefined;
  await removeDir(work);
  await removeDir(home);
});

/** Starts a prompt, waits for its first streamed text, closes the agent's stdin. */
async function promptThenCloseInput(a: SpawnedAgent, text: string) {
  const { client } = a;
  await client.initialize();
  const { sessionId } = await client.connection.newSession({ cwd: work, mcpServers: [] });
  const answer = client.connection.promptSession({ sessionId, prompt: [{ type: 'text', text }] });
  await client.waitForUpdate(sessionId, (u) => u.sessionUpdate === 'agent_message_chunk');
  a.peer.child.stdin?.end();
  return { sessionId, answer };
}

describe('the client closes the agent’s input mid-turn', () => {
  it('the demo agent cancels its 30-second turn, answers cancelled and exits', async () => {
    agent = spawnAgent(['--demo'], {
      cwd: work,
      env: cleanEnv(home, { ACP_KIT_DATA_DIR: join(home, 'data') }),
    });
    const { sessionId, answer } = await promptThenCloseInput(agent, 'slow');
    expect((await answer).stopReason).toBe('cancelled');
    expect(await agent.peer.exited).toMatchObject({ exitCode: 0, signal: null });
    // The `slow` turn streams a tick every 100 ms for 30 s: it stopped near the start.
    expect(agent.client.agentText(sessionId)).not.toMatch(/\b30…/);
  });

  it('the model agent aborts its model request, answers cancelled and exits', async () => {
    stub = await startOpenAIStub();
    stub.enqueue({ text: ['Thinking about it'], hang: true });
    agent = spawnAgent(['--base-url', stub.baseUrl, '--model', 'm1'], {
      cwd: work,
      env: cleanEnv(home, { ACP_KIT_DATA_DIR: join(home, 'data') }),
    });
    const { answer } = await promptThenCloseInput(agent, 'Explain the code');
    expect((await answer).stopReason).toBe('cancelled');
    await stub.disconnected;
    expect(await agent.peer.exited).toMatchObject({ exitCode: 0, signal: null });
  });
});

describe('requests piped in before the input ends', () => {
  it('are all answered before the agent exits', async () => {
    const raw = new RawAgent(['--demo'], {
      cwd: work,
      env: cleanEnv(home, { ACP_KIT_DATA_DIR: join(home, 'data') }),
    });
    raw.end(
      ...[
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: 1, clientCapabilities: {} },
        },
        { jsonrpc: '2.0', id: 2, method: 'session/new', params: { cwd: work, mcpServers: [] } },
        { jsonrpc: '2.0', id: 3, method: 'session/list', params: {} },
      ].map((frame) => JSON.stringify(frame)),
    );
    expect(await raw.exited).toBe(0);
    const answers = await Promise.all([1, 2, 3].map((id) => raw.response(id)));
    expect(answers.map((a) => a.result !== undefined)).toEqual([true, true, true]);
  });
});
