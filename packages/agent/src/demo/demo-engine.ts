/**
 * The demo agent's turn engine: deterministic and model-free. It says so everywhere, and it does
 * real work through the shared tools, so every ACP feature can be tried offline.
 */
import type { AuthMethod, ConfigOption, PromptFeatures, StopReason } from '../core/events.js';
import { eventsOf } from '../session/log-events.js';
import type { Session } from '../session/session.js';
import type { Turn, TurnEngine } from '../session/turn.js';
import { abortableDelay } from '../util/abort.js';
import { invalidParams } from '../util/errors.js';
import { firstLine, plural } from '../util/text.js';
import { stream } from './pacing.js';
import { backgroundCommand, runTour } from './tour.js';

export interface DemoEngineOptions {
  /** Pause between streamed words, so people can watch (default 30 ms; tests use 0). */
  delayMs?: number;
}

/** Pace of the `slow` scenario, whatever `delayMs` is: it exists to be cancelled. */
const SLOW_TICK_MS = 100;
const SLOW_TICKS = 300;

const DEMO_MODEL = 'demo';

/**
 * @example
 * serveAgent(stdioChannel(), { engine: new DemoEngine(), dataDir: resolveDataDir() });
 */
export class DemoEngine implements TurnEngine {
  readonly kind = 'demo';
  readonly title = 'acp-kit demo agent (no model)';
  private readonly delayMs: number;

  constructor(options: DemoEngineOptions = {}) {
    this.delayMs = options.delayMs ?? 30;
  }

  promptCapabilities(): PromptFeatures {
    return { image: true, audio: false, embeddedContext: true };
  }

  authMethods(): AuthMethod[] {
    return [];
  }

  assertReady(): void {}

  authenticate(methodId: string): void {
    throw invalidParams(`The demo agent needs no authentication (got method ${methodId})`);
  }

  initialConfig(): Record<string, string | boolean> {
    return { model: DEMO_MODEL, thoughts: true };
  }

  configOptions(session: Session): ConfigOption[] {
    const options: ConfigOption[] = [
      {
        id: 'model',
        name: 'Model',
        category: 'model',
        type: 'select',
        currentValue: DEMO_MODEL,
        options: [
          { value: DEMO_MODEL, name: 'Demo (no model)', description: 'Scripted turns; no language model' },
        ],
      },
    ];
    // Boolean options only for clients that said they can show them.
    if (session.client.features.booleanConfigOptions) {
      options.push({
        id: 'thoughts',
        name: 'Show thoughts',
        description: 'Stream a short thought before each demo turn',
        type: 'boolean',
        currentValue: session.meta.config.thoughts !== false,
      });
    }
    return options;
  }

  setConfigOption(session: Session, configId: string, value: string | boolean): boolean {
    if (configId === 'model') return value === DEMO_MODEL;
    if (configId === 'thoughts' && typeof value === 'boolean') {
      session.meta.config.thoughts = value;
      return true;
    }
    return false;
  }

  async runTurn(turn: Turn): Promise<StopReason> {
    const text = turn.text.trim();
    const [word = '', ...rest] = text.split(/\s+/);
    const argument = rest.join(' ');
    const single = async (tool: string, input: unknown): Promise<StopReason> => {
      await turn.say(`Demo agent (no model): running \`${tool}\` as you asked.`);
      const result = await turn.tools.run(tool, input, turn.signal);
      return result.status === 'cancelled' ? 'cancelled' : 'end_turn';
    };
    switch (argument ? word.toLowerCase() : text.toLowerCase()) {
      case 'run':
        return single('run_command', { command: argument });
      case 'background':
        // Outlives its tool call and the turn: listed as background work until it ends.
        return single('run_command', {
          command: argument || backgroundCommand(),
          background: true,
        });
      case 'read':
        // `read @README.md`: what a client's `@` mention puts in the text (acp, Zed) names the file.
        return single('read_file', { path: argument.replace(/^@(?=\S)/, '') });
      case 'list':
        return single('list_files', { pattern: argument || '**/*' });
      case 'grep':
        return single('grep', { pattern: argument });
      case 'slow':
        return this.slow(turn);
      default:
        return runTour(turn, {
          delayMs: this.delayMs,
          thoughts: turn.session.meta.config.thoughts !== false,
        });
    }
  }

  /** Streams slowly for half a minute: something to cancel. */
  private async slow(turn: Turn): Promise<StopReason> {
    await turn.message.write('Demo agent (no model): streaming slowly so you can try cancelling. ');
    for (let tick = 1; tick <= SLOW_TICKS; tick++) {
      await abortableDelay(SLOW_TICK_MS, turn.signal);
      await turn.message.write(`${tick}… `);
    }
    return 'end_turn';
  }

  async compact(turn: Turn, focus: string): Promise<StopReason> {
    const { session } = turn;
    const records = session.records();
    const prompts: string[] = [];
    let toolCalls = 0;
    for (const event of eventsOf(records)) {
      if ((event.type === 'message' || event.type === 'message_chunk') && event.role === 'user') {
        const blocks = event.type === 'message' ? event.content : [event.content];
        const first = blocks.find((block) => block.type === 'text');
        if (first) prompts.push(firstLine((first as { text: string }).text));
      }
      if (event.type === 'tool_call' && event.isNew) toolCalls++;
    }
    const summary =
      `Demo summary (no model, so this is a count, not an understanding): ${plural(prompts.length, 'prompt')} ` +
      `(${prompts
        .slice(-5)
        .map((p) => JSON.stringify(p))
        .join(', ')}) and ${plural(toolCalls, 'tool call')}.` +
      (focus ? ` Requested focus: ${JSON.stringify(focus)}.` : '');
    const compactionId = `compaction-${records.length}`;
    if (session.accepts({ type: 'compaction', compactionId, status: 'in_progress' })) {
      await session.emit({ type: 'compaction', compactionId, status: 'in_progress' });
      for (const part of summary.match(/[^.]+\.?/g) ?? [summary]) {
        await abortableDelay(this.delayMs, turn.signal);
        await session.emit({ type: 'compaction_chunk', compactionId, content: { type: 'text', text: part } });
      }
      await session.emit({ type: 'compaction', compactionId, status: 'completed' });
    } else {
      await stream(turn.message, `Compacted the conversation. ${summary}`, this.delayMs, turn.signal);
    }
    session.record({ type: 'compaction', at: new Date().toISOString(), summary });
    return 'end_turn';
  }

  helpText(): string {
    return (
      '**acp-kit demo agent: no language model.** Each prompt runs a scripted tour of ACP on your ' +
      'workspace (list, search, read, an edit of `ACP_DEMO.md` through the permission flow, a command, ' +
      'a plan). Start a prompt with `run <command>`, `read <file>`, `list <glob>`, `grep <regex>`, ' +
      '`background [command]` (a command that outlives its turn) or `slow` (a long stream to cancel) ' +
      'for one step.'
    );
  }

  describeModels(): string {
    return 'The demo agent has no model; its only model entry is `demo`. Run `acp agent` with a model configured for real answers.';
  }
}
