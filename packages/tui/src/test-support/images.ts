/** Small real images for tests of attaching images (valid files, not just magic bytes). */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A 1×1 PNG (70 bytes). */
export const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** A 1×1 GIF (35 bytes). */
export const TINY_GIF = Buffer.from('R0lGODlhAQABAIAAAP///wAAACwAAAAAAQABAAACAkQBADs=', 'base64');

/**
 * Writes an executable shell script named `name` into `dir` (created when missing), for a fake
 * clipboard tool put first on PATH: a real child process that prints what the test wants.
 */
export function writeFakeTool(dir: string, name: string, script: string): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\n${script}\n`);
  chmodSync(path, 0o755);
  return path;
}
