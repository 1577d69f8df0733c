/**
 * The leaf data of the model: content blocks, tool call content and locations, plan entries,
 * commands, config options, costs. ACP v1 and v2 share these shapes (v2 adds fields a newer peer
 * may send, which are kept as received), so the model adopts them as they are; the protocol
 * package's unknown-variant wrappers stay readable through `isUnknownVariant`. Tool call content
 * adds {@link FileChange}, for diffs reported without the files' texts.
 */
import type { ToolCallContent as WireToolCallContent } from '@acp-kit/protocol';

export type {
  AvailableCommand,
  ContentBlock,
  Cost,
  PlanEntry,
  SessionConfigOption,
  SessionModeState,
  ToolCallLocation,
} from '@acp-kit/protocol';

/**
 * One file a tool call changed, as v2 reports it: the operation, and its section of a git patch
 * when the agent sent one (v1's `diff` carries the texts instead). Views draw the patch when there
 * is one, else the operation and the path.
 */
export interface FileChange {
  type: 'file_change';
  /** Absolute path of the file (its new path for a move or a copy). */
  path: string;
  /** The path it was moved or copied from. */
  oldPath?: string;
  /** `add`, `delete`, `modify`, `move`, `copy`, or a newer agent's operation. */
  operation: string;
  /** `text`, `binary`, `directory`, `symlink`, or a newer agent's type. */
  fileType?: string;
  /** The part of the unified diff (git format) about this file. */
  patch?: string;
}

/** An item of a tool call's content: a content block, a diff, a terminal, or a file change. */
export type ToolCallContent = WireToolCallContent | FileChange;

/** Whether tool call content is a {@link FileChange} (the one item the v1 wire has no shape for). */
export function isFileChange(content: ToolCallContent): content is FileChange {
  return (
    (content as { type?: unknown }).type === 'file_change' &&
    typeof (content as FileChange).operation === 'string'
  );
}
