/**
 * Import of an ACP registry (https://github.com/agentclientprotocol/registry): the aggregated
 * `registry.json` (`{version, agents: [...]}`) or a single `agent.json`, from a file or a URL.
 *
 * Distributions map to launch commands as the registry documents them: `npx` → `npx -y <package>
 * [args]` (or `npx -y --package <package> <cmd> [args]`), `uvx` → `uvx <package> [args]` (or
 * `uvx --from <package> <cmd> [args]`), `binary` → the archive's command, expected on PATH (acp does
 * not download binaries; the entry's `install` text says where to get it).
 */
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { ClientError } from '../errors.js';
import { isRecord, isStringArray } from '../util/json-file.js';
import type { AgentEntry } from './types.js';

/** Largest registry document accepted (bytes). */
export const MAX_REGISTRY_BYTES = 8 * 1024 * 1024;

/** Result of reading a registry: the entries it yields and what had to be skipped. */
export interface RegistryImport {
  agents: AgentEntry[];
  /** Entries that could not be used, with why. */
  skipped: { id: string; reason: string }[];
}

/** Options of {@link readRegistry}. */
export interface ReadRegistryOptions {
  /** Only these registry ids (default: all). */
  ids?: readonly string[];
  /** Platform key for binary distributions (default: the current one, e.g. `linux-x86_64`). */
  platform?: string;
  /** Timeout of a URL fetch (default 15 s). */
  timeoutMs?: number;
}

/**
 * Reads a registry from a path or an `http(s)://` URL and converts its entries.
 *
 * @example
 * const { agents } = await readRegistry('https://cdn.agentclientprotocol.com/registry/v1/latest/registry.json');
 */
export async function readRegistry(
  source: string,
  options: ReadRegistryOptions = {},
): Promise<RegistryImport> {
  const text = /^https?:\/\//i.test(source)
    ? await fetchText(source, options.timeoutMs ?? 15_000)
    : await readLocal(source);
  let document: unknown;
  try {
    document = JSON.parse(text) as unknown;
  } catch (error) {
    throw new ClientError('REGISTRY_FETCH_FAILED', `${source} is not JSON: ${(error as Error).message}`, {
      source,
    });
  }
  return convertRegistry(document, options);
}

/** Converts a parsed registry document (aggregate or single agent). */
export function convertRegistry(document: unknown, options: ReadRegistryOptions = {}): RegistryImport {
  const list = isRecord(document) && Array.isArray(document.agents) ? document.agents : [document];
  const wanted = options.ids && options.ids.length > 0 ? new Set(options.ids) : undefined;
  const platform = options.platform ?? currentPlatform();
  const result: RegistryImport = { agents: [], skipped: [] };
  for (const raw of list) {
    if (wanted && !(isRecord(raw) && typeof raw.id === 'string' && wanted.has(raw.id))) continue;
    if (!isRecord(raw) || typeof raw.id !== 'string' || !/^[a-z][a-z0-9-]*$/.test(raw.id)) {
      result.skipped.push({
        id: isRecord(raw) && typeof raw.id === 'string' ? raw.id : '?',
        reason: 'invalid id',
      });
      continue;
    }
    const entry = convertEntry(raw, platform);
    if (typeof entry === 'string') result.skipped.push({ id: raw.id, reason: entry });
    else result.agents.push(entry);
  }
  if (wanted) {
    for (const id of wanted) {
      if (!result.agents.some((a) => a.registryId === id) && !result.skipped.some((s) => s.id === id)) {
        result.skipped.push({ id, reason: 'not in the registry' });
      }
    }
  }
  return result;
}

function convertEntry(raw: Record<string, unknown>, platform: string): AgentEntry | string {
  const id = raw.id as string;
  const distribution = raw.distribution;
  if (!isRecord(distribution)) return 'no distribution';
  const base = {
    id,
    name: typeof raw.name === 'string' && raw.name !== '' ? raw.name : id,
    source: 'registry' as const,
    registryId: id,
    ...(typeof raw.description === 'string' ? { description: raw.description } : {}),
  };
  const npx = packageDistribution(distribution.npx);
  if (npx) {
    const args = npx.cmd
      ? ['-y', '--package', npx.package, npx.cmd, ...npx.args]
      : ['-y', npx.package, ...npx.args];
    return {
      ...base,
      command: 'npx',
      args,
      ...(npx.env ? { env: npx.env } : {}),
      install: `runs through npx (${npx.package})`,
    };
  }
  const uvx = packageDistribution(distribution.uvx);
  if (uvx) {
    const args = uvx.cmd ? ['--from', uvx.package, uvx.cmd, ...uvx.args] : [uvx.package, ...uvx.args];
    return {
      ...base,
      command: 'uvx',
      args,
      ...(uvx.env ? { env: uvx.env } : {}),
      install: 'needs uv (https://docs.astral.sh/uv/)',
    };
  }
  if (isRecord(distribution.binary)) {
    const target = distribution.binary[platform];
    if (!isRecord(target) || typeof target.cmd !== 'string') return `no binary for ${platform}`;
    const args = isStringArray(target.args) ? target.args : [];
    const env = stringRecord(target.env);
    const archive = typeof target.archive === 'string' ? target.archive : 'the project page';
    return {
      ...base,
      command: basename(target.cmd.replace(/\\/g, '/')),
      args,
      ...(env ? { env } : {}),
      install: `download ${archive} and put ${basename(target.cmd.replace(/\\/g, '/'))} on PATH`,
    };
  }
  return 'no supported distribution (npx, uvx or binary)';
}

interface PackageDistribution {
  package: string;
  cmd?: string;
  args: string[];
  env?: Record<string, string>;
}

function packageDistribution(value: unknown): PackageDistribution | undefined {
  if (!isRecord(value) || typeof value.package !== 'string' || value.package === '') return undefined;
  const env = stringRecord(value.env);
  return {
    package: value.package,
    ...(typeof value.cmd === 'string' && value.cmd !== '' ? { cmd: value.cmd } : {}),
    args: isStringArray(value.args) ? value.args : [],
    ...(env ? { env } : {}),
  };
}

function stringRecord(value: unknown): Record<string, string> | undefined {
  if (!isRecord(value)) return undefined;
  const out: Record<string, string> = {};
  for (const [key, v] of Object.entries(value)) if (typeof v === 'string') out[key] = v;
  return Object.keys(out).length > 0 ? out : undefined;
}

/** The registry's platform key for this machine, e.g. `darwin-aarch64`. */
export function currentPlatform(): string {
  const os = process.platform === 'win32' ? 'windows' : process.platform;
  const arch = process.arch === 'arm64' ? 'aarch64' : process.arch === 'x64' ? 'x86_64' : process.arch;
  return `${os}-${arch}`;
}

async function readLocal(path: string): Promise<string> {
  try {
    const text = await readFile(path, 'utf8');
    if (text.length > MAX_REGISTRY_BYTES) throw new Error('file too large');
    return text;
  } catch (error) {
    throw new ClientError('REGISTRY_FETCH_FAILED', `cannot read ${path}: ${(error as Error).message}`, {
      source: path,
    });
  }
}

async function fetchText(url: string, timeoutMs: number): Promise<string> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), redirect: 'follow' });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const length = Number(response.headers.get('content-length') ?? '0');
    if (length > MAX_REGISTRY_BYTES) throw new Error('response too large');
    const text = await response.text();
    if (text.length > MAX_REGISTRY_BYTES) throw new Error('response too large');
    return text;
  } catch (error) {
    throw new ClientError('REGISTRY_FETCH_FAILED', `cannot fetch ${url}: ${(error as Error).message}`, {
      source: url,
    });
  }
}
