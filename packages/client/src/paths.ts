/**
 * Where the client keeps its configuration (agents, permission rules, the terminal UI's settings)
 * and data (transcripts, traces). XDG conventions on every platform, overridable for tests and
 * portable installs. `ACP_KIT_CONFIG_DIR` and `ACP_KIT_DATA_DIR` name the acp-kit directories
 * shared with the agent, which keeps its files in them too (`agent.json`, `<data dir>/agent`); see
 * docs/configuration.md.
 */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

type Env = Readonly<Record<string, string | undefined>>;

/** The files and directories of one client installation. */
export interface ClientPaths {
  /** `ACP_KIT_CONFIG_DIR`, else `$XDG_CONFIG_HOME/acp-kit`, else `~/.config/acp-kit`. */
  configDir: string;
  /** `ACP_KIT_DATA_DIR`, else `$XDG_DATA_HOME/acp-kit`, else `~/.local/share/acp-kit` (the client's files are in `client/`). */
  dataDir: string;
  /** User-defined agents: `<configDir>/agents.json`. */
  agentsFile: string;
  /** Saved permission rules: `<configDir>/rules.json`. */
  rulesFile: string;
  /** Transcripts and traces: `<dataDir>/client/sessions`. */
  sessionsDir: string;
}

/**
 * Resolves the client's paths from the environment.
 *
 * @example
 * const paths = resolveClientPaths({ ...process.env, ACP_KIT_CONFIG_DIR: tmp, ACP_KIT_DATA_DIR: tmp });
 */
export function resolveClientPaths(env: Env = process.env): ClientPaths {
  const configDir = env.ACP_KIT_CONFIG_DIR
    ? resolve(env.ACP_KIT_CONFIG_DIR)
    : join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'acp-kit');
  const dataDir = env.ACP_KIT_DATA_DIR
    ? resolve(env.ACP_KIT_DATA_DIR)
    : join(env.XDG_DATA_HOME || join(homedir(), '.local', 'share'), 'acp-kit');
  return {
    configDir,
    dataDir,
    agentsFile: join(configDir, 'agents.json'),
    rulesFile: join(configDir, 'rules.json'),
    sessionsDir: join(dataDir, 'client', 'sessions'),
  };
}
