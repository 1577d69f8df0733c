/**
 * PATH lookup, as a shell would do it, without running anything.
 */
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { delimiter, isAbsolute, join, resolve } from 'node:path';

/**
 * Finds the executable `command` would run: a path containing a separator is checked as is
 * (relative to `cwd`), a bare name is searched in `PATH`. Returns the absolute path or undefined.
 *
 * @example
 * await which('git'); // '/usr/bin/git'
 */
export async function which(
  command: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
  cwd: string = process.cwd(),
): Promise<string | undefined> {
  if (command === '' || command.includes('\0')) return undefined;
  const extensions =
    process.platform === 'win32' ? ['', ...(env.PATHEXT ?? '.EXE;.CMD;.BAT;.COM').split(';')] : [''];
  if (command.includes('/') || (process.platform === 'win32' && command.includes('\\'))) {
    const full = isAbsolute(command) ? command : resolve(cwd, command);
    return (await isExecutable(full)) ? full : undefined;
  }
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue;
    for (const ext of extensions) {
      const candidate = join(dir, command + ext);
      if (await isExecutable(candidate)) return isAbsolute(candidate) ? candidate : resolve(cwd, candidate);
    }
  }
  return undefined;
}

async function isExecutable(path: string): Promise<boolean> {
  try {
    const info = await stat(path);
    if (!info.isFile()) return false;
    await access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
