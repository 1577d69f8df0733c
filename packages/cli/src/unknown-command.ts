/**
 * Words that name no command: commander's "unknown command" error with its suggestion of a similar
 * command, or of the option the word names (`acp version`: `--version`), for `acp` and for the
 * commands that have subcommands (`acp sessions frob`).
 */
import type { Command } from 'commander';
import { UsageError } from './exit-codes.js';

/**
 * Commander's own "unknown command" error, with its suggestion of a similar command; a word that
 * is the name of an option (`acp version`) suggests the option instead.
 */
export function unknownCommand(program: Command, word: string): never {
  const option = program.options.find((candidate) => candidate.long === `--${word}`);
  if (option?.long)
    throw new UsageError(`unknown command '${word}'`, {
      hint: `did you mean ${option.long}? see \`acp ${program.parent ? `${program.name()} ` : ''}--help\``,
    });
  const withSuggestion = program as unknown as { unknownCommand?: () => never };
  if (typeof withSuggestion.unknownCommand === 'function') withSuggestion.unknownCommand();
  throw new UsageError(`unknown command '${word}'`);
}

/**
 * `acp sessions frob`: a word that names none of a command's subcommands is an unknown command
 * there, not an argument of its default subcommand (`list`).
 */
export function rejectUnknownSubcommands(parent: Command): Command {
  parent.hook('preSubcommand', (command, subcommand) => {
    const word = command.args[0];
    if (word === undefined || word.startsWith('-')) return;
    if (word !== subcommand.name() && !subcommand.aliases().includes(word)) unknownCommand(command, word);
  });
  return parent;
}
