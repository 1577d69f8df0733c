/**
 * A permission question in plain text, for the line mode's questions and `acp run`'s decisions:
 * what it is about, and the working directory, environment and paths of the operation. Commands,
 * paths and variables keep every character, the invisible ones written as escapes (`\n`,
 * `\u{200b}`): in a file name or a command they are part of what is approved, not formatting.
 */
import {
  isSecretKey,
  redactString,
  REDACTED,
  visiblePath,
  visibleText,
  type EnvVariable,
  type PermissionRequestView,
} from '@acp-kit/client';
import { oneLine } from '../format.js';

/** Longest value shown in `acp run` output (the line mode's questions show values whole). */
const MAX_VALUE_CHARS = 1000;

/**
 * What the question is about, in one line: the command, else the title (its paths are listed
 * under it by {@link questionDetails}), else the kind and paths.
 */
export function questionWhat(request: PermissionRequestView, cwd: string): string {
  if (request.command !== undefined) return visibleText(request.command);
  if (request.title) return oneLine(request.title);
  return `${request.kind} ${request.paths.map((path) => visiblePath(path, cwd)).join(', ')}`;
}

/** How variables are shown: whole (a question the user answers), or for output that may be kept. */
export type EnvShown = 'whole' | 'output';

/**
 * A variable's value as output that may be kept shows it (`acp run`): a credential-named
 * variable's value and token-looking strings redacted as in records, a long value shortened.
 */
export function outputValue({ name, value }: EnvVariable): string {
  const redacted = isSecretKey(name) ? REDACTED : redactString(value);
  return redacted.length > MAX_VALUE_CHARS
    ? `${redacted.slice(0, MAX_VALUE_CHARS)}…(${redacted.length - MAX_VALUE_CHARS} more characters)`
    : redacted;
}

/** `NAME=value`, whole (a question the user answers) or as output shows it ({@link outputValue}). */
export function variableText(variable: EnvVariable, shown: EnvShown): string {
  const value = shown === 'whole' ? variable.value : outputValue(variable);
  return `${visibleText(variable.name)}=${visibleText(value)}`;
}

/**
 * The lines under a question about a command: `in DIR` when it names a working directory, and
 * `env NAME=value` for each variable it sets (marked when off the allow list).
 */
export function questionDetails(request: PermissionRequestView, cwd: string, shown: EnvShown): string[] {
  const lines: string[] = [];
  if (request.commandCwd !== undefined) lines.push(`in ${visiblePath(request.commandCwd, cwd)}`);
  for (const variable of request.env ?? []) {
    const off = request.sensitiveEnv?.includes(variable.name) ? ' (off the allow list)' : '';
    lines.push(`env ${variableText(variable, shown)}${off}`);
  }
  return lines;
}

/**
 * `path P` for each path of a question about something other than a command, when its title
 * stands in the first line (else the paths are there already), except those in `shown` (a diff
 * under the question names its file).
 */
export function questionPaths(
  request: PermissionRequestView,
  cwd: string,
  shown: readonly string[],
): string[] {
  if (request.command !== undefined || !request.title) return [];
  return request.paths
    .filter((path) => !shown.includes(path))
    .map((path) => `path ${visiblePath(path, cwd)}`);
}
