/**
 * A command tool call's command line and output as agents report them outside `content`:
 * Codex (codex-acp 0.x) sends the command only in `rawInput.command` (an argv such as
 * `["bash", "-lc", "ls"]`) and its output only in `rawOutput` (`stdout`, `stderr`,
 * `aggregated_output`, `formatted_output`, `exit_code`); acp-kit's agent sends `rawOutput`
 * `{output, exitCode}`; newer codex-acp sends `{exit_code}` with the output as text content.
 */
import { contentTerminalIds, toolCallTerminal, type SessionState, type ToolCallItem } from '@acp-kit/client';
import { parseTerminalOutput, styledLinesToPlainText } from '../sanitize/terminal-output.js';
import { commandLineFrom } from './permission.js';
import {
  terminalRuns,
  terminalSnapshot,
  toolCallView,
  type TerminalSnapshot,
  type ToolCallView,
} from './tool-call.js';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Output found in a tool call's `rawOutput`. */
export interface RawCommandOutput {
  /** The output (may hold SGR colours; sanitized when drawn). Empty when there was none. */
  readonly text: string;
  readonly exitCode?: number | null;
}

const SHELLS = new Set([
  'sh',
  'bash',
  'zsh',
  'dash',
  'fish',
  '/bin/sh',
  '/bin/bash',
  '/bin/zsh',
  '/usr/bin/bash',
]);

/**
 * The command line of a tool call's `rawInput` (`command` or `cmd`, a string or an argv; a
 * `bash -lc SCRIPT` wrapper is shown as its script).
 *
 * @example
 * toolCommand({ command: ['bash', '-lc', 'ls -la'] }); // 'ls -la'
 */
export function toolCommand(rawInput: unknown): string | undefined {
  if (!isRecord(rawInput)) return undefined;
  const command = rawInput.command ?? rawInput.cmd;
  if (
    Array.isArray(command) &&
    command.length === 3 &&
    typeof command[0] === 'string' &&
    SHELLS.has(command[0]) &&
    (command[1] === '-c' || command[1] === '-lc') &&
    typeof command[2] === 'string'
  ) {
    return command[2];
  }
  return commandLineFrom(command, rawInput.args);
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function exitCodeOf(raw: Record<string, unknown>): number | null | undefined {
  const code = raw.exit_code ?? raw.exitCode;
  if (typeof code === 'number' || code === null) return code;
  return undefined;
}

/**
 * The output a tool call's `rawOutput` carries, when it looks like a command's (`isCommand`: the
 * call is an `execute` call, so a bare string or an `output` field counts too).
 *
 * @example
 * rawCommandOutput({ stdout: 'a\n', exit_code: 0, formatted_output: 'a\n' }, false); // { text: 'a\n', exitCode: 0 }
 */
export function rawCommandOutput(rawOutput: unknown, isCommand: boolean): RawCommandOutput | undefined {
  if (typeof rawOutput === 'string') return isCommand ? { text: rawOutput } : undefined;
  if (!isRecord(rawOutput)) return undefined;
  const exitCode = exitCodeOf(rawOutput);
  const streams = [text(rawOutput.stdout), text(rawOutput.stderr)].filter((s): s is string => !!s);
  const found =
    text(rawOutput.formatted_output) ??
    text(rawOutput.aggregated_output) ??
    (streams.length > 0 ? streams.join(streams[0]?.endsWith('\n') ? '' : '\n') : undefined) ??
    (isCommand || exitCode !== undefined ? text(rawOutput.output) : undefined);
  if (found === undefined && exitCode === undefined) return undefined;
  return { text: found ?? '', ...(exitCode !== undefined ? { exitCode } : {}) };
}

/**
 * What a card shows of a command besides its content: the command line when neither the title
 * nor a terminal shows it, and the output found in `rawOutput` when no content shows any (then
 * terminals the client never heard of are left out instead of reading "no output yet").
 */
export function commandParts(
  call: ToolCallView,
  terminals: ReadonlyMap<string, TerminalSnapshot> | undefined,
): {
  command?: string;
  output?: RawCommandOutput;
  content: { item: ToolCallView['content'][number]; index: number }[];
} {
  const content = call.content.map((item, index) => ({ item, index }));
  let shown = false;
  let terminalCommand = false;
  for (const { item } of content) {
    const type = (item as { type?: unknown }).type;
    if (type === 'terminal') {
      const terminal = terminals?.get((item as { terminalId: string }).terminalId);
      if (terminal?.command) terminalCommand = true;
      // A terminal still running shows its progress; one that ended without output shows none.
      if (terminal && (terminal.output !== '' || terminalRuns(terminal, call.status))) shown = true;
    } else if (type === 'content') {
      const block = (item as { content?: { type?: unknown; text?: unknown } }).content;
      if (block?.type !== 'text' || (typeof block.text === 'string' && block.text.trim() !== ''))
        shown = true;
    } else {
      shown = true;
    }
  }
  const line = toolCommand(call.rawInput);
  const inTitle = line !== undefined && call.title.includes(line.trim());
  const command = line !== undefined && !inTitle && !terminalCommand ? line : undefined;
  const found = shown ? undefined : rawCommandOutput(call.rawOutput, call.kind === 'execute');
  // A terminal that ended without output and no output elsewhere still shows how it ended.
  const output =
    found && (found.text !== '' || !content.some(({ item }) => isTerminal(item))) ? found : undefined;
  // The raw output replaces terminals that have none (never heard of, or ended empty).
  const kept = output
    ? content.filter(({ item }) => {
        if (!isTerminal(item)) return true;
        return terminals?.get(item.terminalId)?.output ? true : false;
      })
    : content;
  return { ...(command !== undefined ? { command } : {}), ...(output ? { output } : {}), content: kept };
}

function isTerminal(
  item: ToolCallView['content'][number],
): item is Extract<typeof item, { type: 'terminal' }> {
  return (item as { type?: unknown }).type === 'terminal';
}

/**
 * The output of a command tool call as plain text, as its card shows it: its terminals' output,
 * its text content, or the output found in `rawOutput` (undefined: not a command, or no output).
 * For places without a card: the line mode on a dumb terminal.
 *
 * @example
 * commandOutputText(item, session.state); // 'README.md\nnotes.txt'
 */
export function commandOutputText(item: ToolCallItem, state: SessionState): string | undefined {
  if (item.toolKind !== 'execute') return undefined;
  const terminals = new Map<string, TerminalSnapshot>();
  for (const id of contentTerminalIds(item)) {
    const view = toolCallTerminal(state, item, id);
    if (view) terminals.set(id, terminalSnapshot(view));
  }
  const { output, content } = commandParts(toolCallView(item), terminals);
  const plain = (text: string): string => styledLinesToPlainText(parseTerminalOutput(text));
  const parts: string[] = [];
  for (const { item: shown } of content) {
    if (isTerminal(shown)) {
      const text = terminals.get(shown.terminalId)?.output;
      if (text) parts.push(plain(text));
    } else if ((shown as { type?: unknown }).type === 'content') {
      const block = (shown as { content?: { type?: unknown; text?: unknown } }).content;
      if (block?.type === 'text' && typeof block.text === 'string' && block.text.trim() !== '')
        parts.push(plain(block.text));
    }
  }
  if (output?.text) parts.push(plain(output.text));
  const text = parts.join('\n').replace(/\n+$/, '');
  return text === '' ? undefined : text;
}
