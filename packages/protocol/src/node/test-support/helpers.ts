/** Helpers for the Node tests: fixture paths and process liveness. Not part of the build. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export function fixture(name: string): string {
  return fileURLToPath(new URL(`./${name}`, import.meta.url));
}

/** Whether `pid` is a live (non-zombie) process. */
export function isAlive(pid: number): boolean {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  }
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0] !== 'Z';
}
