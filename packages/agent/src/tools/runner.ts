/**
 * Runs tool calls with full ACP reporting: `tool_call` (pending, with title, kind, locations,
 * rawInput and any diff) → permission → `in_progress` → progress updates → `completed` or
 * `failed` with content and rawOutput. Every call ends in a final state, also when it is
 * rejected, refused by the mode, fails, or is cancelled.
 */
import { randomUUID } from 'node:crypto';
import type { ToolCallContent, ToolCallUpdate } from '@acp-kit/protocol';
import { authorize, type PermissionResult } from '../permissions/permissions.js';
import type { Session } from '../session/session.js';
import { isAbortError } from '../util/abort.js';
import { FileAccess } from './file-access.js';
import { ToolError, type AgentTool, type PreparedCall, type ToolResult } from './types.js';

/** How a tool call ended, for the caller (the model gets `output`). */
export interface ToolRunResult {
  toolCallId: string;
  status: 'completed' | 'failed' | 'rejected' | 'cancelled';
  output: string;
}

function text(value: string): ToolCallContent {
  return { type: 'content', content: { type: 'text', text: value } };
}

/** Least time between two stored progress updates of one tool call. */
const PROGRESS_STORE_INTERVAL_MS = 1_000;

/** What a cancelled tool call reports, to the client and the model. */
export const CANCELLED_OUTPUT = 'Cancelled by the user.';

/**
 * @example
 * const runner = new ToolRunner(session, tools);
 * const result = await runner.run('read_file', { path: 'README.md' }, signal);
 */
export class ToolRunner {
  readonly files: FileAccess;
  private readonly tools: Map<string, AgentTool>;

  constructor(
    readonly session: Session,
    tools: Iterable<AgentTool>,
  ) {
    this.files = new FileAccess(session);
    this.tools = new Map([...tools].map((tool) => [tool.name, tool]));
  }

  has(name: string): boolean {
    return this.tools.has(name);
  }

  /** The tools this runner can run. */
  list(): AgentTool[] {
    return [...this.tools.values()];
  }

  /** Runs `name` with `rawInput`; never throws for tool failures, only reports them. */
  async run(name: string, rawInput: unknown, signal: AbortSignal): Promise<ToolRunResult> {
    const toolCallId = `call_${randomUUID()}`;
    const tool = this.tools.get(name);
    const ctx = { session: this.session, files: this.files, signal };
    if (!tool) {
      const message = `There is no tool named ${name}.`;
      await this.announceFailure(toolCallId, name, 'other', rawInput, message);
      return { toolCallId, status: 'failed', output: message };
    }
    let prepared: PreparedCall;
    try {
      prepared = await tool.prepare(tool.parseInput(rawInput), ctx);
    } catch (error) {
      if (signal.aborted) return { toolCallId, status: 'cancelled', output: CANCELLED_OUTPUT };
      const message = describeError(error);
      await this.announceFailure(toolCallId, tool.name, tool.kind, rawInput, message);
      return { toolCallId, status: 'failed', output: message };
    }

    const shown = tool.display !== 'plan';
    const base: ToolCallUpdate = {
      toolCallId,
      title: prepared.title,
      kind: tool.kind,
      locations: prepared.locations ?? [],
      content: prepared.content ?? [],
      rawInput,
    };
    if (shown) {
      await this.session.emit({
        sessionUpdate: 'tool_call',
        toolCallId,
        title: prepared.title,
        kind: tool.kind,
        status: 'pending',
        locations: base.locations ?? [],
        content: base.content ?? [],
        rawInput,
      });
    }

    const decision: PermissionResult = prepared.permission
      ? await authorize(this.session, base, prepared.permission, signal)
      : { outcome: 'allowed', source: 'mode' };
    if (decision.outcome === 'cancelled' || signal.aborted) {
      await this.finish(shown, toolCallId, 'failed', [...(prepared.content ?? []), text(CANCELLED_OUTPUT)], {
        cancelled: true,
      });
      return { toolCallId, status: 'cancelled', output: CANCELLED_OUTPUT };
    }
    if (decision.outcome === 'rejected') {
      await this.finish(shown, toolCallId, 'failed', [...(prepared.content ?? []), text(decision.reason)], {
        rejected: true,
        by: decision.source,
        reason: decision.reason,
      });
      return { toolCallId, status: 'rejected', output: `Not run: ${decision.reason}` };
    }

    if (shown)
      await this.session.emit({ sessionUpdate: 'tool_call_update', toolCallId, status: 'in_progress' });
    // What the client shows now: a cancelled call keeps it (a terminal stays visible) plus a note.
    let shownContent: ToolCallContent[] = prepared.content ?? [];
    let lastStored = 0;
    const progress = async (update: Omit<ToolCallUpdate, 'toolCallId'>): Promise<void> => {
      if (update.content) shownContent = update.content;
      if (!shown) return;
      // Streamed output is stored at most once per interval (the final update always is): enough
      // for a killed agent to replay recent output, without writing every snapshot to disk.
      const now = Date.now();
      const persist = now - lastStored >= PROGRESS_STORE_INTERVAL_MS;
      if (persist) lastStored = now;
      await this.session.emit({ sessionUpdate: 'tool_call_update', toolCallId, ...update }, { persist });
    };
    let result: ToolResult;
    try {
      result = await prepared.execute({ ...ctx, toolCallId, progress });
    } catch (error) {
      if (signal.aborted || isAbortError(error)) {
        await this.finish(shown, toolCallId, 'failed', [...shownContent, text(CANCELLED_OUTPUT)], {
          cancelled: true,
        });
        return { toolCallId, status: 'cancelled', output: CANCELLED_OUTPUT };
      }
      const message = describeError(error);
      if (!(error instanceof ToolError)) {
        this.session.logger.log('warn', 'tool failed unexpectedly', { tool: tool.name, error });
      }
      await this.finish(shown, toolCallId, 'failed', [text(message)], { error: message });
      return { toolCallId, status: 'failed', output: message };
    }
    const status = result.failed ? 'failed' : 'completed';
    if (shown) {
      const final: ToolCallUpdate = {
        toolCallId,
        status,
        rawOutput: result.rawOutput ?? { output: result.output },
      };
      if (result.content) final.content = result.content;
      if (result.locations) final.locations = result.locations;
      if (result.title) final.title = result.title;
      if (result.meta) final._meta = result.meta;
      await this.session.emit({ sessionUpdate: 'tool_call_update', ...final });
    }
    // A cancel that landed while the tool was finishing still ends the turn as cancelled.
    return { toolCallId, status, output: result.output };
  }

  private async announceFailure(
    toolCallId: string,
    name: string,
    kind: ToolCallUpdate['kind'],
    rawInput: unknown,
    message: string,
  ): Promise<void> {
    await this.session.emit({
      sessionUpdate: 'tool_call',
      toolCallId,
      title: name,
      kind: kind ?? 'other',
      status: 'failed',
      content: [text(message)],
      rawInput,
      rawOutput: { error: message },
    });
  }

  private async finish(
    shown: boolean,
    toolCallId: string,
    status: 'failed' | 'completed',
    content: ToolCallContent[],
    rawOutput: unknown,
  ): Promise<void> {
    if (!shown) return;
    await this.session.emit({ sessionUpdate: 'tool_call_update', toolCallId, status, content, rawOutput });
  }
}

function describeError(error: unknown): string {
  if (error instanceof ToolError) return error.message;
  if (error instanceof Error) return `The tool failed: ${error.message}`;
  return 'The tool failed.';
}
