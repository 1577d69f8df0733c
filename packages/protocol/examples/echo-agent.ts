/**
 * A small ACP agent: answers each prompt by streaming a plan, a thought and an echo of the prompt,
 * and asks permission before "writing" (through the client's fs, when the client offers it).
 *
 * Run it under any ACP client:  npx tsx packages/protocol/examples/echo-agent.ts
 */
import {
  AgentSideConnection,
  PROTOCOL_VERSION,
  ProtocolError,
  isUnknownVariant,
  type ContentBlock,
} from '@acp-kit/protocol';
import { stdioChannel } from '@acp-kit/protocol/node';

const sessions = new Map<string, { cwd: string; cancel?: AbortController }>();

function describe(block: ContentBlock): string {
  // A content type from a newer protocol version: keep going, name it.
  if (isUnknownVariant(block)) return `[${block.type}]`;
  switch (block.type) {
    case 'text':
      return block.text;
    case 'resource_link':
      return `[link ${block.name}]`;
    default:
      return `[${block.type}]`;
  }
}

const connection = new AgentSideConnection(stdioChannel(), (conn) => ({
  initialize: () => ({
    protocolVersion: PROTOCOL_VERSION,
    agentCapabilities: { promptCapabilities: { embeddedContext: true } },
    agentInfo: { name: 'acp-kit-echo-example', version: '0.1.0' },
  }),
  newSession: ({ cwd }) => {
    const sessionId = `echo-${sessions.size + 1}`;
    sessions.set(sessionId, { cwd });
    return { sessionId };
  },
  promptSession: async ({ sessionId, prompt }) => {
    const session = sessions.get(sessionId);
    if (!session) throw ProtocolError.resourceNotFound(`Unknown session ${sessionId}`, { sessionId });
    const cancel = new AbortController();
    session.cancel = cancel;
    const say = (text: string) =>
      conn.sessionUpdate({
        sessionId,
        update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } },
      });

    await conn.sessionUpdate({
      sessionId,
      update: {
        sessionUpdate: 'plan',
        entries: [
          { content: 'Read the prompt', priority: 'high', status: 'completed' },
          { content: 'Echo it back', priority: 'medium', status: 'in_progress' },
        ],
      },
    });
    await conn.sessionUpdate({
      sessionId,
      update: {
        sessionUpdate: 'agent_thought_chunk',
        content: { type: 'text', text: 'Echoing, no model here.' },
      },
    });
    for (const word of prompt.map(describe).join(' ').split(/(\s+)/)) {
      if (cancel.signal.aborted) return { stopReason: 'cancelled' };
      await say(word);
    }
    if (conn.clientCapabilities?.fs?.writeTextFile) {
      const path = `${session.cwd}/echo.txt`;
      const toolCallId = 'write-echo';
      await conn.sessionUpdate({
        sessionId,
        update: {
          sessionUpdate: 'tool_call',
          toolCallId,
          title: 'Write echo.txt',
          kind: 'edit',
          locations: [{ path }],
        },
      });
      const { outcome } = await conn.requestPermission({
        sessionId,
        toolCall: { toolCallId },
        options: [
          { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
          { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
        ],
      });
      const allowed = outcome.outcome === 'selected' && outcome.optionId === 'allow';
      if (allowed) await conn.writeTextFile({ sessionId, path, content: prompt.map(describe).join(' ') });
      await conn.sessionUpdate({
        sessionId,
        update: { sessionUpdate: 'tool_call_update', toolCallId, status: allowed ? 'completed' : 'failed' },
      });
    }
    return { stopReason: cancel.signal.aborted ? 'cancelled' : 'end_turn' };
  },
  cancelSession: ({ sessionId }) => sessions.get(sessionId)?.cancel?.abort(),
}));
connection.start();
