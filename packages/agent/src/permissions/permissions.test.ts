import { access, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DemoEngine } from '../demo/demo-engine.js';
import { inProcessAgent, removeDir, tempDir } from '../test-support/harness.js';
import { choose, type PermissionPolicy, type TestClient } from '../test-support/test-client.js';

let work: string;
let data: string;
let client: TestClient;

beforeEach(async () => {
  work = await tempDir('ws');
  data = await tempDir('data');
  await writeFile(join(work, 'README.md'), '# Readme\n');
});

afterEach(async () => {
  await client.close();
  await removeDir(work);
  await removeDir(data);
});

async function start(permission: PermissionPolicy): Promise<string> {
  ({ client } = inProcessAgent({ engine: new DemoEngine({ delayMs: 0 }), dataDir: data }, { permission }));
  await client.initialize();
  return (await client.connection.newSession({ cwd: work, mcpServers: [] })).sessionId;
}

const notesExist = (): Promise<boolean> =>
  access(join(work, 'ACP_DEMO.md')).then(
    () => true,
    () => false,
  );

function tour(sessionId: string, text = 'tour') {
  return client.connection.promptSession({ sessionId, prompt: [{ type: 'text', text }] });
}

describe('permission outcomes', () => {
  it('offers all four options with the diff, and reject_once skips the edit but asks again next time', async () => {
    const sessionId = await start(choose('reject_once'));
    expect((await tour(sessionId)).stopReason).toBe('end_turn');
    const request = client.permissionRequests[0];
    expect(request?.options.map((o) => o.kind)).toEqual([
      'allow_once',
      'allow_always',
      'reject_once',
      'reject_always',
    ]);
    expect(request?.toolCall.content?.[0]).toMatchObject({ type: 'diff', oldText: null });
    expect(await notesExist()).toBe(false);
    const edit = client.toolCalls(sessionId).find((c) => c.kind === 'edit');
    expect(edit).toMatchObject({ status: 'failed', rawOutput: { rejected: true, by: 'user' } });
    expect(client.agentText(sessionId)).toMatch(/recording notes in `ACP_DEMO.md`: not done/);

    await tour(sessionId);
    expect(client.permissionRequests.filter((r) => r.toolCall.kind === 'edit')).toHaveLength(2);
  });

  it('reject_always is remembered for the session (and survives resume)', async () => {
    const sessionId = await start(choose('reject_always'));
    await tour(sessionId);
    expect(client.permissionRequests).toHaveLength(2);
    await client.connection.closeSession({ sessionId });
    await client.connection.resumeSession({ sessionId, cwd: work });
    await tour(sessionId);
    expect(client.permissionRequests).toHaveLength(2);
    const edits = client.toolCalls(sessionId).filter((c) => c.kind === 'edit');
    expect(edits[1]).toMatchObject({ status: 'failed', rawOutput: { rejected: true, by: 'remembered' } });
    expect(await notesExist()).toBe(false);
  });

  it('a cancelled outcome means the tool does not run and the turn ends cancelled', async () => {
    const sessionId = await start(() => ({ outcome: { outcome: 'cancelled' } }));
    expect((await tour(sessionId)).stopReason).toBe('cancelled');
    expect(await notesExist()).toBe(false);
    const edit = client.toolCalls(sessionId).find((c) => c.kind === 'edit');
    expect(edit).toMatchObject({ status: 'failed', rawOutput: { cancelled: true } });
    expect(client.toolCalls(sessionId).some((c) => c.kind === 'execute')).toBe(false);
  });

  it("says the client's policy decided when the answer carries acp-kit's decision, and remembers nothing", async () => {
    const sessionId = await start((request) => ({
      outcome: {
        outcome: 'selected',
        optionId: request.toolCall.kind === 'edit' ? 'reject_always' : 'allow_once',
      },
      _meta: { 'acp-kit/decision': { by: 'default', reason: 'edit is not a read (--approve reads)' } },
    }));
    await tour(sessionId);
    const edit = client.toolCalls(sessionId).find((c) => c.kind === 'edit');
    expect(edit).toMatchObject({ status: 'failed', rawOutput: { rejected: true, by: 'client' } });
    expect(client.agentText(sessionId)).toContain(
      "recording notes in `ACP_DEMO.md`: not done (The client's permission policy rejected this without asking anyone: edit is not a read (--approve reads))",
    );
    const run = client.toolCalls(sessionId).find((c) => c.kind === 'execute');
    expect(run).toMatchObject({ status: 'completed' });
    // A policy's answer is not the user's "always": the next tour asks again.
    await tour(sessionId);
    expect(client.permissionRequests.filter((r) => r.toolCall.kind === 'edit')).toHaveLength(2);
  });

  it('an unknown option id is treated as a rejection', async () => {
    const sessionId = await start(() => ({ outcome: { outcome: 'selected', optionId: 'bogus' } }));
    await tour(sessionId);
    expect(await notesExist()).toBe(false);
  });
});

describe('modes', () => {
  it('keeps modes and the mode config option in sync, whoever changes them', async () => {
    const sessionId = await start(choose('allow_once'));
    await client.connection.setSessionMode({ sessionId, modeId: 'auto-edit' });
    await client.waitForUpdate(sessionId, (u) => u.sessionUpdate === 'current_mode_update');
    const update = await client.waitForUpdate(sessionId, (u) => u.sessionUpdate === 'config_option_update');
    expect(update).toMatchObject({
      configOptions: [{ id: 'mode', currentValue: 'auto-edit' }, { id: 'model' }],
    });

    const { configOptions } = await client.connection.setSessionConfigOption({
      sessionId,
      configId: 'mode',
      value: 'plan',
    });
    expect(configOptions[0]).toMatchObject({ currentValue: 'plan' });
    expect(client.updates(sessionId, 'current_mode_update').at(-1)).toMatchObject({ currentModeId: 'plan' });
  });

  it('auto-edit applies edits without asking but still asks before commands', async () => {
    const sessionId = await start(choose('allow_once'));
    await client.connection.setSessionMode({ sessionId, modeId: 'auto-edit' });
    await tour(sessionId);
    expect(client.permissionRequests.map((r) => r.toolCall.kind)).toEqual(['execute']);
    expect(await notesExist()).toBe(true);
  });

  it('full access asks nothing', async () => {
    const sessionId = await start(choose('allow_once'));
    await client.connection.setSessionMode({ sessionId, modeId: 'full-access' });
    await tour(sessionId);
    expect(client.permissionRequests).toHaveLength(0);
    expect(client.toolCalls(sessionId).every((c) => c.status === 'completed')).toBe(true);
  });

  it('plan mode asks to leave through switch_mode; rejecting keeps everything unchanged', async () => {
    const sessionId = await start(choose('reject_once'));
    await client.connection.promptSession({
      sessionId,
      prompt: [{ type: 'text', text: '/plan tour the project' }],
    });
    expect(client.updates(sessionId, 'current_mode_update').at(-1)).toMatchObject({ currentModeId: 'plan' });
    const request = client.permissionRequests[0];
    expect(request?.toolCall.kind).toBe('switch_mode');
    expect(request?.options.map((o) => o.kind)).toEqual(['allow_once', 'reject_once']);
    expect(await notesExist()).toBe(false);
    expect(client.agentText(sessionId)).toMatch(/Staying in plan mode/);
  });

  it('plan mode: accepting switches mode (announced) and the work goes on', async () => {
    const sessionId = await start(choose('allow_once'));
    await client.connection.setSessionMode({ sessionId, modeId: 'plan' });
    await tour(sessionId);
    expect(client.permissionRequests.map((r) => r.toolCall.kind)).toEqual(['switch_mode', 'edit', 'execute']);
    expect(client.updates(sessionId, 'current_mode_update').at(-1)).toMatchObject({ currentModeId: 'ask' });
    expect(client.updates(sessionId, 'config_option_update').at(-1)).toMatchObject({
      configOptions: [{ id: 'mode', currentValue: 'ask' }, { id: 'model' }],
    });
    expect(await readFile(join(work, 'ACP_DEMO.md'), 'utf8')).toContain('## Tour 1');
  });

  it('plan mode refuses edits outright', async () => {
    const sessionId = await start(choose('allow_once'));
    await client.connection.setSessionMode({ sessionId, modeId: 'plan' });
    await client.connection.promptSession({ sessionId, prompt: [{ type: 'text', text: 'run touch x.txt' }] });
    expect(client.permissionRequests).toHaveLength(0);
    const call = client.toolCalls(sessionId)[0];
    expect(call).toMatchObject({
      kind: 'execute',
      status: 'failed',
      rawOutput: { rejected: true, by: 'mode' },
    });
    await expect(access(join(work, 'x.txt'))).rejects.toThrow();
  });
});
