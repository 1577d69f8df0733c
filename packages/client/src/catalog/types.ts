/** Types of the agent catalog. */

/** Where a catalog entry comes from. */
export type AgentSource = 'builtin' | 'user' | 'registry';

/** How to start an agent: a program and its arguments, never a shell line. */
export interface LaunchSpec {
  command: string;
  args: string[];
  /** Extra environment variables for the agent (added to ours). */
  env?: Record<string, string>;
  /**
   * Credential-named variables of ours (`*_API_KEY`, `*_TOKEN`, `*SECRET*`…) the agent may see:
   * names or `PREFIX*` patterns. Others are held back from the agent and its terminals.
   */
  passEnv?: string[];
  /** Working directory of the agent process (default: the session's cwd). */
  cwd?: string;
}

/** One agent the client knows how to start. */
export interface AgentEntry extends LaunchSpec {
  /** The name used on the command line (`acp run --agent <id>`). */
  id: string;
  /** Display name. */
  name: string;
  description?: string;
  source: AgentSource;
  /** Other names that select this entry. */
  aliases?: string[];
  /** How to install the command when it is missing (shown to the user). */
  install?: string;
  /** What the user typically has to do to log in (shown when the agent asks for authentication). */
  authHint?: string;
  /** The registry entry id it was imported from. */
  registryId?: string;
  /**
   * A remote agent: its `http(s)://…/acp` endpoint (`acp serve`, or any server of the RFD
   * "Streamable HTTP & WebSocket Transport"). Nothing is started here; `command` repeats the URL
   * for display and `args`, `env`, `cwd`, `passEnv` do not apply.
   */
  url?: string;
  /** Remote agents: the variable that holds the bearer token (default `ACP_KIT_REMOTE_TOKEN`). */
  tokenEnv?: string;
  /** Remote agents: the bearer token itself, from agents.json (keep that file private; prefer `tokenEnv`). */
  token?: string;
  /** Remote agents: `auto` (WebSocket, else Streamable HTTP; default), `websocket` or `http`. */
  transport?: 'auto' | 'websocket' | 'http';
  /**
   * The ACP version to speak: 1 or 2 only (for an agent known to mishandle the other). Default:
   * ask for 2 and continue in 1 when the agent answers 1.
   */
  protocol?: 1 | 2;
}

/** Whether an entry's command can be found. */
export interface Detection {
  installed: boolean;
  /** Absolute path of the executable, when found. */
  path?: string;
  /** When not installed because the file found is not executable: its path. */
  notExecutable?: string;
}
