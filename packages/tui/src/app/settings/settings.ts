/**
 * Settings of the terminal UI: `tui.json` in the client's config dir (next to `agents.json` and
 * `rules.json`). Every field is optional; invalid entries are reported and ignored, never fatal.
 *
 * ```json
 * { "theme": "dark", "reviewWrites": "changed", "showThoughts": false, "stallSeconds": 40,
 *   "keys": { "app.menu": "ctrl+x" },
 *   "mcpServers": { "files": { "command": "mcp-files", "args": ["--root", "."], "env": { "LOG": "1" } } },
 *   "agents": { "claude": { "mcpServers": { "web": { "type": "http", "url": "https://…", "headers": { "Authorization": "…" } } } } } }
 * ```
 */
import type { AgentFeatures, WriteReviewMode } from '@acp-kit/client';
import type { McpServer } from '@acp-kit/protocol';
import type { ThemeName } from '../../theme/theme.js';
import type { ClipboardMethod } from '../services/clipboard-copy.js';

/** One MCP server as configured, with where it comes from. */
export interface ConfiguredMcpServer {
  readonly server: McpServer;
  /** `global`, or the catalog id of the agent it is configured for. */
  readonly scope: string;
}

/** The settings. */
export interface TuiSettings {
  readonly theme: ThemeName;
  /**
   * When an allowed `fs/write_text_file` is reviewed hunk by hunk before it reaches the disk:
   * `changed` unless it is exactly what was allowed with its diff in the permission question,
   * `always`, or `never`.
   */
  readonly reviewWrites: WriteReviewMode;
  /** Show thoughts in full (else a one-line summary). */
  readonly showThoughts: boolean;
  /** Silence during a turn after which the stall indicator shows. */
  readonly stallSeconds: number;
  /** Transcript items printed when a session is shown again (older ones stay in the record). */
  readonly historyItems: number;
  /** How the transcript browser copies: the system's tool, or the terminal (OSC 52). */
  readonly clipboard: ClipboardMethod;
  /** Key overrides: action → key or keys. */
  readonly keys: Readonly<Record<string, string | readonly string[]>>;
  /** MCP servers for every agent. */
  readonly mcpServers: readonly McpServer[];
  /** MCP servers per agent id. */
  readonly agentMcpServers: Readonly<Record<string, readonly McpServer[]>>;
}

/** Defaults. */
export const DEFAULT_SETTINGS: TuiSettings = {
  theme: 'dark',
  reviewWrites: 'changed',
  showThoughts: false,
  stallSeconds: 40,
  historyItems: 120,
  clipboard: 'system',
  keys: {},
  mcpServers: [],
  agentMcpServers: {},
};

/** Settings read from a document, with what was wrong in it. */
export interface ParsedSettings {
  readonly settings: TuiSettings;
  readonly problems: readonly string[];
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isStringArray = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'string');

function stringMap(value: unknown, where: string, problems: string[]): Record<string, string> {
  if (value === undefined) return {};
  if (!isRecord(value) || !Object.values(value).every((v) => typeof v === 'string')) {
    problems.push(`${where} must map names to strings`);
    return {};
  }
  return value as Record<string, string>;
}

/** Reads `{name: {command, args, env} | {type: 'http'|'sse', url, headers}}` into ACP servers. */
export function parseMcpServers(value: unknown, where: string, problems: string[]): McpServer[] {
  if (value === undefined) return [];
  if (!isRecord(value)) {
    problems.push(`${where} must be an object of servers by name`);
    return [];
  }
  const servers: McpServer[] = [];
  for (const [name, raw] of Object.entries(value)) {
    const at = `${where}.${name}`;
    if (!isRecord(raw)) {
      problems.push(`${at} must be an object`);
      continue;
    }
    if (raw.type === 'http' || raw.type === 'sse') {
      if (typeof raw.url !== 'string' || raw.url === '') {
        problems.push(`${at}.url must be a non-empty string`);
        continue;
      }
      const headers = Object.entries(stringMap(raw.headers, `${at}.headers`, problems)).map(
        ([header, headerValue]) => ({ name: header, value: headerValue }),
      );
      servers.push({ type: raw.type, name, url: raw.url, headers });
      continue;
    }
    if (typeof raw.command !== 'string' || raw.command === '') {
      problems.push(`${at}.command must be a non-empty string (or set "type": "http" with a url)`);
      continue;
    }
    if (raw.args !== undefined && !isStringArray(raw.args)) {
      problems.push(`${at}.args must be an array of strings`);
      continue;
    }
    const env = Object.entries(stringMap(raw.env, `${at}.env`, problems)).map(([envName, envValue]) => ({
      name: envName,
      value: envValue,
    }));
    servers.push({ name, command: raw.command, args: raw.args ?? [], env });
  }
  return servers;
}

/**
 * Reads a settings document leniently: known fields with valid values are taken, everything else
 * is reported in `problems`.
 *
 * @example
 * const { settings, problems } = parseSettings(JSON.parse(text));
 */
export function parseSettings(document: unknown): ParsedSettings {
  const problems: string[] = [];
  if (document === undefined) return { settings: DEFAULT_SETTINGS, problems };
  if (!isRecord(document)) return { settings: DEFAULT_SETTINGS, problems: ['expected a JSON object'] };
  const d = document;
  const theme: ThemeName =
    d.theme === 'dark' || d.theme === 'light' || d.theme === 'ansi' || d.theme === 'none'
      ? d.theme
      : (d.theme !== undefined && problems.push('theme must be "dark", "light", "ansi" or "none"'),
        DEFAULT_SETTINGS.theme);
  const flag = (key: 'showThoughts'): boolean => {
    if (d[key] === undefined) return DEFAULT_SETTINGS[key];
    if (typeof d[key] === 'boolean') return d[key];
    problems.push(`${key} must be true or false`);
    return DEFAULT_SETTINGS[key];
  };
  const review = (): WriteReviewMode => {
    const value = d.reviewWrites;
    if (value === 'always' || value === 'changed' || value === 'never') return value;
    // The former on/off switch: on reviewed every write, which `changed` still shows once.
    if (typeof value === 'boolean') return value ? 'changed' : 'never';
    if (value !== undefined) problems.push('reviewWrites must be "changed", "always" or "never"');
    return DEFAULT_SETTINGS.reviewWrites;
  };
  const count = (key: 'stallSeconds' | 'historyItems', min: number): number => {
    const value = d[key];
    if (value === undefined) return DEFAULT_SETTINGS[key];
    if (typeof value === 'number' && Number.isFinite(value) && value >= min) return Math.floor(value);
    problems.push(`${key} must be a number of at least ${min}`);
    return DEFAULT_SETTINGS[key];
  };
  const clipboard: ClipboardMethod =
    d.clipboard === 'system' || d.clipboard === 'osc52'
      ? d.clipboard
      : (d.clipboard !== undefined && problems.push('clipboard must be "system" or "osc52"'),
        DEFAULT_SETTINGS.clipboard);
  const keys: Record<string, string | readonly string[]> = {};
  if (d.keys !== undefined) {
    if (!isRecord(d.keys)) problems.push('keys must map actions to a key or a list of keys');
    else {
      for (const [action, spec] of Object.entries(d.keys)) {
        if (typeof spec === 'string' || isStringArray(spec)) keys[action] = spec;
        else problems.push(`keys.${action} must be a key or a list of keys`);
      }
    }
  }
  const agentMcpServers: Record<string, readonly McpServer[]> = {};
  if (d.agents !== undefined) {
    if (!isRecord(d.agents)) problems.push('agents must be an object by agent id');
    else {
      for (const [agent, raw] of Object.entries(d.agents)) {
        if (!isRecord(raw)) {
          problems.push(`agents.${agent} must be an object`);
          continue;
        }
        agentMcpServers[agent] = parseMcpServers(raw.mcpServers, `agents.${agent}.mcpServers`, problems);
      }
    }
  }
  return {
    settings: {
      theme,
      reviewWrites: review(),
      showThoughts: flag('showThoughts'),
      stallSeconds: count('stallSeconds', 1),
      historyItems: count('historyItems', 10),
      clipboard,
      keys,
      mcpServers: parseMcpServers(d.mcpServers, 'mcpServers', problems),
      agentMcpServers,
    },
    problems,
  };
}

/** The MCP servers for a session with `agentId`: global ones, then the agent's (same name wins). */
export function mcpServersFor(settings: TuiSettings, agentId: string): ConfiguredMcpServer[] {
  const own = settings.agentMcpServers[agentId] ?? [];
  const names = new Set(own.map((s) => s.name));
  return [
    ...settings.mcpServers.filter((s) => !names.has(s.name)).map((server) => ({ server, scope: 'global' })),
    ...own.map((server) => ({ server, scope: agentId })),
  ];
}

/**
 * The configured MCP servers an agent taking the MCP transports `mcp` (its connection's
 * `features.mcp`; undefined before it answered) can be given. An agent that takes MCP-over-ACP
 * gets all of them (the client engine serves them itself, over the connection); any other gets
 * those whose transport it takes (stdio only when it is not known yet).
 */
export function usableMcpServers(
  settings: TuiSettings,
  agentId: string,
  mcp: AgentFeatures['mcp'] | undefined,
): ConfiguredMcpServer[] {
  return mcpServersFor(settings, agentId).filter(({ server }) => {
    if (mcp?.acp) return true;
    const transport = mcpTransport(server);
    if (!mcp) return transport === 'stdio';
    return transport === 'stdio' ? mcp.stdio : transport === 'http' ? mcp.http : mcp.sse;
  });
}

/** The transport of an MCP server (`stdio`, `http` or `sse`). */
export function mcpTransport(server: McpServer): 'stdio' | 'http' | 'sse' {
  return 'type' in server && (server.type === 'http' || server.type === 'sse') ? server.type : 'stdio';
}
