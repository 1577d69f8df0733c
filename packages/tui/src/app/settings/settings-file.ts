/**
 * Reading and updating `tui.json`. Updates patch the document the user wrote (unknown fields and
 * MCP servers are kept as they are) and replace the file atomically.
 */
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { WriteReviewMode } from '@acp-kit/client';
import { parseSettings, type ParsedSettings } from './settings.js';

/**
 * A random name part for a temp file. node:crypto is loaded here, on the first write, not at import:
 * reading this file is part of the UI's first frame, and loading crypto costs several milliseconds.
 */
function randomHex(): string {
  return process.getBuiltinModule('node:crypto').randomBytes(6).toString('hex');
}

/** Name of the settings file in the config dir. */
export const SETTINGS_FILE_NAME = 'tui.json';

/** The settings file path for a config dir. */
export function settingsPath(configDir: string): string {
  return join(configDir, SETTINGS_FILE_NAME);
}

async function readDocument(path: string): Promise<{ document: unknown; problem?: string }> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { document: undefined };
    return { document: undefined, problem: `cannot read ${path}: ${(error as Error).message}` };
  }
  try {
    return { document: JSON.parse(text) as unknown };
  } catch (error) {
    return { document: undefined, problem: `${path} is not valid JSON: ${(error as Error).message}` };
  }
}

/**
 * Loads the settings (a missing file means defaults).
 *
 * @example
 * const { settings, problems } = await loadSettings(settingsPath(paths.configDir));
 */
export async function loadSettings(path: string): Promise<ParsedSettings> {
  const { document, problem } = await readDocument(path);
  const parsed = parseSettings(document);
  return problem ? { settings: parsed.settings, problems: [problem, ...parsed.problems] } : parsed;
}

/** Top-level fields the UI changes itself. */
export interface SettingsPatch {
  readonly theme?: string;
  readonly reviewWrites?: WriteReviewMode;
  readonly showThoughts?: boolean;
  readonly clipboard?: 'system' | 'osc52';
  /** Key overrides to set; an empty list unbinds, `null` restores the default. */
  readonly keys?: Readonly<Record<string, readonly string[] | null>>;
}

/**
 * Applies `patch` to the file and returns the new settings. A file that is not valid JSON is not
 * overwritten (the user's text would be lost): the update fails with the parse error.
 */
export async function updateSettings(path: string, patch: SettingsPatch): Promise<ParsedSettings> {
  const { document, problem } = await readDocument(path);
  if (problem) throw new Error(`${problem}; fix it before changing settings here`);
  const base: Record<string, unknown> =
    typeof document === 'object' && document !== null && !Array.isArray(document)
      ? { ...(document as Record<string, unknown>) }
      : {};
  if (patch.theme !== undefined) base.theme = patch.theme;
  if (patch.reviewWrites !== undefined) base.reviewWrites = patch.reviewWrites;
  if (patch.showThoughts !== undefined) base.showThoughts = patch.showThoughts;
  if (patch.clipboard !== undefined) base.clipboard = patch.clipboard;
  if (patch.keys !== undefined) {
    const keys: Record<string, unknown> =
      typeof base.keys === 'object' && base.keys !== null
        ? { ...(base.keys as Record<string, unknown>) }
        : {};
    for (const [action, value] of Object.entries(patch.keys)) {
      if (value === null) delete keys[action];
      else keys[action] = [...value];
    }
    base.keys = keys;
  }
  await mkdir(dirname(path), { recursive: true });
  const temp = `${path}.${randomHex()}.tmp`;
  try {
    await writeFile(temp, `${JSON.stringify(base, null, 2)}\n`, { mode: 0o600 });
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  return parseSettings(base);
}
