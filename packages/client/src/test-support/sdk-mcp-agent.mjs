#!/usr/bin/env node
// An agent built on the official ACP SDK that uses MCP servers over ACP with its McpOverAcpCaller.
// `node sdk-mcp-agent.mjs [no-acp]`: without `no-acp` it advertises mcpCapabilities.acp. Each prompt
// is a JSON list of calls `{ server, method, params }` (`server`: a declared name, or an unknown
// serverId); the answer is one JSON text: the mcpServers it was given and every call's outcome
// (with the request's MCP notifications, if any). A call with `cancelOnNote: true` is cancelled
// when its first notification arrives.
import { Readable, Writable } from 'node:stream';
import { McpOverAcpCaller, agent, ndJsonStream } from '@agentclientprotocol/sdk/unstable';

const acp = process.argv[2] !== 'no-acp';
const caller = new McpOverAcpCaller({ clientInfo: { name: 'sdk-mcp-agent', version: '1.0.0' } });
const sessions = new Map();
let counter = 0;

const app = agent({ name: 'sdk-mcp-agent' })
  .onNotification('mcp/message', caller.handleNotification)
  .onRequest('initialize', () => ({
    protocolVersion: 1,
    agentCapabilities: { mcpCapabilities: { http: true, ...(acp ? { acp: true } : {}) } },
    agentInfo: { name: 'sdk-mcp-agent', version: '1.0.0' },
  }))
  .onRequest('session/new', ({ params }) => {
    const sessionId = `mcp-${++counter}`;
    sessions.set(sessionId, params.mcpServers);
    return { sessionId };
  })
  .onRequest('session/prompt', async ({ params, client }) => {
    const servers = sessions.get(params.sessionId) ?? [];
    const calls = JSON.parse(params.prompt.find((b) => b.type === 'text')?.text ?? '[]');
    const outcomes = [];
    for (const call of calls) {
      const declared = servers.find((s) => s.name === call.server && s.type === 'acp');
      try {
        const notes = [];
        const cancel = new globalThis.AbortController();
        const onNotification = (note) => {
          notes.push({ method: note.method, params: note.params });
          if (call.cancelOnNote) cancel.abort();
        };
        const outcome = await caller.request(
          client,
          declared?.serverId ?? call.server,
          call.method,
          call.params,
          { onNotification, signal: cancel.signal },
        );
        outcomes.push(notes.length > 0 ? { ...outcome, notes } : outcome);
      } catch (error) {
        outcomes.push({ outer: { code: error.code, message: error.message } });
      }
    }
    const text = JSON.stringify({ servers, outcomes });
    await client.notify('session/update', {
      sessionId: params.sessionId,
      update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } },
    });
    return { stopReason: 'end_turn' };
  })
  .onNotification('session/cancel', () => {});

const connection = app.connect(ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin)));
await connection.closed;
process.exit(0);
