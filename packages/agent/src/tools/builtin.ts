/** The built-in tools, and which of them a mode offers. */
import type { ModeId } from '../modes/modes.js';
import { exitPlanModeTool, updatePlanTool } from './plan.js';
import { readFileTool } from './read-file.js';
import { runCommandTool } from './run-command.js';
import { grepTool, listFilesTool } from './search.js';
import type { AgentTool } from './types.js';
import { editFileTool, writeFileTool } from './write-file.js';

/** Every built-in tool. */
export function builtinTools(): AgentTool[] {
  return [
    readFileTool,
    listFilesTool,
    grepTool,
    writeFileTool,
    editFileTool,
    runCommandTool,
    updatePlanTool,
    exitPlanModeTool,
  ] as AgentTool[];
}

/**
 * What the model is offered in `mode`: plan mode offers only read-only tools (and the way out of
 * plan mode); other modes offer everything but `exit_plan_mode`. The runner still checks every call.
 */
export function toolsForMode<T extends { name: string; readOnly: boolean }>(
  tools: readonly T[],
  mode: ModeId,
): T[] {
  if (mode === 'plan') return tools.filter((tool) => tool.readOnly);
  return tools.filter((tool) => tool.name !== exitPlanModeTool.name);
}
