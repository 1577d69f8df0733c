/**
 * One model request: streams text to `agent_message_chunk` and reasoning to
 * `agent_thought_chunk`, collects the tool calls, and returns what the assistant said as a
 * message for the conversation. Tools have no `execute`: the engine runs them through the runner.
 */
import {
  jsonSchema,
  streamText,
  tool,
  type AssistantModelMessage,
  type FinishReason,
  type JSONSchema7,
  type LanguageModel,
  type LanguageModelUsage,
  type ModelMessage,
  type ToolSet,
} from 'ai';
import type { Turn } from '../session/turn.js';
import type { AgentTool } from '../tools/types.js';
import { isAbortError } from '../util/abort.js';

type AssistantPart = Exclude<AssistantModelMessage['content'], string>[number];
type ProviderOptions = NonNullable<AssistantModelMessage['providerOptions']>;

export interface ModelToolCall {
  toolCallId: string;
  toolName: string;
  input: unknown;
}

export interface StepOutcome {
  /** What the assistant said (text, reasoning, tool calls), if anything. */
  assistant: AssistantModelMessage | undefined;
  toolCalls: ModelToolCall[];
  /** `aborted` when the turn was cancelled mid-stream. */
  finishReason: FinishReason | 'aborted';
  usage: LanguageModelUsage | undefined;
}

/** A failed request, with what had already streamed (a retry is only safe when nothing had). */
export class StepError extends Error {
  override readonly name = 'StepError';
  constructor(
    override readonly cause: unknown,
    readonly partial: StepOutcome,
    readonly streamed: boolean,
  ) {
    super(cause instanceof Error ? cause.message : 'model request failed');
  }
}

/** Tool names providers accept: letters, digits, `_` and `-`, at most 64. */
export function modelToolName(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64);
}

/** The AI SDK tool set for `tools` (schemas and descriptions only). */
export function toolSet(tools: readonly AgentTool[]): ToolSet {
  const set: ToolSet = {};
  for (const agentTool of tools) {
    set[modelToolName(agentTool.name)] = tool({
      description: agentTool.description,
      inputSchema: jsonSchema(agentTool.inputJsonSchema as JSONSchema7),
    });
  }
  return set;
}

export interface StepRequest {
  model: LanguageModel;
  system: string;
  messages: ModelMessage[];
  tools: ToolSet;
  maxOutputTokens?: number;
  turn: Turn;
}

/** Builds the assistant message as parts arrive, merging consecutive deltas. */
class AssistantBuilder {
  readonly parts: AssistantPart[] = [];

  append(type: 'text' | 'reasoning', delta: string): void {
    const last = this.parts[this.parts.length - 1];
    if (last && last.type === type) last.text += delta;
    else this.parts.push({ type, text: delta });
  }

  /**
   * Provider data a reasoning block must carry back (Anthropic's thinking signature, which arrives
   * on a delta). Merged per provider, later values winning.
   */
  annotateReasoning(metadata: ProviderOptions | undefined): void {
    const last = this.parts[this.parts.length - 1];
    if (!metadata || last?.type !== 'reasoning') return;
    const merged: ProviderOptions = { ...last.providerOptions };
    for (const [provider, values] of Object.entries(metadata))
      merged[provider] = { ...merged[provider], ...values };
    last.providerOptions = merged;
  }

  message(): AssistantModelMessage | undefined {
    const parts = this.parts.filter((part) => part.type !== 'text' || part.text !== '');
    return parts.length > 0 ? { role: 'assistant', content: parts } : undefined;
  }
}

/**
 * Streams one step. Throws {@link StepError} when the request fails; returns `aborted` when the
 * turn's signal fires.
 */
export async function runStep(request: StepRequest): Promise<StepOutcome> {
  const { turn } = request;
  const builder = new AssistantBuilder();
  const toolCalls: ModelToolCall[] = [];
  let finishReason: StepOutcome['finishReason'] = 'other';
  let usage: LanguageModelUsage | undefined;
  let streamed = false;
  const outcome = (): StepOutcome => ({ assistant: builder.message(), toolCalls, finishReason, usage });

  try {
    const result = streamText({
      model: request.model,
      system: request.system,
      messages: request.messages,
      tools: request.tools,
      maxRetries: 0,
      maxOutputTokens: request.maxOutputTokens,
      abortSignal: turn.signal,
      // Errors arrive as stream parts and are handled there; the default handler would print them.
      onError: () => {},
    });
    for await (const part of result.fullStream) {
      switch (part.type) {
        case 'text-delta':
          streamed = true;
          builder.append('text', part.text);
          await turn.message.write(part.text);
          break;
        case 'reasoning-delta':
          streamed = true;
          builder.append('reasoning', part.text);
          builder.annotateReasoning(part.providerMetadata);
          await turn.thought.write(part.text);
          break;
        case 'reasoning-start':
          builder.append('reasoning', '');
          builder.annotateReasoning(part.providerMetadata);
          break;
        case 'reasoning-end':
          builder.annotateReasoning(part.providerMetadata);
          break;
        case 'tool-call':
        case 'tool-error':
          streamed = true;
          toolCalls.push({ toolCallId: part.toolCallId, toolName: part.toolName, input: part.input });
          builder.parts.push({
            type: 'tool-call',
            toolCallId: part.toolCallId,
            toolName: part.toolName,
            input: part.input,
          });
          break;
        case 'finish-step':
          finishReason = part.finishReason;
          usage = part.usage;
          break;
        case 'abort':
          return { ...outcome(), finishReason: 'aborted' };
        case 'error':
          throw part.error;
        default:
          break;
      }
    }
  } catch (error) {
    if (turn.signal.aborted || isAbortError(error)) return { ...outcome(), finishReason: 'aborted' };
    throw new StepError(error, outcome(), streamed);
  }
  if (turn.signal.aborted) return { ...outcome(), finishReason: 'aborted' };
  return outcome();
}
