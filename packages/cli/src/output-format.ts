/**
 * One spelling for machine-readable output: `--format json` on every command that prints data,
 * with `--json` as its alias. Imports only commander, so registering commands stays light.
 */
import { Option, type Command } from 'commander';

/** What a data-printing command can print. */
export type OutputFormat = 'text' | 'json' | 'names';

/** Options commander gives a command with {@link addFormatOptions}. */
export interface FormatOptions {
  format?: string;
  json?: boolean;
}

/**
 * Adds `--format <format>` (default `text`) and its alias `--json` to `command`.
 *
 * @example
 * addFormatOptions(program.command('list'), ['text', 'json', 'names']);
 */
export function addFormatOptions(
  command: Command,
  formats: readonly OutputFormat[] = ['text', 'json'],
  what = 'output format',
): Command {
  return command
    .addOption(new Option('--format <format>', what).choices(formats).default('text'))
    .addOption(new Option('--json', 'the same as --format json').conflicts('format'));
}

/** The format the options ask for. */
export function outputFormat(options: FormatOptions): OutputFormat {
  if (options.json) return 'json';
  return (options.format ?? 'text') as OutputFormat;
}
