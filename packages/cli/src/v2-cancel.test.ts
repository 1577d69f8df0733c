/**
 * Cancelling one tool call or one terminal of a v2 agent from the client engine
 * (`ClientSession.cancelToolCall` / `cancelTerminal`, v2 `tool_call/cancel` / `terminal/cancel`):
 * the demo agent (`acp agent --demo`, a real child process) runs a command, the client stops that
 * call alone, and the session is never cancelled. A v1 agent offers neither.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  AcpClient,
  resolveClientPaths,
  type ClientSession,
  type SessionState,
  type ToolCallItem,
} from '@acp-kit/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SELF, testHome, type TestHome } from './test-support/cli-harness.js';

let home: TestHome;
let client: AcpClient | undefined;
beforeEach(async () => {
  home = await testHome();
  await writeFile(join(home.work, 'README.md'), '# A project\n');
});
afterEach(async () => {
  await client?.close();
  client = undefined;
  await home.cleanup();
});

async function demoSession(protocolVersion: 1 | 2): Promise<ClientSession> {
  client = await AcpClient.create({
    paths: resolveClientPaths(home.env),
    env: home.env,
    self: SELF,
    mode: 'all',
    record: false,
    protocolVersion,
  });
  const connection = await client.connect('demo', { cwd: home.work });
  expect(connection.protocolVersion).toBe(protocolVersion);
  return connection.newSession({ cwd: home.work });
}

function waitFor(session: ClientSession, predicate: (state: SessionState) => boolean): Promise<SessionState> {
  return new Promise((resolve) => {
    const check = (): boolean => {
      const state = session.state;
      if (!predicate(state)) return false;
      off();
      resolve(state);
      return true;
    };
    const off = session.store.subscribe(() => void check());
    check();
  });
}

const toolCalls = (state: SessionState): ToolCallItem[] =>
  state.items.filter((item): item is ToolCallItem => item.kind === 'tool_call');

describe('cancelling one tool call or terminal (v2)', () => {
  it('stops a running command call alone: the call ends cancelled, the session is never cancelled', async () => {
    const session = await demoSession(2);
    const statuses: string[] = [];
    session.store.subscribe(() => statuses.push(session.state.status));
    const turn = session.prompt('run sleep 30');
    const running = await waitFor(session, (s) =>
      toolCalls(s).some((call) => call.capabilities?.cancel === true && call.status === 'in_progress'),
    );
    const call = toolCalls(running).find((c) => c.capabilities?.cancel === true) as ToolCallItem;
    await session.cancelToolCall(call.toolCallId);
    await turn;
    const ended = toolCalls(session.state).find((c) => c.toolCallId === call.toolCallId);
    expect(ended?.status).toBe('cancelled');
    // The turn was never cancelled: no session/cancel, no cancelling state.
    expect(statuses).not.toContain('cancelling');
    expect(session.state.status).toBe('idle');
  }, 60_000);

  it('stops a background terminal that outlived its turn', async () => {
    const session = await demoSession(2);
    await session.prompt('background sleep 30');
    const state = await waitFor(session, (s) =>
      Object.values(s.terminals).some((t) => t.capabilities?.cancel === true && !t.exitStatus),
    );
    const terminal = Object.values(state.terminals).find((t) => t.capabilities?.cancel === true);
    expect(state.background?.terminalIds).toContain(terminal?.terminalId);
    await session.cancelTerminal(terminal?.terminalId as string);
    const after = await waitFor(
      session,
      (s) => s.terminals[terminal?.terminalId as string]?.exitStatus !== undefined,
    );
    expect(after.terminals[terminal?.terminalId as string]?.exitStatus).toBeDefined();
    await waitFor(
      session,
      (s) => !(s.background?.terminalIds ?? []).includes(terminal?.terminalId as string),
    );
  }, 60_000);

  it('refuses a call that does not advertise cancel, and a v1 agent has none', async () => {
    const session = await demoSession(1);
    await session.prompt('list');
    const [call] = toolCalls(session.state);
    expect(call?.capabilities?.cancel).not.toBe(true);
    await expect(session.cancelToolCall(call?.toolCallId as string)).rejects.toMatchObject({
      code: 'CAPABILITY_NOT_SUPPORTED',
    });
  }, 60_000);
});
