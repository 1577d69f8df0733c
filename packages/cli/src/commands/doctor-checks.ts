/**
 * What `acp doctor` looks at: versions, paths and whether they are usable, configuration files,
 * catalog agents (installed, version, signed in), and the terminal. Secrets are never read out:
 * for credentials only whether a variable is set or a file exists.
 */
import { constants } from 'node:fs';
import { access, readFile, realpath, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import type { DetectedAgent } from '@acp-kit/client';

type Env = NodeJS.ProcessEnv;

/** A directory acp uses. */
export interface DirectoryCheck {
  readonly path: string;
  readonly exists: boolean;
  /** Writable (existing) or creatable (its nearest existing parent is writable). */
  readonly writable: boolean;
}

/** A configuration file. */
export interface FileCheck {
  readonly path: string;
  readonly exists: boolean;
  /** Why it cannot be used, when it cannot. */
  readonly problem?: string;
}

/** Whether a directory exists and can be written (or created). */
export async function checkDirectory(path: string): Promise<DirectoryCheck> {
  const exists = (await stat(path).catch(() => undefined))?.isDirectory() === true;
  let probe = path;
  while (!(await stat(probe).catch(() => undefined)) && dirname(probe) !== probe) probe = dirname(probe);
  const writable = await access(probe, constants.W_OK).then(
    () => true,
    () => false,
  );
  return { path, exists, writable };
}

/** Whether a JSON configuration file exists and parses (`validate` may add its own check). */
export async function checkJsonFile(
  path: string,
  validate?: (document: unknown) => Promise<string | undefined> | string | undefined,
): Promise<FileCheck> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { path, exists: false };
    return { path, exists: true, problem: `cannot be read (${code ?? 'error'})` };
  }
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    return { path, exists: true, problem: `not valid JSON: ${(error as Error).message}` };
  }
  const problem = await validate?.(document);
  return problem ? { path, exists: true, problem } : { path, exists: true };
}

/** Whether Node `version` (`20.19.0`) meets `>=20.19`. */
export function nodeMeetsRequirement(version: string): boolean {
  const [major = 0, minor = 0] = version.replace(/^v/, '').split('.').map(Number);
  return major > 20 || (major === 20 && minor >= 19);
}

/**
 * The version of an installed npm program: the `version` of the package that contains its
 * (real) executable. Cheap and safe: the agent is never run.
 */
export async function packageVersionOf(executable: string): Promise<string | undefined> {
  let dir = dirname(await realpath(executable).catch(() => executable));
  for (let depth = 0; depth < 4 && dirname(dir) !== dir; depth++, dir = dirname(dir)) {
    const manifest = await readFile(join(dir, 'package.json'), 'utf8').catch(() => undefined);
    if (manifest === undefined) continue;
    try {
      const version = (JSON.parse(manifest) as { version?: unknown }).version;
      return typeof version === 'string' ? version : undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** Where a sign-in would leave a trace: environment variables and files. */
interface CredentialPlaces {
  readonly env: readonly string[];
  readonly files: readonly string[];
  readonly note?: string;
}

/** Known credential places of the built-in agents (what each agent's own documentation names). */
function credentialPlaces(id: string, env: Env, agentConfigFile: string): CredentialPlaces | undefined {
  const home = env.HOME || homedir();
  const config = env.XDG_CONFIG_HOME || join(home, '.config');
  const data = env.XDG_DATA_HOME || join(home, '.local', 'share');
  switch (id) {
    case 'claude':
      return {
        env: ['ANTHROPIC_API_KEY', 'CLAUDE_CODE_OAUTH_TOKEN', 'ANTHROPIC_AUTH_TOKEN'],
        files: [join(env.CLAUDE_CONFIG_DIR || join(home, '.claude'), '.credentials.json')],
        note:
          process.platform === 'darwin'
            ? 'macOS keeps the Claude login in the Keychain: not checked'
            : undefined,
      };
    case 'codex':
      return {
        env: ['OPENAI_API_KEY', 'CODEX_API_KEY'],
        files: [join(env.CODEX_HOME || join(home, '.codex'), 'auth.json')],
      };
    case 'gemini':
      return {
        env: ['GEMINI_API_KEY', 'GOOGLE_API_KEY', 'GOOGLE_APPLICATION_CREDENTIALS'],
        files: [join(home, '.gemini', 'oauth_creds.json')],
      };
    case 'qwen':
      return {
        env: ['OPENAI_API_KEY', 'DASHSCOPE_API_KEY'],
        files: [join(home, '.qwen', 'oauth_creds.json')],
      };
    case 'goose':
      return { env: ['GOOSE_PROVIDER'], files: [join(config, 'goose', 'config.yaml')] };
    case 'opencode':
      return { env: [], files: [join(data, 'opencode', 'auth.json')] };
    case 'pi':
      return {
        env: ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY', 'GEMINI_API_KEY'],
        files: [join(home, '.pi', 'agent', 'auth.json')],
      };
    case 'copilot':
      return {
        env: ['COPILOT_GITHUB_TOKEN', 'GH_TOKEN', 'GITHUB_TOKEN', 'COPILOT_PROVIDER_BASE_URL'],
        files: [],
        note: 'Copilot keeps a /login in the system keychain or its own config: not checked',
      };
    case 'acp-kit':
      return {
        env: ['ACP_KIT_MODEL', 'OPENAI_API_KEY', 'ANTHROPIC_API_KEY'],
        files: [agentConfigFile],
      };
    default:
      return undefined;
  }
}

/** The sign-in guess for one agent. */
export interface SignInGuess {
  /** `not-needed` (demo), `likely` (a credential place is used), `none-found`, `unknown` (no known places). */
  readonly status: 'not-needed' | 'likely' | 'none-found' | 'unknown';
  /** What was found: variable names that are set, files that exist. */
  readonly found: readonly string[];
  /** Everything looked at. */
  readonly checked: readonly string[];
  readonly note?: string;
}

/** Guesses whether `agent` is signed in from its known credential places (a heuristic, labelled so). */
export async function guessSignIn(
  agent: DetectedAgent,
  env: Env,
  agentConfigFile: string,
): Promise<SignInGuess> {
  if (agent.id === 'demo') return { status: 'not-needed', found: [], checked: [] };
  const places = agent.source === 'builtin' ? credentialPlaces(agent.id, env, agentConfigFile) : undefined;
  if (!places) return { status: 'unknown', found: [], checked: [] };
  const setVariables = places.env.filter((name) => (env[name] ?? '') !== '');
  const files: string[] = [];
  for (const file of places.files) if (await stat(file).catch(() => undefined)) files.push(file);
  const found = [...setVariables.map((name) => `${name} set`), ...files];
  return {
    status: found.length > 0 ? 'likely' : 'none-found',
    found,
    checked: [...places.env, ...places.files],
    ...(places.note ? { note: places.note } : {}),
  };
}

/** The terminal as acp sees it. */
export interface TerminalCheck {
  readonly stdin: boolean;
  readonly stdout: boolean;
  readonly stderr: boolean;
  readonly term: string | undefined;
  readonly colorterm: string | undefined;
  readonly termProgram: string | undefined;
  readonly noColor: boolean;
  readonly forceColor: string | undefined;
  readonly columns: number | undefined;
  readonly rows: number | undefined;
  readonly tmux: boolean;
  readonly locale: string | undefined;
  readonly utf8: boolean;
  readonly truecolor: boolean;
  /** What `acp` without a command opens here. */
  readonly opens: 'terminal UI' | 'line mode (TERM=dumb)' | 'nothing (not a terminal; use acp run)';
}

/** The terminal's capabilities from the streams and the environment. */
export function checkTerminal(
  env: Env,
  streams: { stdin: boolean; stdout: { isTTY?: boolean; columns?: number; rows?: number }; stderr: boolean },
): TerminalCheck {
  const locale = env.LC_ALL || env.LC_CTYPE || env.LANG || undefined;
  const stdout = streams.stdout.isTTY === true;
  const dumb = env.TERM === 'dumb';
  return {
    stdin: streams.stdin,
    stdout,
    stderr: streams.stderr,
    term: env.TERM,
    colorterm: env.COLORTERM,
    termProgram: env.TERM_PROGRAM,
    noColor: (env.NO_COLOR ?? '') !== '',
    forceColor: env.FORCE_COLOR,
    columns: stdout ? streams.stdout.columns : undefined,
    rows: stdout ? streams.stdout.rows : undefined,
    tmux: (env.TMUX ?? '') !== '',
    locale,
    utf8: /utf-?8/i.test(locale ?? ''),
    truecolor: /^(truecolor|24bit)$/i.test(env.COLORTERM ?? ''),
    opens: dumb
      ? 'line mode (TERM=dumb)'
      : streams.stdin && stdout
        ? 'terminal UI'
        : 'nothing (not a terminal; use acp run)',
  };
}
