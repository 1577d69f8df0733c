/**
 * The readers under test over connections negotiated in v2: our agent's (serveAgent with a v1 and
 * a v2 face, initialized in v2) and our client's (connectAgent, answered 2), each on a
 * {@link ScriptedChannel} the battery feeds.
 */
import { connectAgent, serveAgent } from '@acp-kit/protocol/v2';
import { eventually, ScriptedChannel } from './channel.js';
import type { Reader } from './readers.js';

const INFO = { name: 'battery', version: '1' };
const SETUP_ID = 'battery-initialize';

/** serveAgent with both faces; the reader's own v2 `initialize` is sent first, out of the record. */
export function v2AgentReader(): Reader {
  const channel = new ScriptedChannel();
  const received: unknown[] = [];
  const handled: string[] = [];
  const record =
    <T>(method: string, result: T) =>
    () => {
      handled.push(method);
      return result;
    };
  const served = serveAgent(channel, {
    v1: {
      initialize: record('v1 initialize', { protocolVersion: 1 }),
      newSession: record('v1 session/new', { sessionId: 's-1' }),
      promptSession: record('v1 session/prompt', { stopReason: 'end_turn' as const }),
      cancelSession: (params) => void received.push(params),
    },
    v2: {
      initialize: (params) => {
        if (params._meta?.['battery'] !== 'setup') handled.push('initialize');
        return { protocolVersion: 2, info: INFO, capabilities: { session: {} } };
      },
      login: record('auth/login', {}),
      logout: record('auth/logout', {}),
      newSession: record('session/new', { sessionId: 's-1' }),
      listSessions: record('session/list', { sessions: [] }),
      resumeSession: record('session/resume', {}),
      closeSession: record('session/close', {}),
      deleteSession: record('session/delete', {}),
      setSessionConfigOption: record('session/set_config_option', { configOptions: [] }),
      promptSession: record('session/prompt', { messageId: 'm-1' }),
      cancelSession: (params) => void received.push(params),
      cancelToolCall: record('tool_call/cancel', {}),
      cancelTerminal: record('terminal/cancel', {}),
    },
  });
  channel.unrecorded.add(SETUP_ID);
  channel.feedText(
    `${JSON.stringify({
      jsonrpc: '2.0',
      id: SETUP_ID,
      method: 'initialize',
      params: { protocolVersion: 2, info: INFO, _meta: { battery: 'setup' } },
    })}\n`,
  );
  return {
    side: 'agent',
    channel,
    get connection() {
      if (!served.negotiated) throw new Error('the v2 agent reader was not initialized');
      return served.negotiated.connection;
    },
    received,
    handled,
    close: () => served.close(),
  };
}

/** connectAgent answered 2 by the battery: our v2 client face. */
export async function v2ClientReader(): Promise<Reader> {
  const channel = new ScriptedChannel();
  const received: unknown[] = [];
  const handled: string[] = [];
  const v1 = {
    sessionUpdate: () => void handled.push('v1 session/update'),
    requestPermission: () => {
      handled.push('v1 session/request_permission');
      return { outcome: { outcome: 'cancelled' as const } };
    },
  };
  const connecting = connectAgent(
    channel,
    {
      v1,
      v2: {
        sessionUpdate: (params) => void received.push(params),
        requestPermission: () => {
          handled.push('session/request_permission');
          return { outcome: { outcome: 'cancelled' } };
        },
        createElicitation: () => {
          handled.push('elicitation/create');
          return { action: 'decline' };
        },
        completeElicitation: () => void handled.push('elicitation/complete'),
      },
    },
    { info: INFO },
  );
  await eventually(() => channel.out.length > 0, 'initialize sent');
  const request = channel.out.shift() as { id: string | number };
  channel.feedText(
    `${JSON.stringify({ jsonrpc: '2.0', id: request.id, result: { protocolVersion: 2, info: INFO } })}\n`,
  );
  const negotiated = await connecting;
  return {
    side: 'client',
    channel,
    connection: negotiated.connection,
    received,
    handled,
    close: () => negotiated.connection.close(),
  };
}
