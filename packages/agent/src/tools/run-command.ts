/**
 * `run_command`: a shell command line, in the client's terminal when it has terminals (embedded in
 * the tool call), else as our own process with its output streamed into the tool call.
 */
import { randomUUID } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { z } from 'zod';
import type { ToolCallContent } from '@acp-kit/protocol';
import { clip, codeBlock } from '../util/text.js';
import { runInClientTerminal } from './command/client-terminal.js';
import { runLocalCommand } from './command/local-process.js';
import { programOf, type CommandOutcome } from './command/shell.js';
import { resolvePath } from './paths.js';
import { ToolError, defineTool, type ExecutionContext } from './types.js';

/** Output kept per command (the client truncates from the start beyond it, and so do we). */
export const OUTPUT_BYTE_LIMIT = 64 * 1024;
/** Most output handed to the model. */
const MODEL_OUTPUT_CHARS = 30_000;
/** Gap between streamed output updates of a local command. */
const STREAM_INTERVAL_MS = 100;

function outputContent(text: string): ToolCallContent[] {
  return [{ type: 'content', content: { type: 'text', text: codeBlock(text || '(no output yet)') } }];
}

function summary(outcome: CommandOutcome): string {
  if (outcome.timedOut) return 'Timed out and was stopped';
  if (outcome.signal) return `Killed by ${outcome.signal}`;
  return `Exit code ${outcome.exitCode ?? 'unknown'}`;
}

/**
 * Streams a local command's retained output into the tool call at most every
 * {@link STREAM_INTERVAL_MS}, in order, and lets the caller wait for the last update.
 */
class OutputStreamer {
  private latest = '';
  private timer: NodeJS.Timeout | undefined;
  private chain: Promise<void> = Promise.resolve();

  constructor(private readonly send: (retained: string) => Promise<void>) {}

  push(retained: string): void {
    this.latest = retained;
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      const snapshot = this.latest;
      this.chain = this.chain.then(() => this.send(snapshot));
    }, STREAM_INTERVAL_MS);
  }

  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.chain;
  }
}

async function runLocally(ctx: ExecutionContext, commandLine: string, cwd: string, timeoutMs: number) {
  const caps = ctx.session.connection.clientCapabilities;
  // Clients that render `_meta.terminal_output` (as Claude's and Codex's adapters use) get a live terminal.
  const metaTerminal = caps?._meta?.terminal_output === true;
  const terminalId = `local-${randomUUID()}`;
  if (metaTerminal) {
    await ctx.progress({
      content: [{ type: 'terminal', terminalId }],
      _meta: { terminal_info: { terminal_id: terminalId, cwd } },
    });
  }
  const streamer = new OutputStreamer((retained) => ctx.progress({ content: outputContent(retained) }));
  try {
    const outcome = await runLocalCommand({
      commandLine,
      cwd,
      outputByteLimit: OUTPUT_BYTE_LIMIT,
      timeoutMs,
      signal: ctx.signal,
      onOutput(chunk, retained) {
        if (metaTerminal)
          void ctx.progress({ _meta: { terminal_output: { terminal_id: terminalId, data: chunk } } });
        else streamer.push(retained);
      },
    });
    await streamer.flush();
    const content: ToolCallContent[] = metaTerminal
      ? [{ type: 'terminal', terminalId }]
      : outputContent(outcome.output);
    const meta = metaTerminal
      ? { terminal_exit: { terminal_id: terminalId, exit_code: outcome.exitCode, signal: outcome.signal } }
      : undefined;
    return { outcome, content, meta };
  } finally {
    await streamer.flush();
  }
}

export const runCommandTool = defineTool({
  name: 'run_command',
  description:
    'Run a shell command line (sh -c) in the working directory or a subdirectory. Output is stdout and stderr combined; long output keeps its end.',
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
        const timeoutMs = input.timeoutSeconds * 1000;
        let outcome: CommandOutcome;
        let content: ToolCallContent[];
        let meta: Record<string, unknown> | undefined;
        if (exec.session.connection.clientCapabilities?.terminal === true) {
          let terminalId = '';
          outcome = await runInClientTerminal({
            connection: exec.session.connection,
            sessionId: exec.session.id,
            commandLine: input.command,
            cwd: dir.path,
            outputByteLimit: OUTPUT_BYTE_LIMIT,
            timeoutMs,
            signal: exec.signal,
            async onCreated(id) {
              terminalId = id;
              await exec.progress({ content: [{ type: 'terminal', terminalId: id }] });
            },
          });
          content = [{ type: 'terminal', terminalId }];
        } else {
          ({ outcome, content, meta } = await runLocally(exec, input.command, dir.path, timeoutMs));
        }
        const status = summary(outcome);
        const modelOutput = clip(outcome.output, MODEL_OUTPUT_CHARS);
        return {
          output: `${status}.${outcome.truncated ? ' (output truncated at the start)' : ''}\n${modelOutput}`,
          content,
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
          meta,
        };
      },
    };
  },
});
