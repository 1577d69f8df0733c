#!/usr/bin/env node
// An agent built on the official ACP TypeScript SDK: streams a plan, a tool call that asks
// permission and edits a file through the client's fs, then an answer.
import { Readable, Writable } from 'node:stream';
import { agent, methods, ndJsonStream } from '@agentclientprotocol/sdk';

let counter = 0;
const app = agent({ name: 'sdk-test-agent' })
  .onRequest(methods.agent.initialize, () => ({
    protocolVersion: 1,
    agentCapabilities: { promptCapabilities: { embeddedContext: true } },
    agentInfo: { name: 'sdk-test-agent', version: '1.0.0' },
  }))
  .onRequest(methods.agent.session.new, () => ({ sessionId: `sdk-${++counter}` }))
  .onRequest(methods.agent.session.prompt, async ({ params, client }) => {
    const sessionId = params.sessionId;
    const file = params.prompt.find((b) => b.type === 'text')?.text ?? '';
    const update = (u) => client.notify(methods.client.session.update, { sessionId, update: u });
    await update({
      sessionUpdate: 'plan',
      entries: [{ content: 'Edit the file', priority: 'high', status: 'in_progress' }],
    });
    await update({
      sessionUpdate: 'tool_call',
      toolCallId: 'edit-1',
      title: `Edit ${file}`,
      kind: 'edit',
      status: 'pending',
      locations: [{ path: file }],
    });
    const answer = await client.request(methods.client.session.requestPermission, {
      sessionId,
      toolCall: { toolCallId: 'edit-1' },
      options: [
        { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
        { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
      ],
    });
    if (answer.outcome.outcome === 'selected' && answer.outcome.optionId === 'allow') {
      const { content } = await client.request(methods.client.fs.readTextFile, { sessionId, path: file });
      await client.request(methods.client.fs.writeTextFile, {
        sessionId,
        path: file,
        content: content.toUpperCase(),
      });
      await update({ sessionUpdate: 'tool_call_update', toolCallId: 'edit-1', status: 'completed' });
      await update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Edited.' } });
    } else {
      await update({ sessionUpdate: 'tool_call_update', toolCallId: 'edit-1', status: 'failed' });
      await update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Not allowed.' } });
    }
    await update({
      sessionUpdate: 'plan',
      entries: [{ content: 'Edit the file', priority: 'high', status: 'completed' }],
    });
    return { stopReason: 'end_turn' };
  })
  .onNotification(methods.agent.session.cancel, () => {});

const connection = app.connect(ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin)));
await connection.closed;
process.exit(0);
