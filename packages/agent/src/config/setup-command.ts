/**
 * `acp agent setup`: asks for provider, base URL, model and API key on a terminal (flags answer
 * instead, and are required without one), writes the config file and shows it, key masked. This
 * is also what a client runs for the `acp-kit-setup-terminal` sign-in method.
 */
import { read } from 'read';
import { resolveConfigPath } from './paths.js';
import { DEFAULT_MODELS, PROVIDER_TYPES, type ProviderType } from './settings.js';
import {
  PROVIDER_TITLES,
  STANDARD_KEY_VARIABLES,
  SUGGESTED_BASE_URL,
  SetupError,
  parseProvider,
  setupProblems,
  withStandardKey,
  writeSetup,
  type SetupAnswers,
} from './setup-file.js';

/** Options of `acp agent setup` (with those of `acp agent` it shares). */
export interface AgentSetupOptions {
  provider?: string;
  baseUrl?: string;
  model?: string;
  /** Store this variable's name as the key's source instead of a key. */
  apiKeyEnv?: string;
  /** Read the key from stdin (keys are never flags: they would show in process listings). */
  apiKeyStdin?: boolean;
  config?: string;
}

/** The terminal and environment setup works with (the process's by default). */
export interface SetupIo {
  input: NodeJS.ReadableStream & { isTTY?: boolean };
  output: NodeJS.WritableStream & { isTTY?: boolean };
  errors: { write(text: string): unknown };
  env: Readonly<Record<string, string | undefined>>;
}

/** Exit codes: as `acp` uses them. */
const OK = 0;
const FAILED = 1;
const USAGE = 2;
const INTERRUPTED = 130;

/** Raised for input that setup cannot use; the message says what to do. */
class UsageError extends Error {}

/** The second line of a usage error (errors are `acp: …` then `hint: …`, as every acp command's). */
const USAGE_HINT =
  'without a terminal: acp agent setup --provider openai-compatible|openai|anthropic ' +
  '[--base-url URL] [--model NAME] [--api-key-env VAR | --api-key-stdin] [--config FILE]';

/**
 * Runs the setup; resolves with the exit code (0 written, 1 not written, 2 bad usage, 130 Ctrl-C).
 *
 * @example
 * process.exitCode = await runAgentSetup({ provider: 'openai-compatible', baseUrl: 'http://localhost:11434/v1', model: 'qwen3:8b' });
 */
export async function runAgentSetup(options: AgentSetupOptions, io: SetupIo = processIo()): Promise<number> {
  const path = resolveConfigPath(io.env, options.config);
  try {
    const answers = await collect(options, io, path);
    const result = writeSetup(path, answers);
    io.output.write(
      `\nWrote ${result.path}${result.holdsKey ? ' (mode 0600: it holds your API key)' : ''}:\n${result.shown}\n\n` +
        `Default model: ${result.modelId}. Start the agent with \`acp agent\`, or sign in again from your client.\n`,
    );
    return OK;
  } catch (error) {
    if (error instanceof Error && error.message === 'canceled') {
      io.errors.write('\nacp agent setup: cancelled; nothing was written.\n');
      return INTERRUPTED;
    }
    if (error instanceof UsageError) {
      io.errors.write(`acp: agent setup: ${error.message}\nhint: ${USAGE_HINT}\n`);
      return USAGE;
    }
    if (error instanceof SetupError) {
      io.errors.write(`acp: agent setup: ${error.message}\nhint: see \`acp agent setup --help\`\n`);
      return FAILED;
    }
    throw error;
  }
}

function processIo(): SetupIo {
  return { input: process.stdin, output: process.stdout, errors: process.stderr, env: process.env };
}

/** The answers, from flags first, then from questions on a terminal. */
async function collect(options: AgentSetupOptions, io: SetupIo, path: string): Promise<SetupAnswers> {
  const terminal = Boolean(io.input.isTTY && io.output.isTTY) && !options.apiKeyStdin;
  const ask = (prompt: string, fallback?: string, silent = false): Promise<string> =>
    read({
      prompt,
      default: fallback,
      silent,
      replace: silent ? '*' : undefined,
      input: io.input,
      output: io.output,
    }).then((answer) => answer.trim());
  if (terminal) io.output.write(`Set up the acp-kit agent's model; the answers are written to ${path}.\n\n`);

  let provider: ProviderType | undefined;
  if (options.provider !== undefined) {
    provider = parseProvider(options.provider);
    if (!provider)
      throw new UsageError(`unknown provider "${options.provider}": use ${PROVIDER_TYPES.join(', ')}`);
  } else if (terminal) {
    provider = await askProvider(io, ask);
  } else if (options.baseUrl !== undefined || options.model !== undefined) {
    provider = 'openai-compatible';
  } else {
    throw new UsageError('no terminal to ask on: give at least --provider (or --base-url and --model)');
  }

  const compatible = provider === 'openai-compatible';
  const answers: SetupAnswers = { provider, baseUrl: options.baseUrl, model: options.model };
  if (terminal && answers.baseUrl === undefined) {
    answers.baseUrl = await askUntil(
      () =>
        ask(
          compatible ? 'Base URL:' : 'Base URL (empty for the default endpoint):',
          compatible ? SUGGESTED_BASE_URL : undefined,
        ),
      (baseUrl) => setupProblems({ provider: 'openai', baseUrl, apiKey: 'x' }),
      io,
    );
  }
  if (terminal && answers.model === undefined) {
    const fallback = compatible ? undefined : DEFAULT_MODELS[provider as 'openai' | 'anthropic'];
    answers.model = await askUntil(
      () => ask('Model:', fallback),
      (model) => (model ? [] : ['Name the model your server serves (for example qwen3:8b).']),
      io,
    );
  }
  if (options.apiKeyEnv !== undefined) answers.apiKeyEnv = options.apiKeyEnv;
  else if (options.apiKeyStdin) answers.apiKey = (await readAll(io.input)).trim() || undefined;
  else if (terminal) answers.apiKey = (await askKey(provider, io, ask)) || undefined;

  const complete = withStandardKey(answers, io.env);
  const problems = setupProblems(complete);
  if (problems.length > 0) throw new UsageError(problems.join(' '));
  return complete;
}

type Ask = (prompt: string, fallback?: string, silent?: boolean) => Promise<string>;

async function askProvider(io: SetupIo, ask: Ask): Promise<ProviderType> {
  io.output.write('Provider:\n');
  PROVIDER_TYPES.forEach((type, i) => io.output.write(`  ${i + 1}) ${PROVIDER_TITLES[type]}\n`));
  const choice = await askUntil(
    () => ask(`Choose 1-${PROVIDER_TYPES.length}:`, '1'),
    (answer) =>
      PROVIDER_TYPES[Number(answer) - 1] ? [] : [`Type a number from 1 to ${PROVIDER_TYPES.length}.`],
    io,
  );
  return PROVIDER_TYPES[Number(choice) - 1] as ProviderType;
}

async function askKey(provider: ProviderType, io: SetupIo, ask: Ask): Promise<string> {
  if (provider === 'openai-compatible')
    return ask('API key (empty if the server needs none; not shown):', undefined, true);
  const variable = STANDARD_KEY_VARIABLES[provider];
  if (io.env[variable]) return ask(`API key (empty to use $${variable}; not shown):`, undefined, true);
  return askUntil(
    () => ask('API key (not shown):', undefined, true),
    (key) => (key ? [] : [`${PROVIDER_TITLES[provider]} needs an API key.`]),
    io,
  );
}

/** Asks again while `problems` finds some (a person at a terminal mistypes). */
async function askUntil(
  question: () => Promise<string>,
  problems: (answer: string) => string[],
  io: SetupIo,
): Promise<string> {
  for (;;) {
    const answer = await question();
    const found = problems(answer);
    if (found.length === 0) return answer;
    io.output.write(`${found.join(' ')}\n`);
  }
}

async function readAll(input: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of input)
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}
