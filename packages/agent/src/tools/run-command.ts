/**
 * `run_command`: a shell command line, in the client's terminal when it runs terminals for us (a
 * v1 client), else as our own process, shown as a terminal whose output streams to the client. A
 * command may also start in the background: the call returns at once and the terminal goes on.
 */
import { stat } from 'node:fs/promises';
import { z } from 'zod';
import type { ToolContent } from '../core/events.js';
import { AbortedError } from '../util/abort.js';
import { clip, codeBlock } from '../util/text.js';
import { programOf, type CommandOutcome } from './command/shell.js';
import { resolvePath } from './paths.js';
import { ToolError, defineTool, type ExecutionContext, type ToolResult } from './types.js';

/** Output kept per command (the client truncates from the start beyond it, and so do we). */
export const OUTPUT_BYTE_LIMIT = 64 * 1024;
/** Most output handed to the model. */
const MODEL_OUTPUT_CHARS = 30_000;

function summary(outcome: CommandOutcome): string {
  if (outcome.timedOut) return 'Timed out and was stopped';
  if (outcome.signal) return `Killed by ${outcome.signal}`;
  return `Exit code ${outcome.exitCode ?? 'unknown'}`;
}

interface Run {
  commandLine: string;
  cwd: string;
  timeoutMs: number;
  background: boolean;
}

const terminalContent = (terminalId: string): ToolContent[] => [{ type: 'terminal', terminalId }];

/** In the client's terminal (embedded in the tool call), killed on cancel, always released. */
async function inClientTerminal(
  exec: ExecutionContext,
  run: Run,
): Promise<{ outcome: CommandOutcome; terminalId: string }> {
  const { session } = exec;
  let terminalId = '';
  const outcome = await session.client.terminals!.run({
    sessionId: session.id,
    commandLine: run.commandLine,
    cwd: run.cwd,
    outputByteLimit: OUTPUT_BYTE_LIMIT,
    timeoutMs: run.timeoutMs,
    signal: exec.signal,
    async onCreated(id) {
      terminalId = id;
      await session.terminals.clientCreated(id, {
        toolCallId: exec.toolCallId,
        command: run.commandLine,
        cwd: run.cwd,
      });
      await exec.progress({ content: terminalContent(id) });
    },
  });
  session.terminals.clientEnded(terminalId, outcome);
  return { outcome, terminalId };
}

/** As our own process; a foreground one is stopped when the call is cancelled. */
async function inOwnTerminal(
  exec: ExecutionContext,
  run: Run,
): Promise<{ outcome?: CommandOutcome; terminalId: string }> {
  const terminal = await exec.session.terminals.start(
    {
      commandLine: run.commandLine,
      cwd: run.cwd,
      toolCallId: exec.toolCallId,
      timeoutMs: run.timeoutMs,
      outputByteLimit: OUTPUT_BYTE_LIMIT,
      background: run.background,
    },
    (id) => exec.progress({ content: terminalContent(id) }),
  );
  if (run.background) return { terminalId: terminal.terminalId };
  const onAbort = (): void => terminal.stop();
  if (exec.signal.aborted) terminal.stop();
  else exec.signal.addEventListener('abort', onAbort, { once: true });
  try {
    const outcome = await terminal.outcome;
    // On cancel we still waited for the process to go, so nothing runs behind a "cancelled" call.
    if (exec.signal.aborted) throw new AbortedError();
    return { outcome, terminalId: terminal.terminalId };
  } finally {
    exec.signal.removeEventListener('abort', onAbort);
  }
}

function backgroundResult(run: Run, terminalId: string): ToolResult {
  return {
    output:
      `Started in the background as terminal ${terminalId}: it runs until it ends, is stopped after ` +
      `${run.timeoutMs / 1000} s, or the session closes. Its output goes to the user, not to you.`,
    content: terminalContent(terminalId),
    rawOutput: { command: run.commandLine, cwd: run.cwd, terminalId, background: true },
  };
}

export const runCommandTool = defineTool({
  name: 'run_command',
  description:
    'Run a shell command line (sh -c) in the working directory or a subdirectory. Output is stdout and stderr combined; long output keeps its end. With background, the command starts and the call returns at once (for servers and watchers; you do not see their output).',
  kind: 'execute',
  readOnly: false,
  input: z.object({
    command: z.string().min(1).describe('The command line, for example "npm test"'),
    cwd: z.string().optional().describe('Directory to run in (default: the working directory)'),
    timeoutSeconds: z
      .number()
      .int()
      .min(1)
      .max(3600)
      .default(120)
      .describe('Stop the command after this long'),
    background: z
      .boolean()
      .optional()
      .describe('Start the command and return at once; it keeps running until it ends or times out'),
  }),
  async prepare(input, ctx) {
    const dir = await resolvePath(ctx, input.cwd ?? '.');
    const info = await stat(dir.path).catch(() => undefined);
    if (!info?.isDirectory())
      throw new ToolError(`${ctx.session.workspace.display(dir.path)} is not a directory`);
    const program = programOf(input.command);
    return {
      title: `Run \`${clip(input.command, 80)}\``,
      locations: [{ path: dir.path }],
      content: [{ type: 'content', content: { type: 'text', text: codeBlock(input.command, 'sh') } }],
      permission: {
        action: 'execute',
        outside: !dir.inside,
        key: `execute:${program}`,
        scope: `\`${program}\` commands`,
      },
      async execute(exec) {
        const run: Run = {
          commandLine: input.command,
          cwd: dir.path,
          timeoutMs: input.timeoutSeconds * 1000,
          background: input.background === true,
        };
        // A background command outlives the turn that started it: always our own process.
        const result =
          exec.session.client.terminals && !run.background
            ? await inClientTerminal(exec, run)
            : await inOwnTerminal(exec, run);
        const { outcome, terminalId } = result;
        if (!outcome) return backgroundResult(run, terminalId);
        const status = summary(outcome);
        const modelOutput = clip(outcome.output, MODEL_OUTPUT_CHARS);
        return {
          output: `${status}.${outcome.truncated ? ' (output truncated at the start)' : ''}\n${modelOutput}`,
          content: terminalContent(terminalId),
          failed: outcome.exitCode !== 0,
          rawOutput: {
            command: input.command,
            cwd: dir.path,
            exitCode: outcome.exitCode,
            signal: outcome.signal,
            timedOut: outcome.timedOut,
            truncated: outcome.truncated,
            output: clip(outcome.output, 16_000),
          },
        };
      },
    };
  },
});
