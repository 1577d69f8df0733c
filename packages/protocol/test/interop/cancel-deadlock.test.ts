/**
 * Regression: agents ported from the official SDK often write an async `cancelSession` that waits
 * for the turn to end. The engine awaits ordinary notification handlers before the next inbound
 * message, so session/cancel must be exempt, or the client's answer to a pending permission request
 * (queued behind it) would never be processed.
 */
import { afterEach, expect, it } from 'vitest';
import * as acp from '@agentclientprotocol/sdk';
import { AgentSideConnection, type PromptResponse } from '@acp-kit/protocol';
import { webStreamChannel } from '../../src/transport/web-stream.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** Lets every pending microtask and a few macrotask turns run (a flush; nothing waits on time). */
async function flush(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 0));
}

it('an async cancelSession handler that awaits the end of the turn does not deadlock the agent', async () => {
  // Were session/cancel ordered like other notifications, the client's `cancelled` answer to the
  // pending permission request (queued behind it) would never be processed, the turn would never
  // end, and cancelSession would never return.
  const toAgent = new TransformStream<Uint8Array, Uint8Array>();
  const toClient = new TransformStream<Uint8Array, Uint8Array>();
  let permissionAnswerArrived!: () => void;
  const answerArrived = new Promise<void>((resolve) => (permissionAnswerArrived = resolve));
  let turnEnded!: () => void;
  const turnFinished = new Promise<void>((resolve) => (turnEnded = resolve));
  const agent = new AgentSideConnection(
    webStreamChannel(toAgent.readable, toClient.writable),
    (conn) => ({
      initialize: () => ({ protocolVersion: 1, agentCapabilities: {} }),
      newSession: () => ({ sessionId: 's1' }),
      promptSession: async ({ sessionId }): Promise<PromptResponse> => {
        const { outcome } = await conn.requestPermission({
          sessionId,
          toolCall: { toolCallId: 'call-1', title: 'rm -rf build' },
          options: [{ optionId: 'allow', name: 'Allow', kind: 'allow_once' }],
        });
        turnEnded();
        return { stopReason: outcome.outcome === 'cancelled' ? 'cancelled' : 'end_turn' };
      },
      // A natural way to write it: stop the turn, and return once it has stopped.
      cancelSession: async () => {
        await turnFinished;
      },
    }),
    {
      trace: (direction, text) => {
        if (direction === 'in' && text.includes('"outcome":"cancelled"')) permissionAnswerArrived();
      },
    },
  ).start();
  cleanups.push(() => agent.close());

  let pending: ((r: acp.RequestPermissionResponse) => void) | undefined;
  let asked!: () => void;
  const permissionAsked = new Promise<void>((resolve) => (asked = resolve));
  const client = acp
    .client({ name: 'sdk-client' })
    .onNotification(acp.methods.client.session.update, () => undefined)
    .onRequest(
      acp.methods.client.session.requestPermission,
      () =>
        new Promise<acp.RequestPermissionResponse>((resolve) => {
          pending = resolve;
          asked();
        }),
    )
    .connect(acp.ndJsonStream(toAgent.writable, toClient.readable));
  cleanups.push(async () => {
    client.close();
    await client.closed;
  });

  const ctx = client.agent;
  await ctx.request(acp.methods.agent.initialize, { protocolVersion: 1, clientCapabilities: {} });
  let settled = false;
  void ctx
    .request(acp.methods.agent.session.prompt, { sessionId: 's1', prompt: [] })
    .finally(() => (settled = true))
    .catch(() => undefined);
  await permissionAsked;
  await ctx.notify(acp.methods.agent.session.cancel, { sessionId: 's1' });
  pending?.({ outcome: { outcome: 'cancelled' } });
  // The answer reached the agent's engine; give the agent every chance to finish the turn.
  await answerArrived;
  await flush();
  expect(settled).toBe(true);
});
