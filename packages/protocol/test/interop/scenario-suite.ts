/**
 * The interop scenario as a vitest suite, run against every client/agent/transport combination.
 * What the agent saw is reported back over the wire (`_meta` of responses) so the same assertions
 * hold when the agent is a child process.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type * as T from '@acp-kit/protocol';
import type { ClientDriver } from './harness.js';
import {
  ABORTABLE,
  AGENT_CAPABILITIES,
  BIG_CHUNKS,
  BIG_TEXT,
  EXT,
  CANCEL_PERMISSION_CALL_ID,
  CLIENT_CAPABILITIES,
  FILES,
  MODES,
  PERMISSION_CALL_ID,
  PERMISSION_OPTIONS,
  PROMPTS,
  STREAM_UPDATES,
  TERMINAL,
  UNKNOWN_SESSION_ID,
} from './fixtures/scenario.mjs';

export const CLIENT_INFO = { name: 'interop-client', title: 'Interop client', version: '1.0.0' };
export const MCP_SERVERS: T.McpServer[] = [
  {
    name: 'files',
    command: '/usr/bin/mcp-files',
    args: ['--root', '/work/project'],
    env: [{ name: 'X', value: '1' }],
  },
];

export const text = (t: string): T.ContentBlock => ({ type: 'text', text: t });

/** initialize + session/new; returns the session id. */
export async function openSession(driver: ClientDriver): Promise<string> {
  await driver.initialize({
    protocolVersion: 1,
    clientCapabilities: CLIENT_CAPABILITIES,
    clientInfo: CLIENT_INFO,
  });
  const { sessionId } = await driver.newSession({ cwd: '/work/project', mcpServers: MCP_SERVERS });
  return sessionId;
}

/**
 * Defines the scenario suite. `makeDriver` connects a fresh client and agent for every test;
 * `extra` adds combination-specific tests that share the same setup and teardown.
 */
export function defineScenarioSuite(
  name: string,
  makeDriver: () => ClientDriver | Promise<ClientDriver>,
  extra?: (current: () => ClientDriver) => void,
): void {
  describe(name, () => {
    let driver: ClientDriver;

    beforeEach(async () => {
      driver = await makeDriver();
    });

    afterEach(async () => {
      try {
        // Everything our client received was valid, or kept leniently: nothing rejected.
        expect(driver.validationReports.filter((r) => r.error)).toEqual([]);
      } finally {
        await driver.dispose();
      }
    });

    it('initialize: capabilities and implementation info cross both ways', async () => {
      const res = await driver.initialize({
        protocolVersion: 1,
        clientCapabilities: CLIENT_CAPABILITIES,
        clientInfo: CLIENT_INFO,
      });
      expect(res.protocolVersion).toBe(1);
      expect(res.agentCapabilities).toMatchObject(AGENT_CAPABILITIES);
      expect(res.agentInfo).toMatchObject({
        name: expect.stringMatching(/interop-agent$/),
        version: expect.any(String),
      });
      expect(res.authMethods).toEqual([{ id: 'none', name: 'No login', description: 'Nothing to do' }]);
      // What the agent received, as it reported it.
      const seen = (res._meta as { seen: Record<string, unknown> }).seen;
      expect(seen.protocolVersion).toBe(1);
      expect(seen.clientCapabilities).toMatchObject(CLIENT_CAPABILITIES);
      expect(seen.clientInfo).toEqual(CLIENT_INFO);
      if (driver.inProcessAgent) {
        expect(driver.inProcessAgent.clientCapabilities).toEqual(CLIENT_CAPABILITIES);
        expect(driver.inProcessAgent.clientInfo).toEqual(CLIENT_INFO);
      }
    });

    it('session/new: cwd and MCP servers reach the agent; the modes come back', async () => {
      await driver.initialize({ protocolVersion: 1, clientCapabilities: CLIENT_CAPABILITIES });
      const first = await driver.newSession({ cwd: '/work/project', mcpServers: MCP_SERVERS });
      const second = await driver.newSession({ cwd: '/elsewhere', mcpServers: [] });
      expect(first.sessionId).toMatch(/sess-1$/);
      expect(second.sessionId).toMatch(/sess-2$/);
      expect(first.modes).toEqual(MODES);
      expect(first._meta).toEqual({ cwd: '/work/project', mcpServers: MCP_SERVERS });
      expect(second._meta).toEqual({ cwd: '/elsewhere', mcpServers: [] });
    });

    it('a prompt turn streams every update kind, in order, before the answer', async () => {
      const sessionId = await openSession(driver);
      const prompt: T.ContentBlock[] = [
        text(PROMPTS.stream),
        {
          type: 'resource_link',
          uri: 'file:///work/project/src/main.ts',
          name: 'main.ts',
          mimeType: 'text/x-typescript',
        },
        { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
        {
          type: 'resource',
          resource: { uri: 'file:///work/project/README.md', text: '# Readme', mimeType: 'text/markdown' },
        },
      ];
      const res = await driver.prompt({ sessionId, prompt });
      expect(res.stopReason).toBe('end_turn');
      expect((res._meta as { prompt: unknown }).prompt).toEqual(prompt);
      // The whole turn is in, in wire order, by the time the answer settles.
      const updates = await driver.editor.until(
        () =>
          driver.editor.updates(sessionId).length >= STREAM_UPDATES.length &&
          driver.editor.updates(sessionId),
      );
      expect(updates.map((u) => u.sessionUpdate)).toEqual([
        'agent_thought_chunk',
        'agent_message_chunk',
        'agent_message_chunk',
        'tool_call',
        'tool_call_update',
        'plan',
        'available_commands_update',
        'current_mode_update',
        'session_info_update',
        'usage_update',
      ]);
      if (driver.client === 'acp-kit') {
        // Exactly what the SDK agent sent: nothing added, dropped or reordered.
        expect(updates).toEqual(STREAM_UPDATES);
      } else {
        // The SDK's parser may fill in defaults; everything our agent sent must be there.
        updates.forEach((u, i) => expect(u).toMatchObject(STREAM_UPDATES[i] as object));
      }
      const diff = updates[4] as Extract<T.SessionUpdate, { sessionUpdate: 'tool_call_update' }>;
      expect(diff.content?.[1]).toMatchObject({ type: 'diff', oldText: null, newText: 'export {};\n' });
    });

    it('permission: the client selects an option and the agent gets it', async () => {
      const sessionId = await openSession(driver);
      const res = await driver.prompt({ sessionId, prompt: [text(PROMPTS.permission)] });
      expect(res.stopReason).toBe('end_turn');
      expect((res._meta as { outcome: unknown }).outcome).toEqual({
        outcome: 'selected',
        optionId: 'allow-once-7',
      });
      const [asked] = driver.editor.callsOf('session/request_permission');
      expect(asked?.params).toMatchObject({
        sessionId,
        toolCall: {
          toolCallId: PERMISSION_CALL_ID,
          title: 'rm -rf build',
          kind: 'delete',
          status: 'pending',
        },
        options: PERMISSION_OPTIONS,
      });
      const updates = await driver.editor.until(() => {
        const u = driver.editor.updates(sessionId);
        return u.length >= 2 && u;
      });
      expect(updates[1]).toMatchObject({
        sessionUpdate: 'tool_call_update',
        toolCallId: PERMISSION_CALL_ID,
        status: 'completed',
      });
    });

    it('fs: the agent reads a line range and writes a file through the client', async () => {
      const sessionId = await openSession(driver);
      const res = await driver.prompt({ sessionId, prompt: [text(PROMPTS.fs)] });
      expect(res.stopReason).toBe('end_turn');
      expect((res._meta as { read: string }).read).toBe(FILES.expectedRead);
      expect(driver.editor.files.get(FILES.writePath)).toBe(FILES.expectedRead.toUpperCase());
      expect(driver.editor.callsOf('fs/')).toEqual([
        {
          method: 'fs/read_text_file',
          params: { sessionId, path: FILES.readPath, line: FILES.line, limit: FILES.limit },
        },
        {
          method: 'fs/write_text_file',
          params: { sessionId, path: FILES.writePath, content: FILES.expectedRead.toUpperCase() },
        },
      ]);
    });

    it('terminal: create, output, wait_for_exit and release, in order', async () => {
      const sessionId = await openSession(driver);
      const res = await driver.prompt({ sessionId, prompt: [text(PROMPTS.terminal)] });
      expect(res.stopReason).toBe('end_turn');
      expect(res._meta).toEqual({
        terminalId: TERMINAL.terminalId,
        output: TERMINAL.output,
        exit: TERMINAL.exit,
      });
      const terminalId = TERMINAL.terminalId;
      expect(driver.editor.callsOf('terminal/')).toEqual([
        { method: 'terminal/create', params: { sessionId, ...TERMINAL.request } },
        { method: 'terminal/output', params: { sessionId, terminalId } },
        { method: 'terminal/wait_for_exit', params: { sessionId, terminalId } },
        { method: 'terminal/release', params: { sessionId, terminalId } },
      ]);
      const updates = await driver.editor.until(() => {
        const u = driver.editor.updates(sessionId);
        return u.length >= 2 && u;
      });
      expect(updates[0]).toMatchObject({
        sessionUpdate: 'tool_call',
        kind: 'execute',
        content: [{ type: 'terminal', terminalId }],
      });
      expect(updates[1]).toMatchObject({ sessionUpdate: 'tool_call_update', status: 'completed' });
    });

    it('session/cancel mid-turn: the prompt answers stopReason cancelled', async () => {
      const sessionId = await openSession(driver);
      const turn = driver.prompt({ sessionId, prompt: [text(PROMPTS.waitForCancel)] });
      // The agent is working once its first chunk arrives.
      await driver.editor.until(() => driver.editor.updates(sessionId).length > 0);
      await driver.cancel(sessionId);
      await expect(turn).resolves.toMatchObject({ stopReason: 'cancelled' });
      expect(driver.editor.updates(sessionId)[0]).toMatchObject({
        sessionUpdate: 'agent_message_chunk',
        content: { type: 'text', text: 'Working…' },
      });
      // The session is still usable after a cancelled turn.
      await expect(driver.prompt({ sessionId, prompt: [text(PROMPTS.fs)] })).resolves.toMatchObject({
        stopReason: 'end_turn',
      });
    });

    it('a permission pending during cancel is answered cancelled; late updates still arrive', async () => {
      const sessionId = await openSession(driver);
      const turn = driver.prompt({ sessionId, prompt: [text(PROMPTS.permissionThenCancel)] });
      await driver.editor.until(() => driver.editor.pendingPermissionCount(sessionId) === 1);
      await driver.cancel(sessionId);
      const res = await turn;
      expect(res.stopReason).toBe('cancelled');
      expect((res._meta as { outcome: unknown }).outcome).toEqual({ outcome: 'cancelled' });
      expect(driver.editor.pendingPermissionCount(sessionId)).toBe(0);
      // The agent marked the tool call failed after the cancel; the client took the late update.
      const late = await driver.editor.until(() =>
        driver.editor
          .updates(sessionId)
          .find((u) => u.sessionUpdate === 'tool_call_update' && u.toolCallId === CANCEL_PERMISSION_CALL_ID),
      );
      expect(late).toMatchObject({ status: 'failed' });
    });

    it('an unknown session: the agent answers -32002 and the caller gets it as a protocol error', async () => {
      const sessionId = await openSession(driver);
      const unknown = await driver
        .prompt({ sessionId: UNKNOWN_SESSION_ID, prompt: [text(PROMPTS.stream)] })
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      expect(unknown).toBeInstanceOf(driver.protocolErrorClass);
      expect(unknown).toMatchObject({ code: -32002, data: { sessionId: UNKNOWN_SESSION_ID } });

      // A closed session is unknown too.
      await driver.closeSession(sessionId);
      const closed = await driver.prompt({ sessionId, prompt: [text(PROMPTS.stream)] }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(closed).toBeInstanceOf(driver.protocolErrorClass);
      expect(closed).toMatchObject({ code: -32002, data: { sessionId } });
      expect(driver.editor.updates(sessionId)).toEqual([]);
    });

    it('a 2 MiB turn of multi-byte text arrives intact, in order', async () => {
      const sessionId = await openSession(driver);
      const res = await driver.prompt({ sessionId, prompt: [text(PROMPTS.big)] });
      expect(res.stopReason).toBe('end_turn');
      const updates = await driver.editor.until(() => {
        const u = driver.editor.updates(sessionId);
        return u.length >= BIG_CHUNKS && u;
      });
      expect(updates).toHaveLength(BIG_CHUNKS);
      for (const u of updates) {
        expect(u.sessionUpdate).toBe('agent_message_chunk');
        const content = (u as { content: { type: string; text: string } }).content;
        expect(content.type).toBe('text');
        // Compare without printing 0.5 MiB on failure.
        expect(content.text.length).toBe(BIG_TEXT.length);
        expect(content.text === BIG_TEXT).toBe(true);
      }
    });

    it('$/cancel_request: aborting a prompt reaches the agent handler, which answers -32800', async () => {
      const sessionId = await openSession(driver);
      const abort = new AbortController();
      const turn = driver
        .prompt({ sessionId, prompt: [text(PROMPTS.abortable)] }, { signal: abort.signal })
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      await driver.editor.until(() => driver.editor.updates(sessionId).length === 1);
      abort.abort();
      const error = await turn;
      if (driver.client === 'acp-kit') {
        // acp-kit stops waiting at once; the agent's -32800 answer is dropped when it comes.
        expect(error).toMatchObject({ name: 'AcpKitError', code: 'REQUEST_ABORTED' });
      } else {
        expect(error).toBeInstanceOf(driver.protocolErrorClass);
        expect(error).toMatchObject({ code: -32800 });
      }
      // The agent's handler saw the cancellation (its signal aborted) and said so.
      const chunks = await driver.editor.until(() => {
        const u = driver.editor.updates(sessionId);
        return u.length === 2 && u;
      });
      expect(chunks.map((u) => (u as { content: { text: string } }).content.text)).toEqual([
        ABORTABLE.waiting,
        ABORTABLE.aborted,
      ]);
      // The connection and the session are fine afterwards.
      await expect(driver.prompt({ sessionId, prompt: [text(PROMPTS.fs)] })).resolves.toMatchObject({
        stopReason: 'end_turn',
      });
    });

    it('extension requests and notifications cross; an unknown extension method answers -32601', async () => {
      await driver.initialize({ protocolVersion: 1, clientCapabilities: CLIENT_CAPABILITIES });
      await driver.extNotification(EXT.ping, { n: 1 });
      await driver.extNotification(EXT.ping, { n: 2 });
      await expect(driver.extRequest(EXT.echo, { hello: 'wörld', list: [1, 2] })).resolves.toEqual({
        echoed: { hello: 'wörld', list: [1, 2] },
        pings: [{ n: 1 }, { n: 2 }],
      });
      const missing = await driver.extRequest(EXT.missing, {}).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(missing).toBeInstanceOf(driver.protocolErrorClass);
      expect(missing).toMatchObject({ code: -32601 });
    });

    extra?.(() => driver);
  });
}
