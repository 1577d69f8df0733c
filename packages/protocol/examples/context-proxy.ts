/**
 * A small ACP proxy (proxy chains, unstable ACP): adds a line of context to every prompt on its
 * way to the agent, and tells the client how many tool calls each turn made when it ends.
 *
 * Run it in a chain, in front of any agent:
 *   acp chain -- npx tsx packages/protocol/examples/context-proxy.ts -- acp agent --demo
 */
import { stdioChannel } from '@acp-kit/protocol/node';
import { runProxy } from '@acp-kit/protocol/unstable';

const CONTEXT = process.env.CONTEXT_PROXY_TEXT ?? 'Answer briefly; this project uses TypeScript.';
const toolCalls = new Map<string, number>();

interface PromptParams {
  sessionId: string;
  prompt: unknown[];
}

const proxy = runProxy(stdioChannel(), {
  // Client → agent: change prompts, pass everything else on untouched.
  fromClient: async (message, forward) => {
    if (message.method !== 'session/prompt') return forward();
    const params = message.params as PromptParams;
    toolCalls.set(params.sessionId, 0);
    const answer = await forward({
      method: message.method,
      params: { ...params, prompt: [{ type: 'text', text: CONTEXT }, ...params.prompt] },
    });
    // The turn is over: one more update for the client before it sees the answer.
    await proxy.toClient.notify('session/update', {
      sessionId: params.sessionId,
      update: {
        sessionUpdate: 'agent_message_chunk',
        content: { type: 'text', text: `\n(${toolCalls.get(params.sessionId) ?? 0} tool calls)` },
      },
    });
    return answer;
  },
  // Agent → client: watch the updates, forward them all.
  fromAgent: (message, forward) => {
    const params = message.params as { sessionId?: string; update?: { sessionUpdate?: string } };
    if (
      message.method === 'session/update' &&
      params.update?.sessionUpdate === 'tool_call' &&
      params.sessionId
    )
      toolCalls.set(params.sessionId, (toolCalls.get(params.sessionId) ?? 0) + 1);
    return forward();
  },
});
await proxy.closed;
