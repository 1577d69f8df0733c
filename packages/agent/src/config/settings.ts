/**
 * The model agent's configuration, from (highest first) `acp agent` flags, environment variables
 * and the config file. Secrets are read from the environment (or the user's own config file) and
 * never logged.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { resolveConfigPath } from './paths.js';

export type ProviderType = 'openai-compatible' | 'openai' | 'anthropic';
export const PROVIDER_TYPES: readonly ProviderType[] = ['openai-compatible', 'openai', 'anthropic'];

export interface ProviderSettings {
  id: string;
  type: ProviderType;
  baseUrl?: string;
  apiKey?: string;
  /** Where the key comes from, for messages (`ACP_KIT_API_KEY`), never the key itself. */
  apiKeySource?: string;
  headers?: Record<string, string>;
}

export interface ModelPrice {
  /** Per million input tokens. */
  input: number;
  /** Per million output tokens. */
  output: number;
  currency: string;
}

export interface ModelSettings {
  /** Value of the `model` config option: `<provider>/<model>`. */
  id: string;
  provider: string;
  /** Model name as the API knows it. */
  model: string;
  name: string;
  contextWindow: number;
  images: boolean;
  maxOutputTokens?: number;
  price?: ModelPrice;
}

export interface AgentSettings {
  providers: Map<string, ProviderSettings>;
  /** Models whose provider is usable, default first. */
  models: ModelSettings[];
  maxSteps: number;
  maxRetries: number;
  retryBaseDelayMs: number;
  /** Why configured things are unusable (missing keys, bad config file), for the -32000 message. */
  problems: string[];
  configPath: string;
}

/** Flags that override the environment (a subset of the CLI options). */
export interface SettingsOverrides {
  provider?: string;
  model?: string;
  baseUrl?: string;
  apiKeyEnv?: string;
  config?: string;
  maxSteps?: number;
  contextWindow?: number;
}

const priceSchema = z.object({
  input: z.number().min(0),
  output: z.number().min(0),
  currency: z.string().default('USD'),
});
const configSchema = z.object({
  providers: z
    .record(
      z.string(),
      z.object({
        type: z.enum(['openai-compatible', 'openai', 'anthropic']),
        baseUrl: z.string().url().optional(),
        apiKeyEnv: z.string().optional(),
        apiKey: z.string().optional(),
        headers: z.record(z.string(), z.string()).optional(),
      }),
    )
    .default({}),
  models: z
    .array(
      z.object({
        provider: z.string(),
        model: z.string(),
        name: z.string().optional(),
        contextWindow: z.number().int().positive().optional(),
        images: z.boolean().optional(),
        maxOutputTokens: z.number().int().positive().optional(),
        price: priceSchema.optional(),
      }),
    )
    .default([]),
  defaultModel: z.string().optional(),
  maxSteps: z.number().int().positive().optional(),
  maxRetries: z.number().int().min(0).optional(),
});
type ConfigFile = z.infer<typeof configSchema>;

/** Default model of providers configured by their standard key alone. */
export const DEFAULT_MODELS: Record<'openai' | 'anthropic', string> = {
  openai: 'gpt-5-mini',
  anthropic: 'claude-sonnet-4-5',
};

/** Context window and image support of well-known model families (anything else: 128k, no images). */
function knownCapabilities(model: string): { contextWindow: number; images: boolean } {
  if (/claude/i.test(model)) return { contextWindow: 200_000, images: true };
  if (/gpt-5/i.test(model)) return { contextWindow: 400_000, images: true };
  if (/gpt-4\.1/i.test(model)) return { contextWindow: 1_047_576, images: true };
  if (/gpt-4o|o[34]-/i.test(model)) return { contextWindow: 128_000, images: true };
  return { contextWindow: 128_000, images: false };
}

type Env = Readonly<Record<string, string | undefined>>;

/** What is wrong with a config file's content (`field.path: message`), or undefined when it fits the format. */
export function configProblem(json: unknown): string | undefined {
  const parsed = configSchema.safeParse(json);
  if (parsed.success) return undefined;
  const issue = parsed.error.issues[0];
  return `${issue?.path.join('.') || 'file'}: ${issue?.message ?? 'invalid'}`;
}

function readConfigFile(path: string, problems: string[]): ConfigFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return configSchema.parse({});
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    problems.push(`${path} is not valid JSON (${(error as Error).message})`);
    return configSchema.parse({});
  }
  const problem = configProblem(json);
  if (problem) {
    problems.push(`${path}: ${problem}`);
    return configSchema.parse({});
  }
  return configSchema.parse(json);
}

function positiveInt(value: string | undefined): number | undefined {
  if (!value) return undefined;
  const number = Number(value);
  return Number.isInteger(number) && number > 0 ? number : undefined;
}

/**
 * Reads the configuration.
 *
 * @example
 * const settings = loadSettings(process.env, { model: 'qwen3:8b', baseUrl: 'http://localhost:11434/v1' });
 * if (settings.models.length === 0) console.error(settings.problems.join('\n'));
 */
export function loadSettings(env: Env = process.env, overrides: SettingsOverrides = {}): AgentSettings {
  const problems: string[] = [];
  const configPath = resolveConfigPath(env, overrides.config);
  const file = readConfigFile(configPath, problems);
  const providers = new Map<string, ProviderSettings>();
  const candidates: (Omit<ModelSettings, 'id' | 'name' | 'contextWindow' | 'images'> &
    Partial<ModelSettings>)[] = [];

  for (const [id, p] of Object.entries(file.providers)) {
    const fromEnv = p.apiKeyEnv ? env[p.apiKeyEnv] : undefined;
    providers.set(id, {
      id,
      type: p.type,
      baseUrl: p.baseUrl,
      apiKey: fromEnv || p.apiKey,
      apiKeySource: p.apiKeyEnv ?? (p.apiKey ? configPath : undefined),
      headers: p.headers,
    });
  }
  for (const m of file.models) candidates.push({ ...m });

  // Flags and ACP_KIT_* variables: one provider, listed first.
  const explicitModels = (overrides.model ?? env.ACP_KIT_MODEL ?? '')
    .split(',')
    .map((m) => m.trim())
    .filter(Boolean);
  const explicitBase = overrides.baseUrl ?? env.ACP_KIT_BASE_URL;
  const explicitType = overrides.provider ?? env.ACP_KIT_PROVIDER;
  const explicit: typeof candidates = [];
  if (explicitModels.length > 0 || explicitBase || explicitType) {
    const type = (explicitType ?? 'openai-compatible') as ProviderType;
    if (!PROVIDER_TYPES.includes(type)) {
      problems.push(
        `Unknown provider "${type}": use openai-compatible, openai or anthropic (ACP_KIT_PROVIDER or --provider)`,
      );
    } else {
      const keyVar = overrides.apiKeyEnv ?? 'ACP_KIT_API_KEY';
      const standardVar =
        type === 'openai' ? 'OPENAI_API_KEY' : type === 'anthropic' ? 'ANTHROPIC_API_KEY' : undefined;
      const apiKey = env[keyVar] || (standardVar ? env[standardVar] : undefined);
      const id = type === 'openai-compatible' ? 'custom' : type;
      providers.set(id, {
        id,
        type,
        baseUrl: explicitBase,
        apiKey,
        apiKeySource: env[keyVar] ? keyVar : standardVar,
      });
      const names =
        explicitModels.length > 0
          ? explicitModels
          : type === 'openai-compatible'
            ? []
            : [DEFAULT_MODELS[type]];
      if (names.length === 0)
        problems.push('Set ACP_KIT_MODEL (or --model) to the model name your server serves');
      if (type === 'openai-compatible' && !explicitBase) {
        problems.push(
          'Set ACP_KIT_BASE_URL (or --base-url) to your OpenAI-compatible server, e.g. http://localhost:11434/v1',
        );
      }
      for (const model of names) {
        explicit.push({
          provider: id,
          model,
          contextWindow: overrides.contextWindow ?? positiveInt(env.ACP_KIT_CONTEXT_WINDOW),
        });
      }
    }
  }

  // The providers' standard keys alone are enough to start.
  for (const type of ['openai', 'anthropic'] as const) {
    const variable = type === 'openai' ? 'OPENAI_API_KEY' : 'ANTHROPIC_API_KEY';
    if (!env[variable] || providers.has(type)) continue;
    const baseVar = type === 'openai' ? 'OPENAI_BASE_URL' : 'ANTHROPIC_BASE_URL';
    providers.set(type, {
      id: type,
      type,
      apiKey: env[variable],
      apiKeySource: variable,
      baseUrl: env[baseVar] || undefined,
    });
    const modelVar = type === 'openai' ? 'OPENAI_MODEL' : 'ANTHROPIC_MODEL';
    if (!candidates.some((m) => m.provider === type))
      candidates.push({ provider: type, model: env[modelVar] || DEFAULT_MODELS[type] });
  }

  const models: ModelSettings[] = [];
  for (const candidate of [...explicit, ...candidates]) {
    const provider = providers.get(candidate.provider);
    if (!provider) {
      problems.push(`Model ${candidate.model} names an unknown provider "${candidate.provider}"`);
      continue;
    }
    if (provider.type !== 'openai-compatible' && !provider.apiKey) {
      const variable =
        provider.apiKeySource ?? (provider.type === 'openai' ? 'OPENAI_API_KEY' : 'ANTHROPIC_API_KEY');
      problems.push(`${provider.id}: set ${variable} to use ${candidate.model}`);
      continue;
    }
    if (provider.type === 'openai-compatible' && !provider.baseUrl) continue;
    const known = knownCapabilities(candidate.model);
    const id = `${provider.id}/${candidate.model}`;
    if (models.some((m) => m.id === id)) continue;
    models.push({
      id,
      provider: provider.id,
      model: candidate.model,
      name: candidate.name ?? `${candidate.model} (${provider.id})`,
      contextWindow: candidate.contextWindow ?? known.contextWindow,
      images: candidate.images ?? (env.ACP_KIT_IMAGES === '1' || known.images),
      maxOutputTokens: candidate.maxOutputTokens,
      price: candidate.price,
    });
  }
  const preferred =
    file.defaultModel && explicit.length === 0
      ? models.findIndex((m) => m.id === file.defaultModel || m.model === file.defaultModel)
      : -1;
  if (preferred > 0) models.unshift(...models.splice(preferred, 1));

  return {
    providers,
    models,
    maxSteps: overrides.maxSteps ?? positiveInt(env.ACP_KIT_MAX_STEPS) ?? file.maxSteps ?? 50,
    maxRetries: positiveIntOrZero(env.ACP_KIT_MAX_RETRIES) ?? file.maxRetries ?? 3,
    retryBaseDelayMs: positiveIntOrZero(env.ACP_KIT_RETRY_DELAY_MS) ?? 1000,
    problems,
    configPath,
  };
}

function positiveIntOrZero(value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const number = Number(value);
  return Number.isInteger(number) && number >= 0 ? number : undefined;
}

/**
 * What the user must do to get a model, as one message for the -32000 answer to `session/new`
 * (error messages are cut at 512 characters on the wire: the ways out come first).
 */
export function setupInstructions(settings: AgentSettings): string {
  const lines = [
    'No model is configured for the acp-kit agent. Sign in from your client to set one up, or run `acp agent setup`.',
    'Or set ACP_KIT_BASE_URL and ACP_KIT_MODEL (+ ACP_KIT_API_KEY) for an OpenAI-compatible server, OPENAI_API_KEY, or ANTHROPIC_API_KEY, and restart the agent.',
    `Config file: ${settings.configPath}`,
  ];
  if (settings.problems.length > 0) lines.push('Problems found:', ...settings.problems.map((p) => `- ${p}`));
  return lines.join('\n');
}
