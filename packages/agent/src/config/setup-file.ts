/**
 * First-run setup, the part both ways in share (`acp agent setup` and the ACP sign-in methods):
 * checking the answers, merging them into the config file, and showing what was written with the
 * key masked. The file is replaced atomically, with mode 0600 when it holds a key.
 */
import { randomUUID } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DEFAULT_MODELS, PROVIDER_TYPES, configProblem, type ProviderType } from './settings.js';

/** What the user chose. */
export interface SetupAnswers {
  provider: ProviderType;
  /** Required for `openai-compatible`; the provider's default endpoint otherwise. */
  baseUrl?: string;
  /** Defaults to the provider's default model for `openai` and `anthropic`. */
  model?: string;
  /** Stored in the file (mode 0600). */
  apiKey?: string;
  /** Stored as a reference: the variable that holds the key. */
  apiKeyEnv?: string;
}

/** Thrown for answers or a config file that setup cannot use; nothing is written then. */
export class SetupError extends Error {
  override readonly name = 'SetupError';
}

/** A human name per provider type, for prompts and forms. */
export const PROVIDER_TITLES: Record<ProviderType, string> = {
  'openai-compatible': 'OpenAI-compatible server (Ollama, vLLM, llama.cpp, LM Studio, OpenRouter…)',
  openai: 'OpenAI',
  anthropic: 'Anthropic',
};

/** Where people usually point an OpenAI-compatible setup first: a local Ollama. */
export const SUGGESTED_BASE_URL = 'http://localhost:11434/v1';

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The variable that holds each hosted provider's key by convention. */
export const STANDARD_KEY_VARIABLES = { openai: 'OPENAI_API_KEY', anthropic: 'ANTHROPIC_API_KEY' } as const;

/**
 * `answers` with the provider's conventional key variable as the key's source, when no key was
 * given and that variable is set (the file then names the variable, never holds its value).
 */
export function withStandardKey(
  answers: SetupAnswers,
  env: Readonly<Record<string, string | undefined>>,
): SetupAnswers {
  if (answers.apiKey || answers.apiKeyEnv || answers.provider === 'openai-compatible') return answers;
  const variable = STANDARD_KEY_VARIABLES[answers.provider];
  return env[variable] ? { ...answers, apiKeyEnv: variable } : answers;
}

/** Parses a provider name as typed (`openai-compatible`, `openai`, `anthropic`). */
export function parseProvider(value: string): ProviderType | undefined {
  const name = value.trim().toLowerCase();
  return (PROVIDER_TYPES as readonly string[]).includes(name) ? (name as ProviderType) : undefined;
}

/** What is wrong with `answers` (empty when they can be written), as sentences. */
export function setupProblems(answers: SetupAnswers): string[] {
  const problems: string[] = [];
  const baseUrl = answers.baseUrl?.trim();
  if (answers.provider === 'openai-compatible' && !baseUrl) {
    problems.push(`An OpenAI-compatible server needs its base URL, e.g. ${SUGGESTED_BASE_URL}.`);
  }
  if (baseUrl) {
    let url: URL | undefined;
    try {
      url = new URL(baseUrl);
    } catch {
      // reported below
    }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
      problems.push(`"${baseUrl}" is not an http:// or https:// URL.`);
  }
  if (answers.provider === 'openai-compatible' && !answers.model?.trim()) {
    problems.push('Name the model your server serves (for example qwen3:8b).');
  }
  if (answers.provider !== 'openai-compatible' && !answers.apiKey?.trim() && !answers.apiKeyEnv) {
    const variable = STANDARD_KEY_VARIABLES[answers.provider];
    problems.push(`${PROVIDER_TITLES[answers.provider]} needs an API key: give it, or set ${variable}.`);
  }
  if (answers.apiKeyEnv !== undefined && !ENV_NAME.test(answers.apiKeyEnv)) {
    problems.push(`"${answers.apiKeyEnv}" is not an environment variable name.`);
  }
  if (answers.apiKey !== undefined && /\s/.test(answers.apiKey.trim())) {
    problems.push('The API key contains spaces or line breaks: paste only the key.');
  }
  return problems;
}

/** `sk-…f9c2` style: enough to recognise a key, never enough to use it. */
export function maskKey(key: string): string {
  return key.length >= 16 ? `${key.slice(0, 3)}…${key.slice(-4)}` : '••••';
}

type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The existing config file as an object ({} when there is none); throws when it is not usable. */
function readExisting(path: string): JsonObject {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new SetupError(`Cannot read ${path}: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new SetupError(
      `${path} is not valid JSON (${(error as Error).message}); fix or move it, then run setup again. Nothing was written.`,
    );
  }
  if (!isObject(json)) throw new SetupError(`${path} does not hold a JSON object; nothing was written.`);
  return json;
}

/** The result of {@link writeSetup}. */
export interface SetupResult {
  path: string;
  /** `<provider>/<model>`, now the default model. */
  modelId: string;
  /** Whether the file holds a key (and so has mode 0600). */
  holdsKey: boolean;
  /** The file's content as written, keys masked: safe to show. */
  shown: string;
}

/**
 * Adds (or replaces) the chosen provider in the config file at `path` — other providers, models
 * and settings are kept — and makes its model the default. Throws {@link SetupError} for invalid
 * answers or an unreadable file, before writing anything.
 *
 * @example
 * const { shown } = writeSetup(resolveConfigPath(), { provider: 'openai-compatible', baseUrl: 'http://localhost:11434/v1', model: 'qwen3:8b' });
 */
export function writeSetup(path: string, answers: SetupAnswers): SetupResult {
  const problems = setupProblems(answers);
  if (problems.length > 0) throw new SetupError(problems.join(' '));
  const config = readExisting(path);
  const providerId = answers.provider;
  const model = answers.model?.trim() || DEFAULT_MODELS[answers.provider as 'openai' | 'anthropic'];
  const provider: JsonObject = { type: answers.provider };
  const baseUrl = answers.baseUrl?.trim();
  if (baseUrl) provider.baseUrl = baseUrl;
  if (answers.apiKeyEnv) provider.apiKeyEnv = answers.apiKeyEnv;
  else if (answers.apiKey?.trim()) provider.apiKey = answers.apiKey.trim();
  const providers = isObject(config.providers) ? config.providers : {};
  const models = Array.isArray(config.models) ? config.models : [];
  config.providers = { ...providers, [providerId]: provider };
  config.models = [
    { provider: providerId, model },
    ...models.filter((m) => !(isObject(m) && m.provider === providerId)),
  ];
  config.defaultModel = `${providerId}/${model}`;
  const problem = configProblem(config);
  if (problem) throw new SetupError(`${path}: ${problem}; nothing was written.`);
  const holdsKey = Object.values(config.providers as JsonObject).some(
    (p) => isObject(p) && typeof p.apiKey === 'string',
  );
  writeAtomically(path, `${JSON.stringify(config, null, 2)}\n`, holdsKey);
  return {
    path,
    modelId: `${providerId}/${model}`,
    holdsKey,
    shown: JSON.stringify(masked(config), null, 2),
  };
}

/** A copy of the config with every `apiKey` masked. */
function masked(config: JsonObject): JsonObject {
  const providers: JsonObject = {};
  for (const [id, p] of Object.entries(config.providers as JsonObject)) {
    providers[id] = isObject(p) && typeof p.apiKey === 'string' ? { ...p, apiKey: maskKey(p.apiKey) } : p;
  }
  return { ...config, providers };
}

/**
 * Writes a temp file next to `path`, then renames it over: never half a file. A file holding a key
 * gets mode 0600 from its creation on; another one the usual mode (umask applies).
 */
function writeAtomically(path: string, text: string, secret: boolean): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const temp = join(dirname(path), `.agent.json.${randomUUID()}.tmp`);
  try {
    writeFileSync(temp, text, { mode: secret ? 0o600 : 0o666, flag: 'wx' });
    // A umask can only remove bits, but say exactly what a secret file gets.
    if (secret) chmodSync(temp, 0o600);
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw new SetupError(`Cannot write ${path}: ${(error as Error).message}`);
  }
}
