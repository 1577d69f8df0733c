/**
 * Runs tool calls with full reporting: announced (pending, with title, kind, locations, rawInput
 * and any diff) → permission → `in_progress` → progress → `completed` or `failed` with content and
 * rawOutput. Every call ends in a final state, also when it is rejected, refused by the mode,
 * fails, or is cancelled — with the turn, or alone (`tool_call/cancel`: the call advertises that
 * it can be cancelled until it ends; then only the call stops and the turn goes on).
 */
import { randomUUID } from 'node:crypto';
import type { ToolCallEvent, ToolCallStatus, ToolContent } from '../core/events.js';
import { authorize, type PermissionResult } from '../permissions/permissions.js';
import type { Session } from '../session/session.js';
import { isAbortError } from '../util/abort.js';
import { FileAccess } from './file-access.js';
import { ToolError, type AgentTool, type PreparedCall, type ToolProgress, type ToolResult } from './types.js';

/**
 * How a tool call ended, for the caller (the model gets `output`). `cancelled`: the turn was
 * cancelled; `stopped`: the user cancelled this call alone, and the turn goes on.
 */
export interface ToolRunResult {
  toolCallId: string;
  status: 'completed' | 'failed' | 'rejected' | 'cancelled' | 'stopped';
  output: string;
}

function text(value: string): ToolContent {
  return { type: 'content', content: { type: 'text', text: value } };
}

/** Least time between two stored progress updates of one tool call. */
const PROGRESS_STORE_INTERVAL_MS = 1_000;

/** What a cancelled tool call reports, to the client and the model. */
export const CANCELLED_OUTPUT = 'Cancelled by the user.';
/** What the model is told about a call the user cancelled alone. */
export const STOPPED_OUTPUT = 'Cancelled by the user (this tool call only; the turn goes on).';

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
    // The call's own signal: aborted with the turn, or alone by `tool_call/cancel`.
    const call = new AbortController();
    const onTurnAbort = (): void => call.abort();
    if (signal.aborted) call.abort();
    else signal.addEventListener('abort', onTurnAbort, { once: true });
    try {
      return await this.runCall(toolCallId, name, rawInput, signal, call);
    } finally {
      signal.removeEventListener('abort', onTurnAbort);
      this.session.endCancellable(toolCallId);
    }
  }

  private async runCall(
    toolCallId: string,
    name: string,
    rawInput: unknown,
    turn: AbortSignal,
    call: AbortController,
  ): Promise<ToolRunResult> {
    const tool = this.tools.get(name);
    const signal = call.signal;
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
      if (turn.aborted) return { toolCallId, status: 'cancelled', output: CANCELLED_OUTPUT };
      const message = describeError(error);
      await this.announceFailure(toolCallId, tool.name, tool.kind, rawInput, message);
      return { toolCallId, status: 'failed', output: message };
    }

    const shown = tool.display !== 'plan';
    const base = {
      toolCallId,
      title: prepared.title,
      kind: tool.kind,
      locations: prepared.locations ?? [],
      content: prepared.content ?? [],
      rawInput,
    };
    // What the client shows now: a cancelled call keeps it (a terminal stays visible) plus a note.
    let shownContent: ToolContent[] = prepared.content ?? [];
    const cancelled = async (): Promise<ToolRunResult> => {
      await this.finish(shown, toolCallId, 'cancelled', [...shownContent, text(CANCELLED_OUTPUT)], {
        cancelled: true,
      });
      // Only `tool_call/cancel` stops a call alone; a permission question the user cancelled ends
      // the turn, as a v1 client means it to.
      return signal.aborted && !turn.aborted
        ? { toolCallId, status: 'stopped', output: STOPPED_OUTPUT }
        : { toolCallId, status: 'cancelled', output: CANCELLED_OUTPUT };
    };
    if (shown) {
      this.session.beginCancellable(toolCallId, call);
      await this.emit({
        type: 'tool_call',
        isNew: true,
        name: tool.name,
        status: 'pending',
        cancellable: true,
        ...base,
      });
    }

    const decision: PermissionResult = prepared.permission
      ? await authorize(this.session, base, prepared.permission, signal)
      : { outcome: 'allowed', source: 'mode' };
    if (decision.outcome === 'cancelled' || signal.aborted) return cancelled();
    if (decision.outcome === 'rejected') {
      await this.finish(shown, toolCallId, 'failed', [...shownContent, text(decision.reason)], {
        rejected: true,
        by: decision.source,
        reason: decision.reason,
      });
      return { toolCallId, status: 'rejected', output: `Not run: ${decision.reason}` };
    }

    if (shown) await this.emit({ type: 'tool_call', toolCallId, status: 'in_progress' });
    let lastStored = 0;
    const progress = async (update: ToolProgress): Promise<void> => {
      if (update.content) shownContent = update.content;
      if (!shown) return;
      // Streamed progress is stored at most once per interval (the final update always is): enough
      // for a killed agent to replay recent progress, without writing every snapshot to disk.
      const now = Date.now();
      const persist = now - lastStored >= PROGRESS_STORE_INTERVAL_MS;
      if (persist) lastStored = now;
      await this.session.emit({ type: 'tool_call', toolCallId, ...update }, { persist });
    };
    let result: ToolResult;
    try {
      result = await prepared.execute({ ...ctx, toolCallId, progress });
    } catch (error) {
      if (signal.aborted || isAbortError(error)) return cancelled();
      const message = describeError(error);
      if (!(error instanceof ToolError)) {
        this.session.logger.log('warn', 'tool failed unexpectedly', { tool: tool.name, error });
      }
      await this.finish(shown, toolCallId, 'failed', [text(message)], { error: message });
      return { toolCallId, status: 'failed', output: message };
    }
    const status = result.failed ? 'failed' : 'completed';
    if (shown) {
      const final: ToolCallEvent = {
        type: 'tool_call',
        toolCallId,
        status,
        rawOutput: result.rawOutput ?? { output: result.output },
        cancellable: false,
      };
      if (result.content) final.content = result.content;
      if (result.locations) final.locations = result.locations;
      if (result.title) final.title = result.title;
      await this.emit(final);
    }
    // A cancel that landed while the tool was finishing still ends the turn as cancelled.
    return { toolCallId, status, output: result.output };
  }

  private async emit(event: ToolCallEvent): Promise<void> {
    await this.session.emit(event);
  }

  private async announceFailure(
    toolCallId: string,
    name: string,
    kind: AgentTool['kind'],
    rawInput: unknown,
    message: string,
  ): Promise<void> {
    await this.emit({
      type: 'tool_call',
      isNew: true,
      toolCallId,
      name,
      title: name,
      kind,
      status: 'failed',
      content: [text(message)],
      rawInput,
      rawOutput: { error: message },
    });
  }

  private async finish(
    shown: boolean,
    toolCallId: string,
    status: ToolCallStatus,
    content: ToolContent[],
    rawOutput: unknown,
  ): Promise<void> {
    if (!shown) return;
    await this.emit({ type: 'tool_call', toolCallId, status, content, rawOutput, cancellable: false });
  }
}

function describeError(error: unknown): string {
  if (error instanceof ToolError) return error.message;
  if (error instanceof Error) return `The tool failed: ${error.message}`;
  return 'The tool failed.';
}
