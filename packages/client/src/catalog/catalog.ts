/**
 * The agent catalog: built-in entries plus the user's own (`agents.json` in the config dir),
 * installed-detection through PATH, and registry imports.
 *
 * `agents.json`:
 * ```json
 * { "defaultAgent": "claude",
 *   "passEnv": ["GH_TOKEN"],
 *   "agents": { "mine": { "command": "/opt/mine/bin/agent", "args": ["--acp"], "env": {"LOG": "1"}, "passEnv": ["OPENAI_API_KEY"], "cwd": "/tmp" } } }
 * ```
 * User entries override built-ins of the same id.
 */
import { ClientError } from '../errors.js';
import { isRecord, isStringArray, readJsonFile, writeJsonFile } from '../util/json-file.js';
import { builtinAgents } from './builtins.js';
import { readRegistry, type ReadRegistryOptions, type RegistryImport } from './registry.js';
import type { AgentEntry, AgentSource, Detection, LaunchSpec } from './types.js';
import { lookupCommand } from './which.js';

/** Options of {@link AgentCatalog.load}. */
export interface CatalogOptions {
  /** The user's agents file (see {@link ClientPaths.agentsFile}). */
  agentsFile: string;
  /** How to run this `acp` itself, for the `demo` and `acp-kit` entries. */
  self?: LaunchSpec;
  /** Environment used for PATH lookups (default: ours). */
  env?: Readonly<Record<string, string | undefined>>;
}

/** A catalog entry with its installed state. */
export interface DetectedAgent extends AgentEntry {
  detection: Detection;
}

const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/**
 * The agents the client can start.
 *
 * @example
 * const catalog = await AgentCatalog.load({ agentsFile: paths.agentsFile });
 * const entry = catalog.require('claude');
 * const { installed } = await catalog.detect(entry);
 */
export class AgentCatalog {
  /** Problems found in the user's file (entries skipped). */
  readonly problems: string[] = [];
  private readonly builtins: AgentEntry[];
  private user = new Map<string, AgentEntry>();
  private defaultId: string | undefined;
  private globalPassEnv: string[] = [];

  private constructor(private readonly options: CatalogOptions) {
    this.builtins = builtinAgents(options.self);
  }

  /**
   * Loads the user's agents file (a missing file is an empty catalog of user agents). A file that
   * is not JSON throws CONFIG_INVALID, unless `tolerant` (for `acp doctor`): then it is one of the
   * {@link problems} and only the built-in agents are known.
   */
  static async load(options: CatalogOptions & { tolerant?: boolean }): Promise<AgentCatalog> {
    const catalog = new AgentCatalog(options);
    let document: unknown;
    try {
      document = await readJsonFile(options.agentsFile);
    } catch (error) {
      if (!options.tolerant || !(error instanceof ClientError) || error.code !== 'CONFIG_INVALID')
        throw error;
      catalog.problems.push(error.message);
    }
    if (document !== undefined) catalog.parse(document);
    return catalog;
  }

  /**
   * Credential variables every agent may see (`passEnv` at the top of the file), besides what
   * each entry passes.
   */
  get passEnv(): readonly string[] {
    return this.globalPassEnv;
  }

  /** The id of the default agent (`defaultAgent` in the file), if set. */
  get defaultAgent(): string | undefined {
    return this.defaultId;
  }

  /** Every entry, user entries replacing built-ins of the same id. */
  list(): AgentEntry[] {
    const out = this.builtins.filter((entry) => !this.user.has(entry.id));
    return [...out, ...this.user.values()];
  }

  /** The entry named `name` (id or alias), if any. */
  get(name: string): AgentEntry | undefined {
    const direct = this.user.get(name) ?? this.builtins.find((entry) => entry.id === name);
    if (direct) return direct;
    return this.list().find((entry) => entry.aliases?.includes(name));
  }

  /** Like {@link get}, but throws AGENT_NOT_FOUND with the known names. */
  require(name: string): AgentEntry {
    const entry = this.get(name);
    if (entry) return entry;
    const known = this.list()
      .map((e) => e.id)
      .join(', ');
    throw new ClientError(
      'AGENT_NOT_FOUND',
      `no agent named "${name}" (known: ${known}); add one with \`acp agents add\``,
      {
        name,
      },
    );
  }

  /** Whether the entry's command can be found on PATH (or at its path). */
  async detect(entry: LaunchSpec & { url?: string }): Promise<Detection> {
    // A remote agent is not installed here; whether it answers shows when connecting.
    if (entry.url !== undefined) return { installed: true };
    const found = await lookupCommand(entry.command, this.options.env ?? process.env);
    if (found.found) return { installed: true, path: found.path };
    return found.reason === 'not-executable'
      ? { installed: false, notExecutable: found.path }
      : { installed: false };
  }

  /** Every entry with its installed state. */
  async detectAll(): Promise<DetectedAgent[]> {
    return Promise.all(this.list().map(async (entry) => ({ ...entry, detection: await this.detect(entry) })));
  }

  /** Adds or replaces a user entry and saves the file. */
  async add(entry: Omit<AgentEntry, 'source'> & { source?: AgentSource }): Promise<AgentEntry> {
    if (!ID_PATTERN.test(entry.id)) {
      throw new ClientError(
        'INVALID_ARGUMENT',
        `invalid agent name "${entry.id}" (letters, digits, ".", "_", "-")`,
      );
    }
    if (entry.command === '') throw new ClientError('INVALID_ARGUMENT', 'the agent command is empty');
    const stored: AgentEntry = { ...entry, source: entry.source === 'registry' ? 'registry' : 'user' };
    this.user.set(entry.id, stored);
    await this.save();
    return stored;
  }

  /** Removes a user entry and saves; false when there was none (built-ins cannot be removed). */
  async remove(id: string): Promise<boolean> {
    if (!this.user.delete(id)) return false;
    if (this.defaultId === id) this.defaultId = undefined;
    await this.save();
    return true;
  }

  /** Sets (or clears) the default agent and saves. */
  async setDefault(id: string | undefined): Promise<void> {
    if (id !== undefined) this.require(id);
    this.defaultId = id;
    await this.save();
  }

  /** Imports entries from an ACP registry (file or URL) as user entries and saves. */
  async importRegistry(source: string, options: ReadRegistryOptions = {}): Promise<RegistryImport> {
    const result = await readRegistry(source, options);
    for (const entry of result.agents) this.user.set(entry.id, entry);
    if (result.agents.length > 0) await this.save();
    return result;
  }

  private parse(document: unknown): void {
    if (!isRecord(document)) {
      this.problems.push(`${this.options.agentsFile}: expected an object`);
      return;
    }
    if (typeof document.defaultAgent === 'string') this.defaultId = document.defaultAgent;
    if (document.passEnv !== undefined) {
      if (isStringArray(document.passEnv)) this.globalPassEnv = document.passEnv;
      else this.problems.push(`${this.options.agentsFile}: "passEnv" must be an array of names`);
    }
    const agents = document.agents;
    if (agents === undefined) return;
    if (!isRecord(agents)) {
      this.problems.push(`${this.options.agentsFile}: "agents" must be an object`);
      return;
    }
    for (const [id, raw] of Object.entries(agents)) {
      const entry = parseEntry(id, raw);
      if (typeof entry === 'string')
        this.problems.push(`${this.options.agentsFile}: agent "${id}": ${entry}`);
      else this.user.set(id, entry);
    }
  }

  private async save(): Promise<void> {
    const agents: Record<string, unknown> = {};
    for (const entry of this.user.values()) {
      const { id: _id, source, ...rest } = entry;
      if (entry.url !== undefined) {
        // A remote entry is its URL; `command` only repeats it.
        const { command: _command, args: _args, ...remote } = rest;
        agents[entry.id] = remote;
        continue;
      }
      agents[entry.id] = source === 'registry' ? { ...rest, source } : rest;
    }
    const document: Record<string, unknown> = {};
    if (this.defaultId !== undefined) document.defaultAgent = this.defaultId;
    if (this.globalPassEnv.length > 0) document.passEnv = this.globalPassEnv;
    document.agents = agents;
    await writeJsonFile(this.options.agentsFile, document);
  }
}

function parseEntry(id: string, raw: unknown): AgentEntry | string {
  if (!ID_PATTERN.test(id)) return 'invalid name';
  if (!isRecord(raw)) return 'expected an object';
  if (raw.protocol !== undefined && raw.protocol !== 1 && raw.protocol !== 2)
    return '"protocol" must be 1 or 2 (the ACP version to speak)';
  const entry = raw.url !== undefined ? parseRemoteEntry(id, raw) : parseLocalEntry(id, raw);
  if (typeof entry !== 'string' && raw.protocol !== undefined) entry.protocol = raw.protocol as 1 | 2;
  return entry;
}

function parseLocalEntry(id: string, raw: Record<string, unknown>): AgentEntry | string {
  if (typeof raw.command !== 'string' || raw.command === '') return '"command" must be a non-empty string';
  if (raw.args !== undefined && !isStringArray(raw.args)) return '"args" must be an array of strings';
  let env: Record<string, string> | undefined;
  if (raw.env !== undefined) {
    if (!isRecord(raw.env) || !Object.values(raw.env).every((v) => typeof v === 'string')) {
      return '"env" must map names to strings';
    }
    env = raw.env as Record<string, string>;
  }
  if (raw.cwd !== undefined && typeof raw.cwd !== 'string') return '"cwd" must be a string';
  if (raw.passEnv !== undefined && !isStringArray(raw.passEnv)) return '"passEnv" must be an array of names';
  const text = (key: string): string | undefined =>
    typeof raw[key] === 'string' ? (raw[key] as string) : undefined;
  const entry: AgentEntry = {
    id,
    name: text('name') ?? id,
    source: raw.source === 'registry' ? 'registry' : 'user',
    command: raw.command,
    args: (raw.args as string[] | undefined) ?? [],
  };
  if (env) entry.env = env;
  if (isStringArray(raw.passEnv)) entry.passEnv = raw.passEnv;
  if (typeof raw.cwd === 'string') entry.cwd = raw.cwd;
  for (const key of ['description', 'install', 'authHint', 'registryId'] as const) {
    const value = text(key);
    if (value !== undefined) entry[key] = value;
  }
  if (isStringArray(raw.aliases)) entry.aliases = raw.aliases;
  return entry;
}

/** A remote entry: `{ "url": "https://devbox/acp", "tokenEnv": "DEVBOX_TOKEN", "transport": "auto" }`. */
function parseRemoteEntry(id: string, raw: Record<string, unknown>): AgentEntry | string {
  const url = raw.url;
  if (typeof url !== 'string' || !isRemoteUrl(url)) return '"url" must be an http:// or https:// URL';
  const text = (key: string): string | undefined =>
    typeof raw[key] === 'string' ? (raw[key] as string) : undefined;
  const transport = text('transport');
  if (transport !== undefined && !['auto', 'websocket', 'http'].includes(transport))
    return '"transport" must be auto, websocket or http';
  const entry: AgentEntry = { id, name: text('name') ?? id, source: 'user', command: url, args: [], url };
  for (const key of ['description', 'tokenEnv', 'token'] as const) {
    const value = text(key);
    if (value !== undefined) entry[key] = value;
  }
  if (transport !== undefined) entry.transport = transport as AgentEntry['transport'];
  return entry;
}

/** Whether `url` can name a remote agent (http or https, with a host). */
export function isRemoteUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.host !== '';
  } catch {
    return false;
  }
}

/**
 * The catalog entry for `acp --url URL` / `acp run --url URL`: its token comes from
 * `ACP_KIT_REMOTE_TOKEN` (never from the command line, which shells keep in their history).
 */
export function remoteEntry(url: string): AgentEntry {
  const parsed = new URL(url);
  return {
    id: `url:${parsed.origin}${parsed.pathname}`,
    name: parsed.host,
    source: 'user',
    command: `${parsed.origin}${parsed.pathname}`,
    args: [],
    url,
  };
}
