/**
 * The model agent's turn engine: the AI SDK step loop with retries, tool calls through the shared
 * runner, usage after each step, and faithful stop reasons.
 */
import type { LanguageModel, LanguageModelUsage, ModelMessage, ToolModelMessage } from 'ai';
import { ProtocolError, type Logger } from '@acp-kit/protocol';
import type { ClientFeatures } from '../core/client-port.js';
import type { AuthMethod, ConfigOption, PromptFeatures, StopReason } from '../core/events.js';
import {
  loadSettings,
  setupInstructions,
  type AgentSettings,
  type ModelSettings,
  type ProviderSettings,
  type SettingsOverrides,
} from '../config/settings.js';
import {
  authMethodsData,
  authenticateForSetup,
  setupAuthMethods,
  type AuthenticateContext,
} from '../config/setup-acp.js';
import type { Session } from '../session/session.js';
import type { Turn, TurnEngine } from '../session/turn.js';
import { toolsForMode } from '../tools/builtin.js';
import type { ToolRunResult } from '../tools/runner.js';
import { abortableDelay } from '../util/abort.js';
import { silentLogger } from '../util/logger.js';
import { compactConversation } from './compaction.js';
import { isTransient, retryAfterMs, toProtocolError } from './errors.js';
import { conversation, userMessage } from './history.js';
import { languageModel } from './providers.js';
import { StepError, modelToolName, runStep, toolSet, type StepOutcome } from './step.js';
import { systemPrompt } from './system-prompt.js';

const MAX_RETRY_DELAY_MS = 30_000;

/** What a step-level usage report needs. */
export interface ActiveModel {
  settings: ModelSettings;
  provider: ProviderSettings;
  model: LanguageModel;
}

/**
 * @example
 * serveAgent(stdioChannel(), { engine: new ModelEngine({ env: process.env }), dataDir });
 */
export class ModelEngine implements TurnEngine {
  readonly kind = 'model';
  readonly title = 'acp-kit agent';
  private settings: AgentSettings;

  constructor(
    private readonly source: {
      env?: Record<string, string | undefined>;
      overrides?: SettingsOverrides;
      logger?: Logger;
    } = {},
  ) {
    this.settings = loadSettings(source.env ?? process.env, source.overrides);
    routeProviderWarnings(source.logger ?? silentLogger);
  }

  get models(): readonly ModelSettings[] {
    return this.settings.models;
  }

  promptCapabilities(): PromptFeatures {
    return { image: this.settings.models.some((m) => m.images), audio: false, embeddedContext: true };
  }

  /** While no model is usable: the setup methods (see `config/setup-acp.ts`). */
  authMethods(client?: ClientFeatures): AuthMethod[] {
    if (this.settings.models.length > 0) return [];
    return setupAuthMethods(client, this.settings.configPath);
  }

  assertReady(client?: ClientFeatures): void {
    if (this.settings.models.length > 0) return;
    throw ProtocolError.authRequired(setupInstructions(this.settings), {
      authMethods: authMethodsData(this.authMethods(client)),
    });
  }

  /** Asks for a setup and writes it, or re-reads the config file (the user may have just written it). */
  async authenticate(methodId: string, ctx: AuthenticateContext): Promise<void> {
    const env = this.source.env ?? process.env;
    await authenticateForSetup(methodId, ctx, {
      configPath: this.settings.configPath,
      env,
      reload: () => {
        this.settings = loadSettings(env, this.source.overrides);
        this.assertReady(ctx.client.features);
      },
    });
  }

  initialConfig(): Record<string, string | boolean> {
    return { model: this.settings.models[0]?.id ?? '' };
  }

  /** The session's model settings, falling back to the default when its model is gone from the configuration. */
  private currentSettings(session: Session): ModelSettings {
    const chosen = session.meta.config.model;
    const settings = this.settings.models.find((m) => m.id === chosen) ?? this.settings.models[0];
    if (!settings) this.assertReady();
    return settings as ModelSettings;
  }

  /** The session's model, ready to call. */
  activeModel(session: Session): ActiveModel {
    const settings = this.currentSettings(session);
    const provider = this.settings.providers.get(settings.provider) as ProviderSettings;
    return { settings, provider, model: languageModel(provider, settings) };
  }

  configOptions(session: Session): ConfigOption[] {
    if (this.settings.models.length === 0) return [];
    return [
      {
        id: 'model',
        name: 'Model',
        category: 'model',
        type: 'select',
        currentValue: this.currentSettings(session).id,
        options: this.settings.models.map((m) => ({
          value: m.id,
          name: m.name,
          description: `${Math.round(m.contextWindow / 1000)}k context${m.images ? ', images' : ''}`,
        })),
      },
    ];
  }

  setConfigOption(session: Session, configId: string, value: string | boolean): boolean {
    if (configId !== 'model' || typeof value !== 'string') return false;
    const model =
      this.settings.models.find((m) => m.id === value) ?? this.settings.models.find((m) => m.model === value);
    if (!model) return false;
    session.meta.config.model = model.id;
    return true;
  }

  helpText(): string {
    return (
      '**acp-kit agent.** Ask for changes in plain words: I explore the project, edit files and run ' +
      'commands, asking your permission as the mode requires.'
    );
  }

  describeModels(session: Session): string {
    const current = this.currentSettings(session).id;
    const list = this.settings.models.map(
      (m) => `- \`${m.id}\`${m.id === current ? ' (current)' : ''}: ${m.name}`,
    );
    return `Models:\n${list.join('\n')}\n\nSwitch with \`/model <id>\`.`;
  }

  async runTurn(turn: Turn): Promise<StopReason> {
    const { session } = turn;
    const active = this.activeModel(session);
    const history = conversation(session.records());
    const user = await userMessage(turn, active.settings);
    if (turn.signal.aborted) return 'cancelled';
    session.record({ type: 'model', message: user });
    const messages: ModelMessage[] = [...history, user];

    for (let step = 1; step <= this.settings.maxSteps; step++) {
      // Mode can change mid-turn (exit_plan_mode), so the offered tools are recomputed per step.
      const offered = toolsForMode(turn.tools.list(), session.mode);
      const byModelName = new Map(offered.map((t) => [modelToolName(t.name), t.name]));
      const outcome = await this.stepWithRetries(turn, active, {
        system: systemPrompt(session),
        messages,
        tools: toolSet(offered),
      });
      if (outcome.assistant) {
        session.record({ type: 'model', message: outcome.assistant });
        messages.push(outcome.assistant);
      }
      await this.reportUsage(session, active.settings, outcome.usage, messages);

      if (outcome.finishReason === 'aborted') {
        this.recordUnanswered(session, outcome);
        return 'cancelled';
      }
      if (outcome.toolCalls.length === 0 || outcome.finishReason === 'length') {
        this.recordUnanswered(session, outcome);
        if (outcome.finishReason === 'length') return 'max_tokens';
        if (outcome.finishReason === 'content-filter') return 'refusal';
        return 'end_turn';
      }

      const results: ToolModelMessage['content'] = [];
      let cancelled = false;
      for (const call of outcome.toolCalls) {
        const name = byModelName.get(call.toolName) ?? call.toolName;
        const result: { status: ToolRunResult['status']; output: string } = cancelled
          ? { status: 'cancelled', output: 'Not run: the turn was cancelled.' }
          : await turn.tools.run(name, call.input, turn.signal);
        cancelled ||= result.status === 'cancelled';
        results.push({
          type: 'tool-result',
          toolCallId: call.toolCallId,
          toolName: call.toolName,
          output:
            result.status === 'completed'
              ? { type: 'text', value: result.output }
              : { type: 'error-text', value: result.output },
        });
      }
      const toolMessage: ToolModelMessage = { role: 'tool', content: results };
      session.record({ type: 'model', message: toolMessage });
      messages.push(toolMessage);
      if (cancelled || turn.signal.aborted) return 'cancelled';
      turn.message.next();
      turn.thought.next();
    }
    return 'max_turn_requests';
  }

  /** Tool calls of an assistant message that ended without running them get a result anyway. */
  private recordUnanswered(session: Session, outcome: StepOutcome): void {
    if (outcome.toolCalls.length === 0) return;
    session.record({
      type: 'model',
      message: {
        role: 'tool',
        content: outcome.toolCalls.map((call) => ({
          type: 'tool-result',
          toolCallId: call.toolCallId,
          toolName: call.toolName,
          output: { type: 'error-text', value: 'Not run: the turn ended first.' },
        })),
      } satisfies ToolModelMessage,
    });
  }

  private async stepWithRetries(
    turn: Turn,
    active: ActiveModel,
    request: { system: string; messages: ModelMessage[]; tools: ReturnType<typeof toolSet> },
  ): Promise<StepOutcome> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await runStep({
          ...request,
          model: active.model,
          maxOutputTokens: active.settings.maxOutputTokens,
          turn,
        });
      } catch (error) {
        const failure = error instanceof StepError ? error : new StepError(error, emptyOutcome(), false);
        const retry = !failure.streamed && isTransient(failure.cause) && attempt <= this.settings.maxRetries;
        if (!retry) {
          // Keep what was streamed in the model's context before failing the prompt.
          if (failure.partial.assistant)
            turn.session.record({ type: 'model', message: failure.partial.assistant });
          this.recordUnanswered(turn.session, failure.partial);
          throw toProtocolError(failure.cause, active.provider, active.settings, attempt);
        }
        const backoff = this.settings.retryBaseDelayMs * 2 ** (attempt - 1) * (1 + Math.random() * 0.2);
        const delay = Math.min(retryAfterMs(failure.cause) ?? backoff, MAX_RETRY_DELAY_MS);
        turn.session.logger.log('info', 'retrying a model request', { attempt, delayMs: Math.round(delay) });
        await abortableDelay(delay, turn.signal).catch(() => undefined);
        if (turn.signal.aborted) return { ...emptyOutcome(), finishReason: 'aborted' };
      }
    }
  }

  /** `usage_update`: tokens now in context (the last request's input plus its output) and cost so far. */
  private async reportUsage(
    session: Session,
    model: ModelSettings,
    usage: LanguageModelUsage | undefined,
    messages: ModelMessage[],
  ): Promise<void> {
    const input = usage?.inputTokens;
    const output = usage?.outputTokens ?? 0;
    // Servers that report no usage get an estimate (about four characters per token).
    const used = input !== undefined ? input + output : Math.round(JSON.stringify(messages).length / 4);
    if (model.price && input !== undefined) {
      const previous = session.meta.cost?.currency === model.price.currency ? session.meta.cost.amount : 0;
      const amount = previous + (input * model.price.input + output * model.price.output) / 1_000_000;
      session.meta.cost = { amount: Math.round(amount * 1e6) / 1e6, currency: model.price.currency };
    }
    await session.emit({
      type: 'usage',
      used,
      size: model.contextWindow,
      cost: session.meta.cost ?? null,
    });
  }

  async compact(turn: Turn, focus: string): Promise<StopReason> {
    const active = this.activeModel(turn.session);
    return compactConversation(turn, active, focus, (error) =>
      toProtocolError(error, active.provider, active.settings, 1),
    );
  }
}

/**
 * The AI SDK prints provider warnings with console.info/warn by default, and console.info is
 * stdout, the protocol channel: route them to our stderr logger instead.
 */
function routeProviderWarnings(logger: Logger): void {
  globalThis.AI_SDK_LOG_WARNINGS = ({ warnings, provider, model }) => {
    for (const warning of warnings)
      logger.log('info', 'model provider warning', { provider, model, warning });
  };
}

function emptyOutcome(): StepOutcome {
  return { assistant: undefined, toolCalls: [], finishReason: 'other', usage: undefined };
}
