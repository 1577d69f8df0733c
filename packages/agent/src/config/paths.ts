/**
 * Where the agent keeps its data and reads its configuration, following the XDG base directory
 * conventions on every platform (simple to document, and what terminal tools on macOS do too).
 */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * The data directory: `ACP_KIT_DATA_DIR`, else `$XDG_DATA_HOME/acp-kit/agent`, else
 * `~/.local/share/acp-kit/agent`. An explicit `override` (the `--data-dir` flag) wins.
 */
export function resolveDataDir(env: Env = process.env, override?: string): string {
  if (override) return resolve(override);
  if (env.ACP_KIT_DATA_DIR) return resolve(env.ACP_KIT_DATA_DIR);
  const base = env.XDG_DATA_HOME || join(homedir(), '.local', 'share');
  return join(base, 'acp-kit', 'agent');
}

/**
 * The config file: `ACP_KIT_CONFIG`, else `$XDG_CONFIG_HOME/acp-kit/agent.json`, else
 * `~/.config/acp-kit/agent.json`. An explicit `override` (the `--config` flag) wins.
 */
export function resolveConfigPath(env: Env = process.env, override?: string): string {
  if (override) return resolve(override);
  if (env.ACP_KIT_CONFIG) return resolve(env.ACP_KIT_CONFIG);
  const base = env.XDG_CONFIG_HOME || join(homedir(), '.config');
  return join(base, 'acp-kit', 'agent.json');
}
