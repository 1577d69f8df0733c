/**
 * The v2 face, permission questions: a v2 `session/request_permission` (a title, an optional
 * description, and a subject: a tool call upsert or a command) as the question the session's
 * permission broker answers. The tool call subject is an upsert the store applies first, so the
 * broker finds the call with everything said about it so far; the answer has the same shape in
 * both versions.
 */
import type {
  RequestPermissionRequest as V1Question,
  ToolCallUpdate as V1ToolCall,
  ToolKind,
} from '@acp-kit/protocol';
import { isUnknownVariant } from '@acp-kit/protocol';
import type { RequestPermissionRequest, SessionUpdate } from '@acp-kit/protocol/v2';

/** The question as the broker takes it, and the tool call upsert to apply before asking. */
export interface V2Question {
  question: V1Question;
  upsert?: SessionUpdate;
}

/** Translates a v2 permission request; `nextId` names a call for a command asked about alone. */
export function fromV2Permission(params: RequestPermissionRequest, nextId: () => string): V2Question {
  const subject = params.subject;
  const base = { sessionId: params.sessionId, options: params.options };
  if (subject && !isUnknownVariant(subject) && subject.type === 'tool_call') {
    const call = subject.toolCall;
    const toolCall: V1ToolCall = {
      toolCallId: call.toolCallId,
      title: call.title ?? params.title,
      ...(call.kind ? { kind: call.kind as ToolKind } : {}),
      ...(call.rawInput !== undefined ? { rawInput: call.rawInput } : {}),
      ...(call.locations ? { locations: call.locations } : {}),
    };
    return {
      question: { ...base, toolCall },
      upsert: { sessionUpdate: 'tool_call_update', ...call } as SessionUpdate,
    };
  }
  if (subject && !isUnknownVariant(subject) && subject.type === 'command') {
    // A command the agent is about to run: asked as an execute call, so rules about commands apply.
    const toolCall: V1ToolCall = {
      toolCallId: subject.toolCallId ?? nextId(),
      title: params.title,
      kind: 'execute',
      rawInput: { command: subject.command, cwd: subject.cwd },
    };
    return { question: { ...base, toolCall } };
  }
  return { question: { ...base, toolCall: { toolCallId: nextId(), title: params.title } } };
}
