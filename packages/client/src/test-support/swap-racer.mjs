#!/usr/bin/env node
// Swaps a directory for a symbolic link to another directory and back until killed: the racer of
// the filesystem TOCTOU tests. argv: the directory, the link target, the longest time (ms) the
// real directory and the link are each held (random below it, seeded: some writes land, some
// race), and the seed.
import { lstatSync, renameSync, symlinkSync, unlinkSync } from 'node:fs';

const [dir, target, holdRealArg = '2', holdLinkArg = '0.5', seedArg = '1'] = process.argv.slice(2);
const holdReal = Number(holdRealArg);
const holdLink = Number(holdLinkArg);
const stash = `${dir}.real`;
const pause = new Int32Array(new SharedArrayBuffer(4));
let seed = Number(seedArg) >>> 0 || 1;
const random = () => {
  // xorshift32: reproducible holds for a given seed.
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) / 2 ** 32;
};
process.stdout.write('ready\n');
for (let i = 0; ; i++) {
  try {
    const now = lstatSync(dir, { throwIfNoEntry: false });
    if (now?.isSymbolicLink()) {
      unlinkSync(dir);
      renameSync(stash, dir);
      hold(holdReal);
    } else {
      if (now) {
        try {
          renameSync(dir, stash);
        } catch {
          renameSync(dir, `${stash}-${i}`);
        }
      }
      symlinkSync(target, dir);
      hold(holdLink);
    }
  } catch {
    // Lost a race with the writer (it created the directory meanwhile): try again.
  }
}

function hold(ms) {
  if (ms > 0) Atomics.wait(pause, 0, 0, random() * ms);
}
