/**
 * What the composer suggests at the cursor: slash commands (the text starts with `/`) or files
 * (the word at the cursor starts with `@`).
 */
import type { AvailableCommand } from '@acp-kit/protocol';
import { fuzzyFilter, fuzzyScore, type FuzzyMatch } from './fuzzy.js';

/** Suggestions for the current input. */
export type Suggestions =
  | { readonly kind: 'none' }
  | {
      readonly kind: 'command';
      readonly items: readonly { readonly command: AvailableCommand; readonly match: FuzzyMatch }[];
      /** Replaced on completion: from 0 to the cursor. */
      readonly replaceFrom: number;
    }
  | { readonly kind: 'file'; readonly items: readonly FuzzyMatch[]; readonly replaceFrom: number };

const NONE: Suggestions = { kind: 'none' };

/** The `@` word ending at the cursor, if any. */
export function mentionAt(text: string, cursor: number): { query: string; start: number } | undefined {
  const before = text.slice(0, cursor);
  const match = /(^|\s)@([^\s@]*)$/.exec(before);
  if (!match) return undefined;
  return { query: match[2] ?? '', start: cursor - (match[2] ?? '').length - 1 };
}

/** The command whose name the text starts with, followed by a space (`/name …`). */
export function commandInText(
  text: string,
  commands: readonly AvailableCommand[],
): AvailableCommand | undefined {
  if (!text.startsWith('/')) return undefined;
  // Names may contain spaces: the longest name that fits wins.
  let best: AvailableCommand | undefined;
  for (const command of commands) {
    const prefix = `/${command.name}`;
    if (
      (text === prefix || text.startsWith(`${prefix} `)) &&
      (!best || command.name.length > best.name.length)
    ) {
      best = command;
    }
  }
  return best;
}

/** Suggestions for `text` with the cursor at `cursor`. */
export function computeSuggestions(
  text: string,
  cursor: number,
  commands: readonly AvailableCommand[],
  files: readonly string[],
  limit = 8,
): Suggestions {
  const before = text.slice(0, cursor);
  if (before.startsWith('/') && !before.includes('\n') && commands.length > 0) {
    const query = before.slice(1);
    const exact = commandInText(text, commands);
    if (exact && before.length > exact.name.length + 1) return NONE; // typing the command's input
    const items = commands
      .map((command) => ({
        command,
        match: query.includes(' ')
          ? command.name.toLowerCase().startsWith(query.toLowerCase())
            ? { value: command.name, score: 0, positions: [] }
            : undefined
          : fuzzyScore(query, command.name),
      }))
      .filter((item): item is { command: AvailableCommand; match: FuzzyMatch } => item.match !== undefined)
      .sort((a, b) => b.match.score - a.match.score || a.command.name.localeCompare(b.command.name))
      .slice(0, limit);
    return items.length === 0 ? NONE : { kind: 'command', items, replaceFrom: 0 };
  }
  const mention = mentionAt(text, cursor);
  if (mention && files.length > 0) {
    const items = fuzzyFilter(mention.query, files, limit);
    return items.length === 0 ? NONE : { kind: 'file', items, replaceFrom: mention.start };
  }
  return NONE;
}

/**
 * Paths mentioned with `@` in a prompt, in order, without duplicates. The engine turns them into
 * embedded resources or resource links according to the agent's capabilities.
 */
export function extractMentions(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/(?:^|\s)@([^\s@]+)/g)) {
    const path = match[1];
    if (path && !found.includes(path)) found.push(path);
  }
  return found;
}
