/**
 * `acp agent` as a child process using an MCP server that exists only in its client, provided over
 * the ACP connection (unstable MCP-over-ACP) by the official ACP SDK's `McpOverAcpProvider`
 * serving a real MCP SDK 2.x server (`fromMcpServer`): the tool is listed, called, its error
 * reported as a failed tool call, and a running call is cancelled through the outer request.
 */
import { spawn } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import { fromMcpServer } from '@agentclientprotocol/sdk/experimental/mcp-server';
import * as acp from '@agentclientprotocol/sdk/unstable';
import { McpServer, ProtocolError, inputRequired } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentCommand, cleanEnv, removeDir, tempDir } from '../test-support/harness.js';
import { startOpenAIStub, type ModelStub } from '../test-support/model-stubs.js';

let work: string;
let home: string;
let stub: ModelStub;

beforeAll(async () => {
  work = await tempDir('ws');
  home = await tempDir('home');
  stub = await startOpenAIStub();
});

afterAll(async () => {
  await stub.close();
  await removeDir(work);
  await removeDir(home);
});

describe('MCP-over-ACP with the official SDK provider', () => {
  it('lists and calls a client-side MCP server tool, reports inner errors and cancels', async () => {
    const { command, args } = agentCommand(['--base-url', stub.baseUrl, '--model', 'm']);
    const child = spawn(command, args, {
      cwd: work,
      env: cleanEnv(home),
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const updates: acp.SessionNotification[] = [];
    const inner: acp.McpOperationContext[] = [];
    let waitStarted!: () => void;
    const waiting = new Promise<void>((resolve) => (waitStarted = resolve));
    let waitAborted = false;

    const provider = new acp.McpOverAcpProvider();
    const server = fromMcpServer(() => {
      const mcp = new McpServer({ name: 'local-tools', version: '1.0.0' });
      mcp.registerTool(
        'echo',
        {
          description: 'Echoes text',
          inputSchema: z.object({ text: z.string() }),
          annotations: { readOnlyHint: true },
        },
        ({ text }) => ({ content: [{ type: 'text', text: `local echo: ${text}` }] }),
      );
      mcp.registerTool('fail', { description: 'Always fails' }, () => {
        throw new ProtocolError(-32000, 'the local database is locked');
      });
      // A 2026-07-28 tool that needs the user's answer first (a multi-round-trip result).
      mcp.registerTool('confirm', { description: 'Asks before acting' }, () =>
        inputRequired({
          inputRequests: {
            confirm: inputRequired.elicit({
              message: 'Really?',
              requestedSchema: z.object({ confirm: z.boolean() }),
            }),
          },
        }),
      );
      mcp.registerTool(
        'wait',
        { description: 'Waits until cancelled', annotations: { readOnlyHint: true } },
        async (ctx) => {
          waitStarted();
          const { signal } = ctx.mcpReq;
          await new Promise<void>((resolve) => {
            if (signal.aborted) resolve();
            signal.addEventListener('abort', () => resolve());
          });
          waitAborted = true;
          return { content: [] };
        },
      );
      return mcp;
    });
    const handler: acp.McpRequestHandler = (ctx) => {
      inner.push(ctx);
      return server.handler(ctx);
    };
    const app = acp
      .client({ name: 'sdk-mcp-provider-test' })
      .onRequest('mcp/message', provider.handleRequest)
      .onNotification('session/update', ({ params }) => {
        updates.push(params);
      })
      .onRequest('session/request_permission', ({ params }) => {
        const option = params.options.find((o) => o.kind === 'allow_once');
        return { outcome: { outcome: 'selected', optionId: option?.optionId ?? '' } };
      });
    const stream = acp.ndJsonStream(
      Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
      Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>,
    );

    const result = await app.connectWith(stream, async (agent) => {
      const init = await agent.request('initialize', {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: {},
        clientInfo: { name: 'sdk-mcp-provider-test', version: '1.0.0' },
      });
      const tools = provider.registerServer(agent, { name: 'local', handler });
      const { sessionId } = (await agent.request('session/new', {
        cwd: work,
        // `ghost` was never registered: the provider answers -33001 and the agent reports it.
        mcpServers: [tools.declaration, { type: 'acp', name: 'ghost', serverId: 'never-registered' }],
      })) as acp.NewSessionResponse;
      stub.enqueue(
        {
          toolCalls: [
            { id: 'e', name: 'mcp__local__echo', input: { text: 'hi' } },
            { id: 'f', name: 'mcp__local__fail', input: {} },
            { id: 'c', name: 'mcp__local__confirm', input: {} },
          ],
        },
        { text: ['done'] },
      );
      const first = (await agent.request('session/prompt', {
        sessionId,
        prompt: [{ type: 'text', text: 'use tools' }],
      })) as acp.PromptResponse;

      stub.enqueue({ toolCalls: [{ id: 'w', name: 'mcp__local__wait', input: {} }] }, { text: ['stopped'] });
      const second = agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'wait' }] });
      await waiting;
      await agent.notify('session/cancel', { sessionId });
      const cancelled = (await second) as acp.PromptResponse;
      return { init, first, cancelled, sessionId };
    });
    child.stdin.end();
    await exited;
    await server.close();

    expect(result.init.agentCapabilities?.mcpCapabilities).toMatchObject({ acp: true });
    expect(result.first.stopReason).toBe('end_turn');
    expect(result.cancelled.stopReason).toBe('cancelled');
    expect(waitAborted).toBe(true);
    // Every inner request carried MCP 2026-07-28's per-request metadata.
    expect(new Set(inner.map((c) => c.protocolVersion))).toEqual(new Set([acp.MCP_PROTOCOL_VERSION]));
    expect(inner.map((c) => c.method).slice(0, 2)).toEqual(['server/discover', 'tools/list']);
    const offered = (stub.requests[0] as { tools: { function: { name: string } }[] }).tools.map(
      (t) => t.function.name,
    );
    expect(offered).toEqual(
      expect.arrayContaining(['mcp__local__echo', 'mcp__local__fail', 'mcp__local__wait']),
    );

    const calls = new Map<string, Record<string, unknown>>();
    for (const { update } of updates) {
      if (update.sessionUpdate !== 'tool_call' && update.sessionUpdate !== 'tool_call_update') continue;
      calls.set(update.toolCallId, { ...calls.get(update.toolCallId), ...update });
    }
    const byTitle = new Map([...calls.values()].map((c) => [c.title, c]));
    expect(byTitle.get('local: echo')).toMatchObject({
      status: 'completed',
      content: [{ type: 'content', content: { type: 'text', text: 'local echo: hi' } }],
    });
    expect(byTitle.get('local: fail')?.status).toBe('failed');
    expect(JSON.stringify(byTitle.get('local: fail')?.content)).toContain('the local database is locked');
    // The agent cannot answer the server's question: the call failed, it did not "complete" empty.
    expect(byTitle.get('local: confirm')?.status).toBe('failed');
    const said = updates.map(({ update }) =>
      update.sessionUpdate === 'agent_message_chunk' && update.content.type === 'text'
        ? update.content.text
        : '',
    );
    expect(said.join('')).toMatch(/MCP server "ghost" failed to start: .*registration unavailable/);
    expect(offered.some((name) => name.startsWith('mcp__ghost'))).toBe(false);
    // The model saw the tool result.
    const toolMessages = (
      stub.requests[1] as { messages: { role: string; content: string }[] }
    ).messages.filter((m) => m.role === 'tool');
    expect(toolMessages[0]?.content).toBe('local echo: hi');
  });
});
