/**
 * What a tool is: a name and input schema for the model, a `kind` for the client, and a two-step
 * life (prepare: work out title, locations, diff and the permission it needs; execute: do it).
 * The runner turns that into tool-call events, whoever called the tool (the model, the demo script
 * or an MCP server's tool).
 */
import { z } from 'zod';
import type { Location, ToolCallEvent, ToolContent, ToolKind } from '../core/events.js';
import type { PermissionNeed } from '../permissions/permissions.js';
import type { Session } from '../session/session.js';
import type { FileAccess } from './file-access.js';

/** A failure the tool explains itself; its message is shown to the user and given to the model. */
export class ToolError extends Error {
  override readonly name = 'ToolError';
}

/** What tools get while preparing. */
export interface ToolContext {
  session: Session;
  files: FileAccess;
  /** Aborted on `session/cancel`, and while executing also when this call alone is cancelled. */
  signal: AbortSignal;
}

/** A progress patch of the running tool call (content and locations replace, other fields patch). */
export type ToolProgress = Omit<ToolCallEvent, 'type' | 'toolCallId' | 'isNew'>;

/** What tools get while executing. */
export interface ExecutionContext extends ToolContext {
  toolCallId: string;
  /** Reports progress of this tool call. */
  progress(update: ToolProgress): Promise<void>;
}

/** The outcome of a tool that ran. */
export interface ToolResult {
  /** What the model reads. */
  output: string;
  /** Final content of the tool call (replaces what was shown before); omit to keep it. */
  content?: ToolContent[];
  locations?: Location[];
  rawOutput?: unknown;
  /** A better title now that the result is known. */
  title?: string;
  /** The tool ran but did not achieve what it was asked (reported as `failed`). */
  failed?: boolean;
}

/** A prepared call, ready to be announced, authorised and executed. */
export interface PreparedCall {
  title: string;
  locations?: Location[];
  /** Shown in the tool call and in the permission request (a diff, the command…). */
  content?: ToolContent[];
  /** Omitted: runs without asking in every mode. */
  permission?: PermissionNeed;
  execute(ctx: ExecutionContext): Promise<ToolResult>;
}

/** A tool the agent can run. */
export interface AgentTool<Input = unknown> {
  /** Name the model calls it by (`read_file`). */
  name: string;
  /** What the model is told about it. */
  description: string;
  kind: ToolKind;
  /** Offered in plan mode. */
  readOnly: boolean;
  /**
   * `plan`: the call is shown as the plan it produces rather than as a tool call (the plan is its
   * own display; a tool call for it would only repeat it).
   */
  display?: 'tool_call' | 'plan';
  /** JSON Schema of the input, for the model. */
  inputJsonSchema: Record<string, unknown>;
  /** Validates raw input; throws {@link ToolError} naming what is wrong. */
  parseInput(raw: unknown): Input;
  prepare(input: Input, ctx: ToolContext): Promise<PreparedCall>;
}

interface ToolSpec<S extends z.ZodType> {
  name: string;
  description: string;
  kind: ToolKind;
  readOnly: boolean;
  display?: 'tool_call' | 'plan';
  input: S;
  prepare(input: z.infer<S>, ctx: ToolContext): Promise<PreparedCall>;
}

/**
 * Defines a built-in tool from a zod schema.
 *
 * @example
 * const echo = defineTool({ name: 'echo', description: 'Echo', kind: 'other', readOnly: true,
 *   input: z.object({ text: z.string() }),
 *   prepare: async ({ text }) => ({ title: 'Echo', execute: async () => ({ output: text }) }) });
 */
export function defineTool<S extends z.ZodType>(spec: ToolSpec<S>): AgentTool<z.infer<S>> {
  const jsonSchema = z.toJSONSchema(spec.input, { io: 'input' }) as Record<string, unknown>;
  delete jsonSchema.$schema;
  return {
    name: spec.name,
    description: spec.description,
    kind: spec.kind,
    readOnly: spec.readOnly,
    display: spec.display,
    inputJsonSchema: jsonSchema,
    parseInput(raw) {
      const parsed = spec.input.safeParse(raw ?? {});
      if (parsed.success) return parsed.data;
      const issues = parsed.error.issues
        .slice(0, 3)
        .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : 'input'}: ${issue.message}`);
      throw new ToolError(`Invalid input for ${spec.name}: ${issues.join('; ')}`);
    },
    prepare: spec.prepare,
  };
}
