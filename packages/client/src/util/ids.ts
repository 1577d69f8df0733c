/** Identifiers the client makes up: sortable by creation time, unguessable enough to be unique. */
import { randomBytes } from 'node:crypto';

let lastTime = 0;
let counter = 0;

/**
 * A lexicographically time-sortable id: 10 base-36 characters of milliseconds, a per-millisecond
 * counter and 8 random hex characters.
 *
 * @example
 * newId('s'); // 's-0lx2k3j9a0-00-9f3a1b2c'
 */
export function newId(prefix: string): string {
  const now = Date.now();
  counter = now === lastTime ? counter + 1 : 0;
  lastTime = now;
  const time = now.toString(36).padStart(10, '0');
  return `${prefix}-${time}-${counter.toString(36).padStart(2, '0')}-${randomBytes(4).toString('hex')}`;
}
