/** `update_plan` (shown as the session's plan) and `exit_plan_mode` (a `switch_mode` tool call). */
import { z } from 'zod';
import { modeName } from '../modes/modes.js';
import { PLAN_ID } from '../session/session.js';
import { ToolError, defineTool } from './types.js';

const entrySchema = z.object({
  content: z.string().min(1).describe('What this step does'),
  priority: z.enum(['high', 'medium', 'low']).default('medium'),
  status: z.enum(['pending', 'in_progress', 'completed']),
});

export const updatePlanTool = defineTool({
  name: 'update_plan',
  description:
    'Show the user your plan for a multi-step task as a checklist. Send the complete list every time (it replaces the previous one) and keep statuses current: one step in_progress at a time.',
  kind: 'think',
  readOnly: true,
  display: 'plan',
  input: z.object({ entries: z.array(entrySchema).describe('Every step of the plan, in order') }),
  async prepare(input) {
    const done = input.entries.filter((entry) => entry.status === 'completed').length;
    return {
      title: 'Update plan',
      async execute({ session }) {
        await session.emit({ type: 'plan', planId: PLAN_ID, entries: input.entries });
        return { output: `Plan updated (${done}/${input.entries.length} steps completed).` };
      },
    };
  },
});

export const exitPlanModeTool = defineTool({
  name: 'exit_plan_mode',
  description:
    'In plan mode: present your finished plan and ask the user to leave plan mode so you can carry it out. The user may refuse; then keep planning.',
  kind: 'switch_mode',
  readOnly: true,
  input: z.object({
    plan: z.string().min(1).describe('The plan, in Markdown'),
    mode: z
      .enum(['ask', 'auto-edit', 'full-access'])
      .default('ask')
      .describe('Mode to switch to: ask (confirm each edit), auto-edit, or full-access'),
  }),
  async prepare(input, ctx) {
    if (ctx.session.mode !== 'plan')
      throw new ToolError('Not in plan mode; go ahead without calling exit_plan_mode.');
    const target = modeName(input.mode);
    return {
      title: `Leave plan mode (switch to ${target})`,
      content: [{ type: 'content', content: { type: 'text', text: input.plan } }],
      permission: {
        action: 'switch_mode',
        outside: false,
        allowLabel: `Yes, switch to ${target} mode`,
        rejectLabel: 'No, keep planning',
      },
      async execute({ session }) {
        await session.setMode(input.mode);
        return {
          output: `The user approved the plan. Now in ${target} mode: carry out the plan.`,
          rawOutput: { mode: input.mode },
        };
      },
    };
  },
});
