/**
 * An in-process agent for remote transport tests, behind a channel pair: prompts are commands.
 *
 * - `count N`: N `agent_message_chunk` updates `u-1`…`u-N` (each awaited), then `end_turn`; before
 *   update `i` it awaits `gate(i)` when the test set one (to cut a connection mid-turn).
 * - `permission`: asks `session/request_permission` and answers with the chosen option id.
 * - `read PATH` / `write PATH TEXT`: `fs/read_text_file` / `fs/write_text_file` through the client.
 * - `terminal CMD ARGS…`: runs a command through the client's terminal, waits for it, returns its output.
 * - `big N`: one update of N characters; `flood N SIZE`: N updates `f-i` of SIZE characters.
 * - `hang`: waits until cancelled.
 */
import { AgentSideConnection, createChannelPair, type ByteChannel } from '@acp-kit/protocol';
import type { RemoteAgent } from '../server-connection.js';

export interface ScriptedAgentControl {
  /** Set by a test: awaited before update `i` of a `count` turn. */
  gate: ((i: number) => Promise<void> | undefined) | undefined;
  readonly cancelled: string[];
  /** The text of each prompt received, in order. */
  readonly prompts: string[];
  /** Resolves when the agent's side of the channel ended (the connection closed it). */
  readonly stopped: Promise<void>;
  stops: number;
}

export function scriptedAgent(control: Partial<ScriptedAgentControl> = {}): {
  agent: RemoteAgent;
  control: ScriptedAgentControl;
} {
  const [ours, theirs] = createChannelPair({ highWaterMark: 16 * 1024 });
  let markStopped!: () => void;
  const state: ScriptedAgentControl = {
    gate: control.gate,
    cancelled: [],
    prompts: [],
    stopped: new Promise((resolve) => (markStopped = resolve)),
    stops: 0,
  };
  const cancels = new Map<string, () => void>();
  let sessions = 0;
  const connection = new AgentSideConnection(theirs as ByteChannel, (conn) => ({
    initialize: () => ({ protocolVersion: 1, agentCapabilities: { loadSession: false }, authMethods: [] }),
    newSession: () => ({ sessionId: `s-${++sessions}` }),
    cancelSession: ({ sessionId }) => {
      state.cancelled.push(sessionId);
      cancels.get(sessionId)?.();
    },
    promptSession: async ({ sessionId, prompt }) => {
      const first = prompt[0];
      const text = first && first.type === 'text' ? String((first as { text: unknown }).text) : '';
      state.prompts.push(text);
      const [command, ...args] = text.split(' ');
      const say = (chunk: string) =>
        conn.sessionUpdate({
          sessionId,
          update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: chunk } },
        });
      if (command === 'count') {
        const n = Number(args[0]);
        for (let i = 1; i <= n; i++) {
          await state.gate?.(i);
          await say(`u-${i}`);
        }
        return { stopReason: 'end_turn' };
      }
      if (command === 'flood') {
        const [n, size] = [Number(args[0]), Number(args[1])];
        for (let i = 1; i <= n; i++) await say(`f-${i} ${'x'.repeat(size)}`);
        return { stopReason: 'end_turn' };
      }
      if (command === 'big') {
        await say('x'.repeat(Number(args[0])));
        return { stopReason: 'end_turn' };
      }
      if (command === 'permission') {
        const answer = await conn.requestPermission({
          sessionId,
          toolCall: { toolCallId: 't1', title: 'touch a file' },
          options: [
            { optionId: 'yes', name: 'Allow', kind: 'allow_once' },
            { optionId: 'no', name: 'Reject', kind: 'reject_once' },
          ],
        });
        await say(answer.outcome.outcome === 'selected' ? `chose ${answer.outcome.optionId}` : 'cancelled');
        return { stopReason: 'end_turn' };
      }
      if (command === 'read') {
        const { content } = await conn.readTextFile({ sessionId, path: args[0] as string });
        await say(`read: ${content}`);
        return { stopReason: 'end_turn' };
      }
      if (command === 'write') {
        await conn.writeTextFile({ sessionId, path: args[0] as string, content: args.slice(1).join(' ') });
        await say('written');
        return { stopReason: 'end_turn' };
      }
      if (command === 'terminal') {
        const terminal = await conn.createTerminal({
          sessionId,
          command: args[0] as string,
          args: args.slice(1),
        });
        await terminal.waitForExit();
        const { output } = await terminal.output();
        await terminal.release();
        await say(`output: ${output.trim()}`);
        return { stopReason: 'end_turn' };
      }
      if (command === 'hang') {
        await new Promise<void>((resolve) => cancels.set(sessionId, resolve));
        return { stopReason: 'cancelled' };
      }
      await say(`echo: ${text}`);
      return { stopReason: 'end_turn' };
    },
  }));
  connection.start();
  void connection.closed.then(() => markStopped());
  return {
    agent: {
      channel: ours,
      stop: () => {
        state.stops++;
      },
    },
    control: state,
  };
}
