/**
 * Authentication methods as the user needs to see them. Agents advertise them in `initialize`
 * (`authMethods`) or in the `data.authMethods` of a -32000 error, in the stable shapes (agent
 * methods through `authenticate`; `type: "terminal"` run interactively) and in shapes seen in the
 * wild: `type: "env_var"` with `vars`, `_meta["terminal-auth"] {command, args, label}`,
 * `_meta["api-key"]` and `_meta.gateway`.
 */
import { quoteArgv, quoteWord } from '../permissions/shell-words.js';
import { isSecretKey, redactString } from '../persistence/redact.js';
import { isRecord, isStringArray } from '../util/json-file.js';
import type { LaunchSpec } from '../catalog/types.js';

/** What carrying out a method takes. */
export type AuthAction =
  /** Call `authenticate` with the method id (the agent does the work, e.g. opens a browser). */
  | 'authenticate'
  /** Run a command interactively in the user's terminal, then reconnect. */
  | 'run-terminal'
  /** The user must do something outside acp (set variables, configure the agent). */
  | 'user';

/** One way to authenticate, explained. */
export interface AuthOption {
  id: string;
  name: string;
  description?: string;
  /** The method's shape. */
  kind: 'agent' | 'terminal' | 'env_var' | 'meta-terminal' | 'api-key' | 'gateway';
  action: AuthAction;
  /** One sentence telling the user exactly what to do. */
  instructions: string;
  /** The command to run interactively (`run-terminal`). */
  run?: { command: string; args: string[]; env: Record<string, string>; label?: string };
  /** Environment variables to set (`env_var`, `api-key`). */
  vars?: { name: string; label?: string; optional?: boolean }[];
  /**
   * A secret the user types and the client passes in `authenticate`'s `_meta` (the
   * `_meta["api-key"]` convention: `{ "api-key": "<key>" }`); never stored by acp.
   */
  input?: { field: 'api-key'; label: string };
  link?: string;
}

/**
 * Explains raw auth methods. `agent` is how the agent is launched (terminal methods append their
 * args to it). Unusable entries are skipped.
 *
 * @example
 * for (const option of describeAuthMethods(error.data.authMethods, entry)) console.log(option.instructions);
 */
export function describeAuthMethods(methods: unknown, agent: LaunchSpec): AuthOption[] {
  if (!Array.isArray(methods)) return [];
  const out: AuthOption[] = [];
  for (const raw of methods) {
    const option = describeOne(raw, agent);
    if (option) out.push(option);
  }
  return out;
}

function describeOne(raw: unknown, agent: LaunchSpec): AuthOption | undefined {
  if (!isRecord(raw) || typeof raw.id !== 'string' || raw.id === '') return undefined;
  const base = {
    id: raw.id,
    name: typeof raw.name === 'string' && raw.name !== '' ? raw.name : raw.id,
    ...(typeof raw.description === 'string' && raw.description !== ''
      ? { description: raw.description }
      : {}),
  };
  const meta = isRecord(raw._meta) ? raw._meta : {};
  const type = typeof raw.type === 'string' ? raw.type : 'agent';

  if (type === 'terminal') {
    const args = [...agent.args, ...(isStringArray(raw.args) ? raw.args : [])];
    const env = stringRecord(raw.env);
    return {
      ...base,
      kind: 'terminal',
      action: 'run-terminal',
      run: { command: agent.command, args, env },
      instructions: `run \`${commandLine(agent.command, args, env)}\` in a terminal and follow its prompts`,
    };
  }
  if (type === 'env_var') {
    const vars = envVars(raw);
    const link = typeof raw.link === 'string' ? raw.link : undefined;
    const names = vars.filter((v) => !v.optional).map((v) => v.name);
    return {
      ...base,
      kind: 'env_var',
      action: 'user',
      vars,
      ...(link ? { link } : {}),
      instructions:
        names.length > 0
          ? `set ${names.join(' and ')} in the environment, then run acp again${link ? ` (get a key at ${link})` : ''}`
          : `set the environment variables this agent documents, then run acp again${link ? ` (see ${link})` : ''}`,
    };
  }
  const terminalMeta = meta['terminal-auth'];
  if (isRecord(terminalMeta) && typeof terminalMeta.command === 'string' && terminalMeta.command !== '') {
    const args = isStringArray(terminalMeta.args) ? terminalMeta.args : [];
    const env = stringRecord(terminalMeta.env);
    const label = typeof terminalMeta.label === 'string' ? terminalMeta.label : undefined;
    return {
      ...base,
      kind: 'meta-terminal',
      action: 'run-terminal',
      run: { command: terminalMeta.command, args, env, ...(label ? { label } : {}) },
      instructions: `run \`${commandLine(terminalMeta.command, args, env)}\` in a terminal${label ? ` (${label})` : ''}`,
    };
  }
  const apiKey = meta['api-key'];
  if (apiKey !== undefined) {
    const vars = isRecord(apiKey) ? envVars(apiKey) : [];
    const names = vars.map((v) => v.name);
    if (names.length > 0) {
      return {
        ...base,
        kind: 'api-key',
        action: 'user',
        vars,
        instructions: `set ${names.join(' or ')} to your API key, then run acp again`,
      };
    }
    // No variable named: the client asks for the key and hands it over with `authenticate`.
    const provider = isRecord(apiKey) && typeof apiKey.provider === 'string' ? apiKey.provider : undefined;
    const label = provider ? `${provider} API key` : 'API key';
    return {
      ...base,
      kind: 'api-key',
      action: 'authenticate',
      vars,
      input: { field: 'api-key', label },
      instructions: `enter your ${label}: acp passes it to the agent when signing in and does not store it`,
    };
  }
  if (meta.gateway !== undefined) {
    return {
      ...base,
      kind: 'gateway',
      action: 'user',
      instructions: `${base.name} needs a gateway (base URL and headers) configured for the agent; set it up in the agent's own configuration`,
    };
  }
  return {
    ...base,
    kind: 'agent',
    action: 'authenticate',
    instructions: `select "${base.name}" (auth method ${base.id}): the agent then signs you in itself${base.description ? ` — ${base.description}` : ''}`,
  };
}

function envVars(raw: Record<string, unknown>): { name: string; label?: string; optional?: boolean }[] {
  const out: { name: string; label?: string; optional?: boolean }[] = [];
  const list = raw.vars ?? raw.env ?? raw.envVars;
  if (Array.isArray(list)) {
    for (const item of list) {
      if (typeof item === 'string' && item !== '') out.push({ name: item });
      else if (isRecord(item) && typeof item.name === 'string' && item.name !== '') {
        out.push({
          name: item.name,
          ...(typeof item.label === 'string' ? { label: item.label } : {}),
          ...(item.optional === true ? { optional: true } : {}),
        });
      }
    }
  }
  for (const key of ['varName', 'var', 'envVar', 'env_var']) {
    if (typeof raw[key] === 'string' && raw[key] !== '') out.push({ name: raw[key] as string });
  }
  return out;
}

function stringRecord(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (isRecord(value)) for (const [key, v] of Object.entries(value)) if (typeof v === 'string') out[key] = v;
  return out;
}

/**
 * A command line for people to paste: plain settings are shown (`AUGMENT_DISABLE_AUTO_UPDATE=1`),
 * a value that may be a secret (by its name, its look, or a length no setting has) is `…`.
 */
function commandLine(command: string, args: readonly string[], env: Record<string, string>): string {
  const prefix = Object.entries(env)
    .map(([name, value]) => `${name}=${mayBeSecret(name, value) ? '…' : quoteWord(value)}`)
    .join(' ');
  const line = quoteArgv([command, ...args]);
  return prefix ? `${prefix} ${line}` : line;
}

const PLAIN_VALUE = /^[\w.:/@+,=-]{0,64}$/;

function mayBeSecret(name: string, value: string): boolean {
  return (
    isSecretKey(name) ||
    /auth|session|cred|pass|key|cookie/i.test(name) ||
    !PLAIN_VALUE.test(value) ||
    redactString(value) !== value
  );
}

/** The auth methods in a -32000 error's data, if any. */
export function authMethodsFromErrorData(data: unknown): unknown[] | undefined {
  if (isRecord(data) && Array.isArray(data.authMethods)) return data.authMethods;
  return undefined;
}
