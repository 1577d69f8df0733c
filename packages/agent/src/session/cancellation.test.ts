import { access, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DemoEngine } from '../demo/demo-engine.js';
import { inProcessAgent, removeDir, tempDir } from '../test-support/harness.js';
import { waitForCancel, type TestClient } from '../test-support/test-client.js';

let work: string;
let data: string;
let client: TestClient;
let sessionId: string;

beforeEach(async () => {
  work = await tempDir('ws');
  data = await tempDir('data');
  await writeFile(join(work, 'README.md'), '# Readme\n');
  ({ client } = inProcessAgent(
    { engine: new DemoEngine({ delayMs: 0 }), dataDir: data },
    { permission: waitForCancel },
  ));
  await client.initialize();
  ({ sessionId } = await client.connection.newSession({ cwd: work, mcpServers: [] }));
});

afterEach(async () => {
  await client.close();
  await removeDir(work);
  await removeDir(data);
});

const prompt = (text: string) =>
  client.connection.promptSession({ sessionId, prompt: [{ type: 'text', text }] });

describe('cancellation', () => {
  it('session/cancel mid-stream answers cancelled within milliseconds', async () => {
    const running = prompt('slow');
    await client.waitForUpdate(sessionId, (u) => u.sessionUpdate === 'agent_message_chunk');
    const started = Date.now();
    await client.connection.cancelSession({ sessionId });
    expect((await running).stopReason).toBe('cancelled');
    expect(Date.now() - started).toBeLessThan(500);
    // The session is free for the next prompt.
    expect((await prompt('read README.md')).stopReason).toBe('end_turn');
  });

  it('session/cancel during a permission request aborts it and the tool never runs', async () => {
    const running = prompt('tour');
    await client.waitForPermissionRequests(1);
    await client.connection.cancelSession({ sessionId });
    expect((await running).stopReason).toBe('cancelled');
    await expect(access(join(work, 'ACP_DEMO.md'))).rejects.toThrow();
    const edit = client.toolCalls(sessionId).find((c) => c.kind === 'edit');
    expect(edit).toMatchObject({ status: 'failed', rawOutput: { cancelled: true } });
    expect(client.toolCalls(sessionId).every((c) => c.status === 'completed' || c.status === 'failed')).toBe(
      true,
    );
  });

  it('session/cancel mid-tool stops the command and ends the tool call', async () => {
    await client.connection.setSessionMode({ sessionId, modeId: 'full-access' });
    const running = prompt('run sleep 30');
    await client.waitForUpdate(sessionId, (u) => (u as { status?: string }).status === 'in_progress');
    const started = Date.now();
    await client.connection.cancelSession({ sessionId });
    expect((await running).stopReason).toBe('cancelled');
    expect(Date.now() - started).toBeLessThan(1500);
    expect(client.toolCalls(sessionId)[0]).toMatchObject({
      kind: 'execute',
      status: 'failed',
      rawOutput: { cancelled: true },
    });
  });

  it('$/cancel_request on the prompt is answered with stopReason cancelled, not an error', async () => {
    // Requests so far: initialize (1), session/new (2); the prompt is request 3.
    const running = client.connection.rpc.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'slow' }],
    });
    await client.waitForUpdate(sessionId, (u) => u.sessionUpdate === 'agent_message_chunk');
    await client.connection.rpc.notify('$/cancel_request', { requestId: 3 });
    expect(await running).toEqual({ stopReason: 'cancelled' });
  });

  it('a second prompt while one runs is refused; closing the session cancels the turn', async () => {
    const running = prompt('slow');
    await client.waitForUpdate(sessionId, (u) => u.sessionUpdate === 'agent_message_chunk');
    await expect(prompt('again')).rejects.toThrow(/already running/);
    await client.connection.closeSession({ sessionId });
    expect((await running).stopReason).toBe('cancelled');
  });
});
