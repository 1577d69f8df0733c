/**
 * The `rules` proxy of a chain: answers `session/request_permission` by the user's saved rules
 * (`acp rules`) when a rule decides it (allow or deny), so the question never reaches the client;
 * everything else, and every question no rule decides (or an `ask` rule matches), goes on as it came.
 * Defaults of acp's own permission modes do not apply here: the client keeps deciding those.
 */
import type { ByteChannel, Logger, ToolCallUpdate } from '@acp-kit/protocol';
import { runProxy, type Interceptor, type RunningProxy } from '@acp-kit/protocol/unstable';
import { outcomeFor } from '../permissions/options.js';
import { PermissionPolicy } from '../permissions/policy.js';
import { RuleStore } from '../permissions/rule-store.js';
import { subjectFromToolCall } from '../permissions/subject.js';

export interface RulesProxyOptions {
  /** The rules file (acp's `rules.json`). */
  rulesFile: string;
  /** The agent's catalog id, for rules limited to one agent (default: the agent's `agentInfo.name`). */
  agentId?: string;
  /** Told each question a rule answered (kind, decision, rule id; never its contents). */
  logger?: Logger;
}

interface SessionContext {
  cwd: string;
  roots: string[];
  /** Tool calls announced by updates, merged under a question that names only the id. */
  toolCalls: Map<string, Partial<ToolCallUpdate>>;
}

const SESSION_OPENERS = new Set(['session/new', 'session/load', 'session/resume', 'session/fork']);
/** Tool calls remembered per session (the oldest are dropped past this). */
const MAX_TOOL_CALLS = 1000;

/**
 * Serves the rules proxy on `channel`. The rules file is read again at each question, so rules
 * added meanwhile apply at once.
 */
export async function startRulesProxy(
  channel: ByteChannel,
  options: RulesProxyOptions,
): Promise<RunningProxy> {
  const store = await RuleStore.load(options.rulesFile);
  const policy = new PermissionPolicy({ mode: 'ask', savedRules: () => store.rules });
  const sessions = new Map<string, SessionContext>();
  let agentId = options.agentId;

  const fromClient: Interceptor = async (message, forward) => {
    const answer = await forward();
    const params = (message.params ?? {}) as {
      cwd?: unknown;
      additionalDirectories?: unknown;
      sessionId?: unknown;
    };
    if (message.method === 'initialize')
      agentId ??= (answer as { agentInfo?: { name?: string } }).agentInfo?.name;
    if (SESSION_OPENERS.has(message.method) && typeof params.cwd === 'string') {
      const sessionId = (answer as { sessionId?: unknown } | null)?.sessionId ?? params.sessionId;
      const extra = Array.isArray(params.additionalDirectories)
        ? params.additionalDirectories.filter((dir): dir is string => typeof dir === 'string')
        : [];
      if (typeof sessionId === 'string')
        sessions.set(sessionId, { cwd: params.cwd, roots: [params.cwd, ...extra], toolCalls: new Map() });
    }
    return answer;
  };

  const fromAgent: Interceptor = async (message, forward) => {
    const params = (message.params ?? {}) as {
      sessionId?: string;
      update?: ToolCallUpdate & { sessionUpdate?: string };
      toolCall?: ToolCallUpdate;
      options?: Parameters<typeof outcomeFor>[0];
    };
    const session = params.sessionId === undefined ? undefined : sessions.get(params.sessionId);
    if (message.method === 'session/update' && session && params.update?.toolCallId) {
      const { sessionUpdate, ...fields } = params.update;
      if (sessionUpdate === 'tool_call' || sessionUpdate === 'tool_call_update') remember(session, fields);
    }
    if (message.method !== 'session/request_permission' || !session || !params.toolCall || !params.options)
      return forward();
    await store.reload().catch(() => undefined);
    const subject = subjectFromToolCall(params.toolCall, session.toolCalls.get(params.toolCall.toolCallId), {
      agentId: agentId ?? '',
      cwd: session.cwd,
      roots: session.roots,
    });
    const decision = policy.evaluate(subject);
    if (decision.by !== 'rule' || decision.action === 'ask') return forward();
    const answer = outcomeFor(params.options, decision.action);
    // A rule allows but the agent offered no way to allow: the client decides.
    if (decision.action === 'allow' && !answer.allowed) return forward();
    options.logger?.log('info', 'permission answered by a saved rule', {
      kind: subject.kind,
      decision: decision.action,
      rule: decision.ruleId,
    });
    return { outcome: answer.outcome };
  };

  return runProxy(channel, { fromClient, fromAgent });
}

function remember(session: SessionContext, fields: Partial<ToolCallUpdate>): void {
  const id = fields.toolCallId;
  if (id === undefined) return;
  const known = session.toolCalls.get(id);
  session.toolCalls.delete(id);
  session.toolCalls.set(id, { ...known, ...fields });
  if (session.toolCalls.size > MAX_TOOL_CALLS)
    session.toolCalls.delete(session.toolCalls.keys().next().value as string);
}
