/**
 * Where the agent keeps its data and reads its configuration, following the XDG base directory
 * conventions on every platform (simple to document, and what terminal tools on macOS do too).
 * The names are those of docs/configuration.md: `ACP_KIT_CONFIG_DIR` and `ACP_KIT_DATA_DIR` are
 * the acp-kit directories shared with the client; `ACP_KIT_AGENT_*` are the agent's own.
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

type Env = Readonly<Record<string, string | undefined>>;

/** The acp-kit data directory: `ACP_KIT_DATA_DIR`, else `$XDG_DATA_HOME/acp-kit`, else `~/.local/share/acp-kit`. */
function dataRoot(env: Env): string {
  if (env.ACP_KIT_DATA_DIR) return resolve(env.ACP_KIT_DATA_DIR);
  return join(env.XDG_DATA_HOME || join(homedir(), '.local', 'share'), 'acp-kit');
}

/**
 * Whether `ACP_KIT_DATA_DIR` holds the agent's sessions in the old layout (`<dir>/sessions/…`, from
 * when the variable named the agent's own directory) and not yet in `<dir>/agent`.
 */
export function usesLegacyDataLayout(env: Env = process.env): boolean {
  if (!env.ACP_KIT_DATA_DIR) return false;
  const dir = resolve(env.ACP_KIT_DATA_DIR);
  const old = ['model', 'demo'].some((kind) => existsSync(join(dir, 'sessions', kind)));
  return old && !existsSync(join(dir, 'agent'));
}

/**
 * The data directory: an explicit `override` (the `--data-dir` flag), else `ACP_KIT_AGENT_DATA_DIR`,
 * else `<acp-kit data dir>/agent` (`ACP_KIT_DATA_DIR/agent`, `$XDG_DATA_HOME/acp-kit/agent`,
 * `~/.local/share/acp-kit/agent`). A `ACP_KIT_DATA_DIR` in the old layout is used as it is.
 */
export function resolveDataDir(env: Env = process.env, override?: string): string {
  if (override) return resolve(override);
  if (env.ACP_KIT_AGENT_DATA_DIR) return resolve(env.ACP_KIT_AGENT_DATA_DIR);
  if (usesLegacyDataLayout(env)) return resolve(env.ACP_KIT_DATA_DIR as string);
  return join(dataRoot(env), 'agent');
}

/**
 * The config file: an explicit `override` (the `--config` flag), else `ACP_KIT_AGENT_CONFIG_FILE`
 * (formerly `ACP_KIT_CONFIG`, still read), else `agent.json` in the acp-kit config directory
 * (`ACP_KIT_CONFIG_DIR`, `$XDG_CONFIG_HOME/acp-kit`, `~/.config/acp-kit`).
 */
export function resolveConfigPath(env: Env = process.env, override?: string): string {
  if (override) return resolve(override);
  const file = env.ACP_KIT_AGENT_CONFIG_FILE || env.ACP_KIT_CONFIG;
  if (file) return resolve(file);
  if (env.ACP_KIT_CONFIG_DIR) return join(resolve(env.ACP_KIT_CONFIG_DIR), 'agent.json');
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'acp-kit', 'agent.json');
}

/** The stderr log level's name: `ACP_KIT_AGENT_LOG_LEVEL` (formerly `ACP_KIT_LOG`, still read). */
export function logLevelName(env: Env = process.env): string | undefined {
  return env.ACP_KIT_AGENT_LOG_LEVEL || env.ACP_KIT_LOG || undefined;
}
