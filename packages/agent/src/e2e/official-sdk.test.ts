/**
 * The demo agent driven by a client built on the official ACP SDK (`@agentclientprotocol/sdk`),
 * over a real child process: an independent implementation agrees with what we send.
 */
import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { agentCommand, cleanEnv, removeDir, tempDir } from '../test-support/harness.js';

let work: string;
let home: string;

beforeEach(async () => {
  work = await tempDir('ws');
  home = await tempDir('home');
  await writeFile(join(work, 'README.md'), '# Official SDK\n');
});

afterEach(async () => {
  await removeDir(work);
  await removeDir(home);
});

describe('official SDK client', () => {
  it('initializes, runs a tour with permissions, lists, loads and resumes', async () => {
    const { command, args } = agentCommand(['--demo']);
    const child = spawn(command, args, {
      cwd: work,
      env: cleanEnv(home),
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const updates: acp.SessionNotification[] = [];
    const permissions: acp.RequestPermissionRequest[] = [];
    const stream = acp.ndJsonStream(
      Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
      Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>,
    );
    const app = acp
      .client({ name: 'official-sdk-test' })
      .onNotification('session/update', ({ params }) => {
        updates.push(params);
      })
      .onRequest('session/request_permission', ({ params }) => {
        permissions.push(params);
        const option = params.options.find((o) => o.kind === 'allow_always');
        return { outcome: { outcome: 'selected', optionId: option?.optionId ?? '' } };
      });

    const result = await app.connectWith(stream, async (agent) => {
      const init = await agent.request('initialize', {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: {},
        clientInfo: { name: 'official-sdk-test', version: '1.0.0' },
      });
      const created = await agent.request('session/new', { cwd: work, mcpServers: [] });
      const prompt = await agent.request('session/prompt', {
        sessionId: created.sessionId,
        prompt: [{ type: 'text', text: 'Tour please' }],
      });
      const listed = await agent.request('session/list', { cwd: work });
      await agent.request('session/close', { sessionId: created.sessionId });
      const liveCount = updates.length;
      const loaded = await agent.request('session/load', {
        sessionId: created.sessionId,
        cwd: work,
        mcpServers: [],
      });
      const replayed = updates.slice(liveCount).filter((u) => u.sessionId === created.sessionId);
      const resumed = await agent.request('session/resume', { sessionId: created.sessionId, cwd: work });
      return { init, created, prompt, listed, loaded, replayed, resumed };
    });

    child.stdin.end();
    await exited;
    expect(result.init.agentCapabilities?.loadSession).toBe(true);
    expect(result.created.modes?.currentModeId).toBe('ask');
    expect(result.prompt.stopReason).toBe('end_turn');
    expect(permissions.map((p) => p.toolCall.kind)).toEqual(['edit', 'execute']);
    expect(await readFile(join(work, 'ACP_DEMO.md'), 'utf8')).toContain('# acp-kit demo notes');
    expect(result.listed.sessions.map((s) => s.title)).toEqual(['Tour please']);
    expect(result.replayed[0]?.update).toMatchObject({ sessionUpdate: 'user_message_chunk' });
    expect(result.replayed.filter((u) => u.update.sessionUpdate === 'tool_call')).toHaveLength(5);
    expect(result.loaded.configOptions?.[0]).toMatchObject({ id: 'mode', category: 'mode' });
    expect(result.resumed.modes?.currentModeId).toBe('ask');
  });
});
