/**
 * PATH lookup, as a shell would do it, without running anything.
 */
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { delimiter, isAbsolute, join, resolve } from 'node:path';

/**
 * What a lookup found: the executable, or why there is none. `not-executable` means a regular file
 * of that name exists (the first one, at `path`) but we may not execute it, as a shell would report
 * "Permission denied" rather than "command not found".
 */
export type CommandLookup =
  | { found: true; path: string }
  | { found: false; reason: 'not-found' }
  | { found: false; reason: 'not-executable'; path: string };

/**
 * Looks `command` up: a path containing a separator is checked as is (relative to `cwd`), a bare
 * name is searched in `PATH`; the first executable regular file wins.
 *
 * @example
 * const found = await lookupCommand('my-agent');
 * if (!found.found && found.reason === 'not-executable') console.error(`${found.path} is not executable`);
 */
export async function lookupCommand(
  command: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
  cwd: string = process.cwd(),
): Promise<CommandLookup> {
  if (command === '' || command.includes('\0')) return { found: false, reason: 'not-found' };
  const extensions =
    process.platform === 'win32' ? ['', ...(env.PATHEXT ?? '.EXE;.CMD;.BAT;.COM').split(';')] : [''];
  const candidates: string[] = [];
  if (command.includes('/') || (process.platform === 'win32' && command.includes('\\'))) {
    candidates.push(isAbsolute(command) ? command : resolve(cwd, command));
  } else {
    for (const dir of (env.PATH ?? '').split(delimiter)) {
      if (dir === '') continue;
      for (const ext of extensions) {
        const candidate = join(dir, command + ext);
        candidates.push(isAbsolute(candidate) ? candidate : resolve(cwd, candidate));
      }
    }
  }
  let denied: string | undefined;
  for (const candidate of candidates) {
    const state = await fileState(candidate);
    if (state === 'executable') return { found: true, path: candidate };
    if (state === 'not-executable') denied ??= candidate;
  }
  return denied === undefined
    ? { found: false, reason: 'not-found' }
    : { found: false, reason: 'not-executable', path: denied };
}

/**
 * The executable `command` would run, as an absolute path, or undefined (see {@link lookupCommand}
 * for why not).
 *
 * @example
 * await which('git'); // '/usr/bin/git'
 */
export async function which(
  command: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
  cwd: string = process.cwd(),
): Promise<string | undefined> {
  const found = await lookupCommand(command, env, cwd);
  return found.found ? found.path : undefined;
}

async function fileState(path: string): Promise<'executable' | 'not-executable' | 'missing'> {
  try {
    const info = await stat(path);
    if (!info.isFile()) return 'missing';
  } catch {
    return 'missing';
  }
  try {
    await access(path, constants.X_OK);
    return 'executable';
  } catch {
    return 'not-executable';
  }
}
