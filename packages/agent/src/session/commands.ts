/**
 * Slash commands: advertised with `available_commands_update`, recognised at the start of a
 * prompt's first text block (`/plan add a cache`), and handled before the engine sees the prompt.
 */
import type { Command, ContentBlock, StopReason } from '../core/events.js';
import { MODES, isModeId, modeName } from '../modes/modes.js';
import type { Turn, TurnEngine } from './turn.js';

export const COMMANDS: readonly Command[] = [
  { name: 'help', description: 'What this agent can do, its modes and commands' },
  {
    name: 'compact',
    description: 'Summarise the conversation so far to free context',
    inputHint: 'what the summary should focus on (optional)',
  },
  {
    name: 'plan',
    description: 'Switch to plan mode (read-only) and plan the task',
    inputHint: 'the task to plan (optional)',
  },
  {
    name: 'model',
    description: 'Show the models or switch to another',
    inputHint: 'model id (optional)',
  },
  {
    name: 'mode',
    description: 'Show the modes or switch to another',
    inputHint: 'ask | auto-edit | full-access | plan (optional)',
  },
];

export interface ParsedCommand {
  name: string;
  /** Text after the command name. */
  argument: string;
  /** The prompt with the command removed (the argument text plus any other blocks). */
  rest: ContentBlock[];
}

/** Recognises `/name args` at the start of the prompt; unknown names are left to the engine. */
export function parseCommand(prompt: readonly ContentBlock[]): ParsedCommand | undefined {
  const first = prompt[0];
  if (!first || first.type !== 'text') return undefined;
  const match = /^\s*\/([A-Za-z][\w-]*)(?:[ \t]+([\s\S]*))?$/.exec((first as { text: string }).text);
  if (!match?.[1]) return undefined;
  const name = match[1].toLowerCase();
  if (!COMMANDS.some((command) => command.name === name)) return undefined;
  const argument = (match[2] ?? '').trim();
  const rest: ContentBlock[] = argument ? [{ type: 'text', text: argument }] : [];
  return { name, argument, rest: [...rest, ...prompt.slice(1)] };
}

function modeList(): string {
  return MODES.map((mode) => `- **${mode.name}** (\`${mode.id}\`): ${mode.description}`).join('\n');
}

function helpText(engine: TurnEngine): string {
  const modes = modeList();
  const commands = COMMANDS.map((command) => `- \`/${command.name}\` — ${command.description}`).join('\n');
  return `${engine.helpText()}\n\n**Modes**\n${modes}\n\n**Commands**\n${commands}\n`;
}

/**
 * Runs a slash command. `/plan <task>` switches to plan mode and then runs the task as a turn;
 * the others answer directly.
 */
export async function runCommand(
  command: ParsedCommand,
  turn: Turn,
  engine: TurnEngine,
): Promise<StopReason> {
  const { session } = turn;
  switch (command.name) {
    case 'help':
      await turn.say(helpText(engine));
      return 'end_turn';
    case 'compact':
      return engine.compact(turn, command.argument);
    case 'plan':
      if (session.mode !== 'plan') await session.setMode('plan');
      if (command.rest.length === 0) {
        await turn.say('Plan mode is on: I will only read and plan, then ask before changing anything.');
        return 'end_turn';
      }
      return engine.runTurn(turn.withPrompt(command.rest));
    case 'mode': {
      if (!command.argument) {
        await turn.say(`Current mode: **${modeName(session.mode)}** (\`${session.mode}\`).\n\n${modeList()}`);
        return 'end_turn';
      }
      if (!isModeId(command.argument)) {
        await turn.say(`Unknown mode \`${command.argument}\`. Modes: ask, auto-edit, full-access, plan.`);
        return 'end_turn';
      }
      await session.setMode(command.argument);
      await turn.say(`Switched to **${modeName(command.argument)}** mode.`);
      return 'end_turn';
    }
    case 'model': {
      if (!command.argument) {
        await turn.say(engine.describeModels(session));
        return 'end_turn';
      }
      const ok = await session.setConfigOption('model', command.argument);
      await turn.say(
        ok
          ? `Switched to model \`${command.argument}\`.`
          : `Unknown model \`${command.argument}\`.\n\n${engine.describeModels(session)}`,
      );
      return 'end_turn';
    }
    default:
      return engine.runTurn(turn);
  }
}
