/**
 * The flags and description of `acp agent`, apart from the agent itself: the CLI registers them
 * at every start, and this module imports nothing, so that costs nothing.
 */

import type { AgentSetupOptions } from './config/setup-command.js';

export type { AgentSetupOptions };

/** Options of `acp agent` (commander's camelCase names of {@link agentCliOptions}). */
export interface AgentCliOptions {
  /** Run the model-free demo agent. */
  demo?: boolean;
  /** `openai-compatible` (default), `openai` or `anthropic`. Overrides `ACP_KIT_PROVIDER`. */
  provider?: string;
  /** Model id(s), comma-separated; the first is the default. Overrides `ACP_KIT_MODEL`. */
  model?: string;
  /** Base URL of the provider's API. Overrides `ACP_KIT_BASE_URL`. */
  baseUrl?: string;
  /** Name of the environment variable holding the API key (default `ACP_KIT_API_KEY`). */
  apiKeyEnv?: string;
  /** Path of the config file (default: see `resolveConfigPath`). */
  config?: string;
  /** Where sessions are stored (default: see `resolveDataDir`). */
  dataDir?: string;
  /** Most model steps (requests) per prompt turn before stopping with `max_turn_requests`. */
  maxSteps?: number;
  /** Context window of the model in tokens, for `usage_update.size`. */
  contextWindow?: number;
  /** Pause between streamed words of the demo agent, in milliseconds. */
  demoDelay?: number;
  /** Diagnostics on stderr: `error`, `warn` (default), `info`, `debug` or `off`. */
  logLevel?: string;
}

/** One flag of `acp agent`, ready for commander's `.option(flags, description, parse)`. */
export interface AgentCliOptionSpec {
  flags: string;
  description: string;
  /** Converts the flag's text (numeric flags). */
  parse?: (value: string) => number;
}

function parsePositive(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number <= 0)
    throw new Error(`expected a positive whole number, got "${value}"`);
  return number;
}

function parseNonNegative(value: string): number {
  const number = Number(value);
  if (!Number.isFinite(number) || number < 0) throw new Error(`expected a number ≥ 0, got "${value}"`);
  return number;
}

/** The flags of `acp agent`, for the CLI to register. */
export const agentCliOptions: readonly AgentCliOptionSpec[] = [
  { flags: '--demo', description: 'run the demo agent: scripted turns on your files, no model needed' },
  {
    flags: '--provider <name>',
    description: 'model provider: openai-compatible (default), openai or anthropic',
  },
  { flags: '--model <ids>', description: 'model id, or several comma-separated (the first is the default)' },
  { flags: '--base-url <url>', description: 'base URL of the model API (Ollama: http://localhost:11434/v1)' },
  {
    flags: '--api-key-env <name>',
    description: 'environment variable holding the API key (default ACP_KIT_API_KEY)',
  },
  {
    flags: '--config <path>',
    description: 'config file (default ACP_KIT_AGENT_CONFIG_FILE, else agent.json in the acp-kit config dir)',
  },
  {
    flags: '--data-dir <path>',
    description:
      'where sessions are stored (default ACP_KIT_AGENT_DATA_DIR, else the acp-kit data dir/agent)',
  },
  {
    flags: '--max-steps <n>',
    description: 'most model requests per prompt (default 50)',
    parse: parsePositive,
  },
  {
    flags: '--context-window <tokens>',
    description: 'context window of the model in tokens',
    parse: parsePositive,
  },
  {
    flags: '--demo-delay <ms>',
    description: 'pause between streamed words of the demo (default 30; 0 streams at once)',
    parse: parseNonNegative,
  },
  {
    flags: '--log-level <level>',
    description:
      'stderr diagnostics: error, warn (default), info, debug, off (default ACP_KIT_AGENT_LOG_LEVEL)',
  },
];

/** A short description of `acp agent` for help output. */
export const agentCliDescription =
  'Serve the acp-kit coding agent over ACP on stdin/stdout (for Zed, Neovim, Emacs, acp…). ' +
  'Configure a model with `acp agent setup` (or ACP_KIT_MODEL / ACP_KIT_BASE_URL / ACP_KIT_API_KEY, ' +
  'OPENAI_API_KEY or ANTHROPIC_API_KEY), or try --demo.';

/** A short description of `acp agent setup` for help output. */
export const agentSetupDescription =
  'Configure the model: asks for provider, base URL, model and API key (on a terminal; flags answer ' +
  'instead) and writes the config file, mode 0600 when it holds a key. Takes --provider, --base-url, ' +
  '--model, --api-key-env and --config of `acp agent`.';

/** The flags of `acp agent` that `acp agent setup` answers its questions with. */
const SETUP_SHARED = new Set(['--provider', '--model', '--base-url', '--api-key-env', '--config']);

/** The flags of `acp agent setup`: those of `acp agent` it shares, and its own. */
export const agentSetupOptions: readonly AgentCliOptionSpec[] = [
  ...agentCliOptions.filter((option) => SETUP_SHARED.has(option.flags.split(' ')[0] as string)),
  {
    flags: '--api-key-stdin',
    description: 'read the API key from stdin (keys are never flags: they would show in process listings)',
  },
];

/** Examples for `acp agent setup --help`. */
export const agentSetupHelp = `
Examples:
  acp agent setup                                   # asks, on a terminal
  acp agent setup --provider openai-compatible --base-url http://localhost:11434/v1 --model qwen3:8b
  acp agent setup --provider openai-compatible --base-url https://openrouter.ai/api/v1 \\
    --model deepseek/deepseek-chat-v3.1 --api-key-env OPENROUTER_API_KEY
  printf %s "$KEY" | acp agent setup --provider anthropic --api-key-stdin

Other providers and models in the file are kept; the one set up becomes the default model.`;
