/**
 * The rules proxy in a chain run in-process: a saved deny rule answers with the agent's reject
 * option, an ask rule and questions no rule decides reach the client, and a rule added meanwhile
 * applies at the next question.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JsonRpcConnection, createChannelPair } from '@acp-kit/protocol';
import { Conductor } from '@acp-kit/protocol/unstable';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RuleStore } from '../permissions/rule-store.js';
import { startRulesProxy } from './rules-proxy.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'acp-rules-proxy-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const OPTIONS = [
  { optionId: 'ok', name: 'Allow', kind: 'allow_once' },
  { optionId: 'no', name: 'Reject', kind: 'reject_once' },
];

async function chain(rulesFile: string) {
  const [clientSide, conductorClient] = createChannelPair();
  const [conductorProxy, proxySide] = createChannelPair();
  const [conductorAgent, agentSide] = createChannelPair();
  await startRulesProxy(proxySide, { rulesFile });
  const agent = new JsonRpcConnection(agentSide, { peerName: 'client' });
  agent.onRequest('initialize', () => ({ protocolVersion: 1, agentInfo: { name: 'tester', version: '1' } }));
  agent.onRequest('session/new', () => ({ sessionId: 's1' }));
  agent.onRequest('ask', async (params) => {
    const { kind, path } = params as { kind: string; path: string };
    await agent.notify('session/update', {
      sessionId: 's1',
      update: {
        sessionUpdate: 'tool_call',
        toolCallId: path,
        title: `${kind} ${path}`,
        kind,
        locations: [{ path }],
      },
    });
    // Agents often ask with the tool call's id alone: the proxy merges what the update said.
    return agent.request('session/request_permission', {
      sessionId: 's1',
      toolCall: { toolCallId: path },
      options: OPTIONS,
    });
  });
  agent.start();
  const conductor = new Conductor(conductorClient, [
    { name: 'rules proxy', channel: conductorProxy },
    { name: 'agent', channel: conductorAgent },
  ]);
  conductor.start();
  const asked: string[] = [];
  const client = new JsonRpcConnection(clientSide, { peerName: 'agent' });
  client.onRequest('session/request_permission', (params) => {
    asked.push((params as { toolCall: { toolCallId: string } }).toolCall.toolCallId);
    return { outcome: { outcome: 'selected', optionId: 'ok' } };
  });
  client.start();
  await client.request('initialize', { protocolVersion: 1, clientCapabilities: {} });
  await client.request('session/new', { cwd: dir, mcpServers: [] });
  return { client, asked, conductor };
}

describe('the rules proxy', () => {
  it('answers what saved rules decide and passes on the rest', async () => {
    const rulesFile = join(dir, 'rules.json');
    const store = await RuleStore.load(rulesFile);
    await store.add({ action: 'deny', kinds: ['delete'] });
    await store.add({ action: 'ask', kinds: ['edit'], path: 'secret/**' });
    await store.add({ action: 'allow', kinds: ['edit'], agent: 'tester' });
    const { client, asked, conductor } = await chain(rulesFile);
    const ask = (kind: string, path: string) => client.request('ask', { kind, path: join(dir, path) });

    await expect(ask('delete', 'a.txt')).resolves.toEqual({
      outcome: { outcome: 'selected', optionId: 'no' },
    });
    await expect(ask('edit', 'b.txt')).resolves.toEqual({ outcome: { outcome: 'selected', optionId: 'ok' } });
    await expect(ask('edit', 'secret/c.txt')).resolves.toEqual({
      outcome: { outcome: 'selected', optionId: 'ok' },
    });
    await expect(ask('execute', 'd.sh')).resolves.toEqual({
      outcome: { outcome: 'selected', optionId: 'ok' },
    });
    // Only the ask rule's question and the one no rule decides reached the client.
    expect(asked).toEqual([join(dir, 'secret/c.txt'), join(dir, 'd.sh')]);

    // A rule saved meanwhile (by acp rules add, another process) applies at the next question.
    await (await RuleStore.load(rulesFile)).add({ action: 'deny', kinds: ['execute'] });
    await expect(ask('execute', 'e.sh')).resolves.toEqual({
      outcome: { outcome: 'selected', optionId: 'no' },
    });
    expect(asked).toHaveLength(2);
    await conductor.close();
  });
});
