/**
 * acp-kit's ClientSideConnection against the official SDK's agent app (@agentclientprotocol/sdk),
 * in-process over web streams and as a child process through spawnPeer.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AcpKitError, isUnknownVariant } from '@acp-kit/protocol';
import {
  acpKitClientToSdkAgentInProcess,
  acpKitClientToSdkAgentProcess,
  type ClientDriver,
} from './harness.js';
import { defineScenarioSuite, openSession, text } from './scenario-suite.js';
import {
  BIG_CHUNKS,
  BIG_TEXT,
  PROMPTS,
  STREAM_UPDATES,
  UNKNOWN_UPDATE,
  UNKNOWN_VALUE_UPDATES,
} from './fixtures/scenario.mjs';

function acpKitClientTests(current: () => ClientDriver): void {
  it('a slow async sessionUpdate handler still sees every update before the prompt answer settles', async () => {
    const driver = current();
    driver.editor.slowUpdates = true;
    const sessionId = await openSession(driver);
    const res = await driver.prompt({ sessionId, prompt: [text(PROMPTS.stream)] });
    expect(res.stopReason).toBe('end_turn');
    // No waiting here: the engine settles a response only after earlier notifications were handled.
    expect(driver.editor.updates(sessionId)).toEqual(STREAM_UPDATES);
  });

  it('an unknown session/update variant from the SDK agent reaches our client as an UnknownVariant', async () => {
    const driver = current();
    const sessionId = await openSession(driver);
    const res = await driver.prompt({ sessionId, prompt: [text(PROMPTS.unknownUpdate)] });
    expect(res.stopReason).toBe('end_turn');
    const [unknown, hologram, teleport, after, ...rest] = driver.editor.updates(sessionId);
    expect(rest).toEqual([]);
    expect(isUnknownVariant(unknown)).toBe(true);
    // Kept whole, not dropped or mangled (the JSON round trip drops the marker symbol).
    expect(JSON.parse(JSON.stringify(unknown))).toEqual(UNKNOWN_UPDATE);
    // Unknown values inside known variants are kept too.
    expect(JSON.parse(JSON.stringify([hologram, teleport]))).toEqual(UNKNOWN_VALUE_UPDATES);
    expect(isUnknownVariant((hologram as { content: unknown }).content)).toBe(true);
    expect(isUnknownVariant(after)).toBe(false);
    expect(after).toEqual({
      sessionUpdate: 'agent_message_chunk',
      content: { type: 'text', text: 'after it' },
    });
    // Reported as diagnostics, not as rejections.
    const reports = driver.validationReports.filter((r) => r.method === 'session/update');
    expect(reports.map((r) => [r.error, r.diagnostics.map((d) => [d.kind, d.path])])).toEqual([
      [undefined, [['unknown-variant', 'update']]],
      [undefined, [['unknown-variant', 'update.content']]],
      [undefined, [['unknown-value', 'update.kind']]],
    ]);
  });
}

defineScenarioSuite(
  'acp-kit client ↔ SDK agent, in-process (webStreamChannel ↔ ndJsonStream)',
  acpKitClientToSdkAgentInProcess,
  acpKitClientTests,
);

defineScenarioSuite(
  'acp-kit client ↔ SDK agent, child process (spawnPeer → node sdk-agent.mjs)',
  acpKitClientToSdkAgentProcess,
  (current) => {
    acpKitClientTests(current);

    it('closing the client ends the agent process cleanly', async () => {
      const driver = current() as ReturnType<typeof acpKitClientToSdkAgentProcess>;
      await openSession(driver);
      await driver.dispose();
      const details = await driver.peer.exited;
      expect(details).toMatchObject({ exitCode: 0, signal: null });
      expect(details.stderrTail).toContain('sdk-interop-agent: connection closed');
    });

    it('closing our client mid-turn rejects the prompt with CONNECTION_CLOSED; the agent process ends', async () => {
      const driver = current() as ReturnType<typeof acpKitClientToSdkAgentProcess>;
      const sessionId = await openSession(driver);
      const turn = driver.prompt({ sessionId, prompt: [text(PROMPTS.permissionThenCancel)] });
      await driver.editor.until(() => driver.editor.pendingPermissionCount(sessionId) === 1);
      await driver.connection.close();
      await expect(turn).rejects.toMatchObject({ name: 'AcpKitError', code: 'CONNECTION_CLOSED' });
      const started = Date.now();
      await driver.dispose();
      const details = await driver.peer.exited;
      expect(details).toMatchObject({ exitCode: 0, signal: null });
      // It left on its own when its stdin closed, not at the SIGTERM after the grace period.
      expect(Date.now() - started).toBeLessThan(2500);
    });

    it('an agent killed mid-turn rejects the pending prompt with PEER_EXITED', async () => {
      const driver = current() as ReturnType<typeof acpKitClientToSdkAgentProcess>;
      const sessionId = await openSession(driver);
      const turn = driver.prompt({ sessionId, prompt: [text(PROMPTS.waitForCancel)] });
      await driver.editor.until(() => driver.editor.updates(sessionId).length > 0);
      driver.peer.child.kill('SIGKILL');
      const error = await turn.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(AcpKitError);
      expect(error).toMatchObject({ code: 'PEER_EXITED', details: { signal: 'SIGKILL' } });
      await expect(driver.connection.closed).resolves.toMatchObject({ code: 'PEER_EXITED' });
    });
  },
);

describe('flow control: our client pauses reading (maxQueuedInbound: 1) behind a slow UI', () => {
  let driver: ClientDriver | undefined;
  afterEach(async () => {
    await driver?.dispose();
    driver = undefined;
  });

  it.each([
    ['in-process', acpKitClientToSdkAgentInProcess],
    ['child process', acpKitClientToSdkAgentProcess],
  ] as const)('%s: big and mixed turns arrive complete and in order', async (_, make) => {
    const current = make({ maxQueuedInbound: 1 });
    driver = current;
    const sessionId = await openSession(current);
    // The UI is stuck until the engine pauses reading (the agent keeps sending meanwhile), then slow.
    current.editor.gate = current.flow.firstPause;
    await expect(current.prompt({ sessionId, prompt: [text(PROMPTS.big)] })).resolves.toMatchObject({
      stopReason: 'end_turn',
    });
    current.editor.gate = undefined;
    current.editor.slowUpdates = true;
    await expect(current.prompt({ sessionId, prompt: [text(PROMPTS.stream)] })).resolves.toMatchObject({
      stopReason: 'end_turn',
    });
    const updates = current.editor.updates(sessionId);
    expect(updates).toHaveLength(BIG_CHUNKS + STREAM_UPDATES.length);
    const big = updates.slice(0, BIG_CHUNKS).map((u) => (u as { content: { text: string } }).content.text);
    expect(big.every((t) => t === BIG_TEXT)).toBe(true);
    expect(updates.slice(BIG_CHUNKS)).toEqual(STREAM_UPDATES);
    expect(current.flow.pauses).toBeGreaterThan(0);
    expect(current.flow.resumes).toBe(current.flow.pauses);
  });
});
