/**
 * acp-kit's AgentSideConnection against the official SDK's client app (@agentclientprotocol/sdk),
 * in-process over web streams and as a child process run from source with tsx.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  sdkClientToAcpKitAgentInProcess,
  sdkClientToAcpKitAgentProcess,
  type ClientDriver,
} from './harness.js';
import { defineScenarioSuite, openSession, text } from './scenario-suite.js';
import { CLIENT_CAPABILITIES, EXT, PROMPTS } from './fixtures/scenario.mjs';

function capabilityProbeTest(current: () => ClientDriver): void {
  it('our agent refuses fs and terminal calls the SDK client did not advertise, without sending them', async () => {
    const driver = current();
    await driver.initialize({ protocolVersion: 1, clientCapabilities: {} });
    const { sessionId } = await driver.newSession({ cwd: '/work/project', mcpServers: [] });
    const res = await driver.prompt({ sessionId, prompt: [text('capability-probe')] });
    expect(res).toEqual({
      stopReason: 'end_turn',
      _meta: { refused: { terminal: 'CAPABILITY_NOT_SUPPORTED', readTextFile: 'CAPABILITY_NOT_SUPPORTED' } },
    });
    expect(driver.editor.calls).toEqual([]);
  });
}

defineScenarioSuite(
  'SDK client ↔ acp-kit agent, in-process (ndJsonStream ↔ webStreamChannel)',
  sdkClientToAcpKitAgentInProcess,
  capabilityProbeTest,
);

defineScenarioSuite(
  'SDK client ↔ acp-kit agent, child process (node --import tsx, stdioChannel)',
  sdkClientToAcpKitAgentProcess,
  (current) => {
    capabilityProbeTest(current);

    it('the client going away mid-turn (permission pending) ends the agent process cleanly', async () => {
      const driver = current() as ReturnType<typeof sdkClientToAcpKitAgentProcess>;
      const sessionId = await openSession(driver);
      void driver.prompt({ sessionId, prompt: [text(PROMPTS.permissionThenCancel)] }).catch(() => undefined);
      await driver.editor.until(() => driver.editor.pendingPermissionCount(sessionId) === 1);
      await driver.dispose();
      const exit = await driver.exited;
      // Exited by itself (the harness would SIGKILL it after 5 s).
      expect(exit).toMatchObject({ code: 0, signal: null });
      expect(exit.stderr).toContain('acp-kit-interop-agent: CONNECTION_CLOSED');
    });

    it('ending its stdin ends the agent process cleanly', async () => {
      const driver = current() as ReturnType<typeof sdkClientToAcpKitAgentProcess>;
      await driver.initialize({ protocolVersion: 1, clientCapabilities: {} });
      await driver.dispose();
      const exit = await driver.exited;
      expect(exit).toMatchObject({ code: 0, signal: null });
      expect(exit.stderr).toContain('acp-kit-interop-agent: CONNECTION_CLOSED');
    });
  },
);

describe('flow control: our agent pauses reading (maxQueuedInbound: 1) behind a slow handler', () => {
  let driver: ClientDriver | undefined;
  afterEach(async () => {
    await driver?.dispose();
    driver = undefined;
  });

  it.each([
    ['in-process', sdkClientToAcpKitAgentInProcess],
    ['child process', sdkClientToAcpKitAgentProcess],
  ] as const)('%s: a flood of notifications is handled completely and in order', async (_, make) => {
    const current = make({ maxQueuedInbound: 1 });
    driver = current;
    await current.initialize({ protocolVersion: 1, clientCapabilities: CLIENT_CAPABILITIES });
    // The first ping is held until the engine pauses reading, which the ones behind it cause.
    const pings = Array.from({ length: 200 }, (_, n) => ({
      n,
      holdUntilPaused: n === 0,
      pad: 'x'.repeat(2000),
    }));
    await Promise.all(pings.map((p) => current.extNotification(EXT.ping, p)));
    const res = (await current.extRequest(EXT.echo, {})) as {
      pings: { n: number }[];
      flow: { pauses: number; resumes: number };
    };
    expect(res.pings.map((p) => p.n)).toEqual(pings.map((p) => p.n));
    expect(res.flow.pauses).toBeGreaterThan(0);
    // The echo is answered from inside the queue's pump, which may resume reading right after it.
    expect(res.flow.resumes).toBeGreaterThanOrEqual(res.flow.pauses - 1);
  });
});
