/**
 * The environment an agent starts with, and with it the terminals it asks the client for: ours,
 * without the variables named like credentials (`AWS_SECRET_ACCESS_KEY`, `GITHUB_TOKEN`,
 * `OPENAI_API_KEY`…) unless the agent's entry passes them (`passEnv`), plus the entry's own `env`.
 * An agent gets the keys it is made for (the built-in entries pass their providers' variables),
 * not every secret of the shell it was started from.
 */
import type { LaunchSpec } from '../catalog/types.js';
import { isSecretKey } from '../persistence/redact.js';

/** What {@link agentEnvironment} built. */
export interface AgentEnvironment {
  /** The environment to start the agent (and its terminals) with. */
  env: NodeJS.ProcessEnv;
  /** Names of credential variables of ours that were held back (for diagnostics; never values). */
  withheld: string[];
}

/**
 * Whether `name` is passed by one of `patterns`: an exact name, `PREFIX*` (any name starting
 * with PREFIX), or `*` (everything). Names compare case-sensitively, as environments do.
 */
export function passesEnv(name: string, patterns: readonly string[]): boolean {
  return patterns.some((pattern) =>
    pattern.endsWith('*') ? name.startsWith(pattern.slice(0, -1)) : name === pattern,
  );
}

/** Whether an environment variable's name says it holds a credential. */
export function isCredentialVariable(name: string): boolean {
  return isSecretKey(name);
}

/**
 * Builds the agent's environment from `base` (ours by default): credential-named variables only
 * when `spec.passEnv` or `extraPass` (the user's global `passEnv`) names them, then `spec.env`.
 *
 * @example
 * const { env, withheld } = agentEnvironment(process.env, { command: 'codex-acp', args: [], passEnv: ['OPENAI_*'] });
 */
export function agentEnvironment(
  base: NodeJS.ProcessEnv,
  spec: Pick<LaunchSpec, 'env' | 'passEnv'>,
  extraPass: readonly string[] = [],
): AgentEnvironment {
  const pass = [...(spec.passEnv ?? []), ...extraPass];
  const env: NodeJS.ProcessEnv = {};
  const withheld: string[] = [];
  for (const [name, value] of Object.entries(base)) {
    if (value === undefined) continue;
    if (isCredentialVariable(name) && !passesEnv(name, pass)) withheld.push(name);
    else env[name] = value;
  }
  Object.assign(env, spec.env ?? {});
  return { env, withheld: withheld.sort() };
}

/** Parses a list of names and patterns (`ACP_KIT_PASS_ENV`: separated by commas or spaces). */
export function parsePassEnv(text: string | undefined): string[] {
  return (text ?? '')
    .split(/[\s,]+/)
    .map((part) => part.trim())
    .filter((part) => part !== '');
}

/**
 * Credential variables every agent may see besides what its entry passes: the catalog's `passEnv`
 * (agents.json) plus `ACP_KIT_PASS_ENV`.
 */
export function sharedPassEnv(catalogPassEnv: readonly string[], env: NodeJS.ProcessEnv): string[] {
  return [...catalogPassEnv, ...parsePassEnv(env.ACP_KIT_PASS_ENV)];
}
