/**
 * First-run setup through ACP: the sign-in methods the model agent advertises while no model is
 * configured, and the form it asks with (`elicitation/create`) when the client can show one.
 *
 * - `acp-kit-setup` (agent method, only for clients with `elicitation.form`): a form for provider,
 *   base URL, model and API key; the answers are written to the config file.
 * - `acp-kit-setup-terminal` (`type: "terminal"`, only for clients with `auth.terminal`): the
 *   client runs the agent's command again with `setup` appended, i.e. `acp agent setup`.
 * - `acp-kit-configure-model` (agent method, always): reads the config file again.
 */
import { ProtocolError } from '@acp-kit/protocol';
import type { ClientFeatures, ClientPort, FormQuestion } from '../core/client-port.js';
import type { AuthMethod } from '../core/events.js';
import { invalidParams } from '../util/errors.js';
import { PROVIDER_TYPES } from './settings.js';
import {
  PROVIDER_TITLES,
  parseProvider,
  SUGGESTED_BASE_URL,
  SetupError,
  setupProblems,
  withStandardKey,
  writeSetup,
  type SetupAnswers,
} from './setup-file.js';

export const SETUP_FORM_METHOD = 'acp-kit-setup';
export const SETUP_TERMINAL_METHOD = 'acp-kit-setup-terminal';
export const RELOAD_METHOD = 'acp-kit-configure-model';
/** Forms asked before giving up on answers that cannot be used. */
const MAX_FORMS = 3;

/** What a sign-in (`authenticate`, `auth/login`) gets from the connection. */
export interface AuthenticateContext {
  client: ClientPort;
  /** The sign-in request's id (a form is tied to it). */
  requestId: string | number;
  signal: AbortSignal;
}

/** The sign-in methods for a client that can do `client`, given where the config file is. */
export function setupAuthMethods(client: ClientFeatures | undefined, configPath: string): AuthMethod[] {
  const methods: AuthMethod[] = [];
  if (client?.forms) {
    methods.push({
      id: SETUP_FORM_METHOD,
      name: 'Set up a model',
      description: `Asks for provider, base URL, model and API key, and writes them to ${configPath}.`,
    });
  }
  if (client?.terminalAuth) {
    methods.push({
      id: SETUP_TERMINAL_METHOD,
      name: 'Set up in a terminal',
      terminal: { args: ['setup'] },
      description: `Runs \`acp agent setup\`, which asks for provider, base URL, model and API key and writes ${configPath}.`,
    });
  }
  methods.push({
    id: RELOAD_METHOD,
    name: 'Configure a model',
    description: `Reads ${configPath} again, after \`acp agent setup\` or an edit. Environment variables need a restart.`,
  });
  return methods;
}

/** What the -32000 error's `data.authMethods` carries: enough to act on, small (error data is capped at 1 KiB). */
export function authMethodsData(methods: readonly AuthMethod[]): Record<string, unknown>[] {
  return methods.map((m) => {
    const { id, name } = m;
    const terminal = m.terminal ? { type: 'terminal', args: m.terminal.args } : {};
    return { id, name, ...terminal };
  });
}

/** Everything {@link authenticateForSetup} needs from the engine. */
export interface SetupTarget {
  configPath: string;
  env: Readonly<Record<string, string | undefined>>;
  /** Reads the configuration again and throws -32000 when there is still no model. */
  reload(): void;
}

/**
 * `authenticate` for the setup methods. Throws -32602 for a method that is not ours (or the
 * terminal one, which clients run themselves), -32000 when the user declined or no model works.
 */
export async function authenticateForSetup(
  methodId: string,
  ctx: AuthenticateContext,
  target: SetupTarget,
): Promise<void> {
  if (methodId === RELOAD_METHOD) return target.reload();
  if (methodId === SETUP_TERMINAL_METHOD) {
    throw invalidParams(`${SETUP_TERMINAL_METHOD} is a terminal method: run \`acp agent setup\` instead`);
  }
  if (methodId !== SETUP_FORM_METHOD) throw invalidParams(`Unknown authentication method ${methodId}`);
  if (!ctx.client.features.forms) {
    throw invalidParams(`${SETUP_FORM_METHOD} needs a client that shows forms (elicitation.form)`);
  }
  let problems: string[] = [];
  for (let attempt = 1; attempt <= MAX_FORMS; attempt++) {
    const answers = await askForm(ctx, target, problems);
    problems = typeof answers === 'string' ? [answers] : setupProblems(answers);
    if (typeof answers === 'string' || problems.length > 0) continue;
    try {
      writeSetup(target.configPath, answers);
    } catch (error) {
      if (!(error instanceof SetupError)) throw error;
      throw ProtocolError.authRequired(error.message);
    }
    return target.reload();
  }
  throw ProtocolError.authRequired(
    `Setup gave up after ${MAX_FORMS} forms: ${problems.join(' ')} Nothing was written.`,
  );
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;

/**
 * Shows the setup form once: the answers, a problem with them that the form cannot check, or
 * -32000 when the user declined or cancelled.
 */
async function askForm(
  ctx: AuthenticateContext,
  target: SetupTarget,
  problems: string[],
): Promise<SetupAnswers | string> {
  const intro = `No model is configured for the acp-kit agent. Your answers are written to ${target.configPath} (mode 0600 when it holds a key).`;
  const question: FormQuestion = {
    requestId: ctx.requestId,
    message: problems.length > 0 ? `${problems.join(' ')}\n\n${intro}` : intro,
    schema: {
      type: 'object',
      title: 'Set up a model',
      properties: {
        provider: {
          type: 'string',
          title: 'Provider',
          oneOf: PROVIDER_TYPES.map((type) => ({ const: type, title: PROVIDER_TITLES[type] })),
          default: 'openai-compatible',
        },
        baseUrl: {
          type: 'string',
          title: 'Base URL',
          description: `Of an OpenAI-compatible server, e.g. ${SUGGESTED_BASE_URL} (Ollama); leave empty for OpenAI and Anthropic.`,
        },
        model: {
          type: 'string',
          title: 'Model',
          description:
            'As the API names it, e.g. qwen3:8b; empty for OpenAI (gpt-5-mini) and Anthropic (claude-sonnet-4-5).',
        },
        apiKey: {
          type: 'string',
          title: 'API key',
          description:
            'Empty for a local server, or to use OPENAI_API_KEY / ANTHROPIC_API_KEY from the environment.',
        },
      },
      required: ['provider'],
    },
  };
  const response = await ctx.client.askForm(question, ctx.signal);
  if (response.action !== 'accept') {
    throw ProtocolError.authRequired(
      'Setup was cancelled; nothing was written. Run `acp agent setup` in a terminal, or sign in again.',
    );
  }
  const content = response.content ?? {};
  const provider = parseProvider(text(content.provider) ?? 'openai-compatible');
  if (!provider) return `Choose one of the providers offered: ${PROVIDER_TYPES.join(', ')}.`;
  const answers = {
    provider,
    baseUrl: text(content.baseUrl),
    model: text(content.model),
    apiKey: text(content.apiKey),
  };
  return withStandardKey(answers, target.env);
}
