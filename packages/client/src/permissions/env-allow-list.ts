/**
 * Which environment variables an agent may set for a command without asking. A deny list of
 * dangerous names cannot be complete — `HOME`, `XDG_CONFIG_HOME`, `GIT_DIR`, `MAKEFILES`,
 * `npm_config_*`… each make some program run code the agent wrote — so this is an allow list: a
 * few variables that only change how output looks, with values that cannot name a file or a
 * command. Any other variable needs the user's answer or a rule that names it (`env` of a rule).
 */

/** A variable of the allow list and the values it may take. */
export interface AllowedVariable {
  name: string;
  /** Values it may take (anchored). */
  values: RegExp;
}

const FLAG = /^[A-Za-z0-9]{0,16}$/;
/** A locale or terminal name: no `/`, so never a path to locale or terminfo files. */
const NAME = /^[A-Za-z0-9_.@+-]{1,64}$/;

/** The allow list (documented in docs/client.md and docs/reliability.md). */
export const ENV_ALLOW_LIST: readonly AllowedVariable[] = [
  { name: 'CI', values: FLAG },
  { name: 'NO_COLOR', values: FLAG },
  { name: 'FORCE_COLOR', values: FLAG },
  { name: 'CLICOLOR', values: FLAG },
  { name: 'CLICOLOR_FORCE', values: FLAG },
  { name: 'COLORTERM', values: NAME },
  { name: 'TERM', values: NAME },
  { name: 'COLUMNS', values: /^[0-9]{1,5}$/ },
  { name: 'LINES', values: /^[0-9]{1,5}$/ },
  { name: 'LANG', values: NAME },
  { name: 'LC_ALL', values: NAME },
  { name: 'LC_CTYPE', values: NAME },
  { name: 'LC_MESSAGES', values: NAME },
  // Agents turn paging off; any other pager is a command to run.
  { name: 'PAGER', values: /^(?:cat)?$/ },
  { name: 'GIT_PAGER', values: /^(?:cat)?$/ },
];

const ALLOWED = new Map(ENV_ALLOW_LIST.map((variable) => [variable.name, variable.values]));

/** A variable a command sets. */
export interface EnvVariable {
  name: string;
  value: string;
}

/**
 * Whether an agent may set `name` to `value` for a command without asking (exact name: on
 * Windows, where names ignore case, any other spelling is asked about).
 *
 * @example
 * isAllowedEnv('NO_COLOR', '1'); // true
 * isAllowedEnv('HOME', '/tmp/x'); // false
 */
export function isAllowedEnv(name: string, value: string): boolean {
  return ALLOWED.get(name)?.test(value) === true;
}

/** A valid environment variable name (no `=`, no NUL, not empty). */
export function isValidEnvName(name: string): boolean {
  return name !== '' && !name.includes('=') && !name.includes('\0');
}

/**
 * The variables a command really sets: the last of duplicate names wins (as when the environment
 * is built), in the order the names first came, and a variable set to the value the command would
 * inherit anyway is left out (it changes nothing).
 */
export function effectiveEnv(
  variables: readonly EnvVariable[],
  inherited: NodeJS.ProcessEnv = {},
): EnvVariable[] {
  const values = new Map<string, string>();
  for (const { name, value } of variables) values.set(name, value);
  return [...values]
    .filter(([name, value]) => inherited[name] !== value)
    .map(([name, value]) => ({ name, value }));
}

/** The names among `env` that are not on the allow list (with their values): these need approval. */
export function envNeedingApproval(env: readonly EnvVariable[]): string[] {
  return env.filter(({ name, value }) => !isAllowedEnv(name, value)).map(({ name }) => name);
}
