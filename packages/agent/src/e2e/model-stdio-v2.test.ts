/**
 * `acp agent` (a model, no --demo) as a child process speaking ACP v2 to a negotiating client, on a
 * local OpenAI-compatible stub: a turn whose tools run in the agent's own terminal after a
 * permission question, and a turn in which the user cancels one tool call alone — the model is
 * told, and the turn goes on to its end.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnPeer, type SpawnedPeer } from '@acp-kit/protocol/node';
import {
  connectAgent,
  type ClientSideConnection,
  type RequestPermissionRequest,
  type SessionUpdate,
} from '@acp-kit/protocol/v2';
import { STOPPED_OUTPUT } from '../tools/runner.js';
import { agentCommand, cleanEnv, removeDir, tempDir } from '../test-support/harness.js';
import { startOpenAIStub, type ModelStub } from '../test-support/model-stubs.js';

type Update = SessionUpdate & { [key: string]: unknown };

let work: string;
let home: string;
let openai: ModelStub;
let peer: SpawnedPeer;
let connection: ClientSideConnection;
const updates: Update[] = [];
const waiters: { test: (u: Update) => boolean; resolve: (u: Update) => void }[] = [];
const permissions: RequestPermissionRequest[] = [];

/** The first update since `from` that passes `test`, now or when it arrives. */
function next(test: (u: Update) => boolean, from: number): Promise<Update> {
  const seen = updates.slice(from).find(test);
  if (seen) return Promise.resolve(seen);
  return new Promise((resolve) => waiters.push({ test, resolve }));
}

const idle = (from: number) => next((u) => u.sessionUpdate === 'state_update' && u.state === 'idle', from);

beforeAll(async () => {
  work = await tempDir('ws');
  home = await tempDir('home');
  openai = await startOpenAIStub();
  await writeFile(join(work, 'main.py'), 'print("hi")\n');
  const { command, args } = agentCommand(['--base-url', openai.baseUrl, '--model', 'qwen3:8b']);
  peer = spawnPeer(command, args, { cwd: work, env: cleanEnv(home) });
  const negotiated = await connectAgent(
    peer.channel,
    {
      v1: {
        sessionUpdate: () => undefined,
        requestPermission: () => ({ outcome: { outcome: 'cancelled' } }),
      },
      v2: {
        sessionUpdate: ({ update }) => {
          updates.push(update as Update);
          for (const waiter of waiters.splice(0)) {
            if (waiter.test(update as Update)) waiter.resolve(update as Update);
            else waiters.push(waiter);
          }
        },
        requestPermission: (request) => {
          permissions.push(request);
          return { outcome: { outcome: 'selected', optionId: 'allow_once' } };
        },
      },
    },
    { info: { name: 'model-v2-test', version: '0' }, capabilities: {}, validateOutgoing: true },
  );
  if (negotiated.version !== 2) throw new Error(`expected v2, got v${negotiated.version}`);
  connection = negotiated.connection;
});

afterAll(async () => {
  await connection.close();
  await peer.shutdown();
  await openai.close();
  await removeDir(work);
  await removeDir(home);
});

describe('model agent in ACP v2', () => {
  it('runs a turn with a command in its own terminal, after asking', async () => {
    const { sessionId, configOptions } = await connection.newSession({ cwd: work });
    expect(configOptions?.find((o) => o.configId === 'model')).toMatchObject({
      currentValue: 'custom/qwen3:8b',
    });
    openai.enqueue(
      {
        text: ['Running it.'],
        toolCalls: [
          { id: 'c1', name: 'run_command', input: { command: 'python3 -c "print(6*7)" || echo 42' } },
        ],
      },
      { text: ['It printed 42.'] },
    );
    const from = updates.length;
    const ended = idle(from);
    const { messageId } = await connection.promptSession({
      sessionId,
      prompt: [{ type: 'text', text: 'Run it' }],
    });
    expect(await ended).toMatchObject({ stopReason: 'end_turn' });
    const turn = updates.slice(from);
    expect(turn.find((u) => u.sessionUpdate === 'user_message')).toMatchObject({ messageId });
    expect(permissions.at(-1)).toMatchObject({
      subject: { type: 'tool_call', toolCall: { kind: 'execute' } },
    });
    const terminal = turn.find((u) => u.sessionUpdate === 'terminal_update' && u.command) as Update;
    expect(terminal).toMatchObject({ cwd: work });
    const output = turn
      .filter((u) => u.sessionUpdate === 'terminal_output_chunk' && u.terminalId === terminal.terminalId)
      .map((u) => Buffer.from(String(u.data), 'base64').toString('utf8'))
      .join('');
    expect(output).toContain('42');
    expect(turn.filter((u) => u.sessionUpdate === 'tool_call_update').at(-1)).toMatchObject({
      status: 'completed',
      content: [{ type: 'terminal', terminalId: terminal.terminalId }],
    });
    // The model read the command's output.
    expect(JSON.stringify(openai.requests.at(-1))).toContain('42');
    const text = turn
      .filter((u) => u.sessionUpdate === 'agent_message_chunk')
      .map((u) => (u.content as { text: string }).text)
      .join('');
    expect(text).toBe('Running it.It printed 42.');
  });

  it('cancels one tool call: the model is told, and the turn goes on', async () => {
    const { sessionId } = await connection.newSession({ cwd: work });
    openai.enqueue(
      { toolCalls: [{ id: 'c2', name: 'run_command', input: { command: 'sleep 30' } }] },
      { text: ['Fine, I stopped.'] },
    );
    const from = updates.length;
    const ended = idle(from);
    await connection.promptSession({ sessionId, prompt: [{ type: 'text', text: 'Wait a while' }] });
    // Once its terminal runs, the call is cancelled alone.
    const call = await next(
      (u) => u.sessionUpdate === 'tool_call_update' && u.status === 'in_progress',
      from,
    );
    await next((u) => u.sessionUpdate === 'terminal_update' && Boolean(u.command), from);
    await connection.cancelToolCall({ sessionId, toolCallId: String(call.toolCallId) });
    expect(await ended).toMatchObject({ stopReason: 'end_turn' });
    const calls = updates.slice(from).filter((u) => u.sessionUpdate === 'tool_call_update');
    expect(calls.at(-1)).toMatchObject({ status: 'cancelled', capabilities: null });
    const toolMessage = JSON.stringify(openai.requests.at(-1));
    expect(toolMessage).toContain(STOPPED_OUTPUT);
  });
});
