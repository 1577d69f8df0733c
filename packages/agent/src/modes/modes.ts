/**
 * Session modes and what each allows. The core knows a mode as the `mode` config option (category
 * `mode`); a v1 client also sees it as ACP `modes` (`faces/v1/modes.ts`), and the two always agree.
 */
import type { ConfigOption } from '../core/events.js';

export type ModeId = 'ask' | 'auto-edit' | 'full-access' | 'plan';

/** What a tool call is about to do, as far as permissions are concerned. */
export type PermissionAction = 'read' | 'edit' | 'execute' | 'mcp' | 'mcp-read' | 'switch_mode';

/** Whether a call runs, asks the user first, or is refused. */
export type PolicyDecision = 'allow' | 'ask' | 'deny';

export interface ModeDefinition {
  id: ModeId;
  name: string;
  description: string;
  /** Decision inside the workspace roots. */
  inside: Record<PermissionAction, PolicyDecision>;
  /** Decision for paths outside the roots (reads and edits). */
  outside: PolicyDecision;
}

export const MODES: readonly ModeDefinition[] = [
  {
    id: 'ask',
    name: 'Ask',
    description: 'Reads freely; asks before every edit, command and MCP tool.',
    inside: {
      read: 'allow',
      'mcp-read': 'allow',
      edit: 'ask',
      execute: 'ask',
      mcp: 'ask',
      switch_mode: 'ask',
    },
    outside: 'ask',
  },
  {
    id: 'auto-edit',
    name: 'Auto-edit',
    description: 'Edits files in the workspace without asking; asks before commands and MCP tools.',
    inside: {
      read: 'allow',
      'mcp-read': 'allow',
      edit: 'allow',
      execute: 'ask',
      mcp: 'ask',
      switch_mode: 'ask',
    },
    outside: 'ask',
  },
  {
    id: 'full-access',
    name: 'Full access',
    description: 'Runs everything without asking, including edits outside the workspace. Use with care.',
    inside: {
      read: 'allow',
      'mcp-read': 'allow',
      edit: 'allow',
      execute: 'allow',
      mcp: 'allow',
      switch_mode: 'ask',
    },
    outside: 'allow',
  },
  {
    id: 'plan',
    name: 'Plan',
    description:
      'Read-only: explores and writes a plan, then asks to leave plan mode before changing anything.',
    inside: {
      read: 'allow',
      'mcp-read': 'allow',
      edit: 'deny',
      execute: 'deny',
      mcp: 'deny',
      switch_mode: 'ask',
    },
    outside: 'deny',
  },
];

/** The mode new sessions start in. */
export const DEFAULT_MODE: ModeId = 'ask';

export function isModeId(value: string): value is ModeId {
  return MODES.some((mode) => mode.id === value);
}

function definition(id: ModeId): ModeDefinition {
  return MODES.find((mode) => mode.id === id) ?? (MODES[0] as ModeDefinition);
}

/** Human name of a mode (`Auto-edit`). */
export function modeName(id: ModeId): string {
  return definition(id).name;
}

/**
 * What `mode` does with `action`. Paths outside the workspace follow the mode's `outside` rule
 * unless the action is already refused inside.
 *
 * @example
 * decide('auto-edit', 'edit', false) // 'allow'
 * decide('auto-edit', 'edit', true)  // 'ask'
 */
export function decide(mode: ModeId, action: PermissionAction, outside: boolean): PolicyDecision {
  const def = definition(mode);
  const inside = def.inside[action];
  if (!outside || inside === 'deny') return inside;
  if (def.outside === 'deny') return 'deny';
  // Outside the roots, a mode may be stricter than inside but never looser.
  return inside === 'ask' || def.outside === 'ask' ? 'ask' : 'allow';
}

/** The `mode` config option. */
export function modeConfigOption(current: ModeId): ConfigOption {
  return {
    id: 'mode',
    name: 'Mode',
    description: 'What the agent may do without asking.',
    category: 'mode',
    type: 'select',
    currentValue: current,
    options: MODES.map(({ id, name, description }) => ({ value: id, name, description })),
  };
}
