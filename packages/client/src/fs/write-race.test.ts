/**
 * The write escape race (battery F3): a separate process swaps a directory inside the workspace
 * for a symbolic link to an outside directory and back, as fast as it can, while writes go into
 * that directory. Not one file (target or temp) may appear outside the roots.
 * `ACP_KIT_RACE_WRITES` sets the number of writes (default 2,000; the battery runs 10,000).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ClientError } from '../errors.js';
import { tempDir } from '../test-support/harness.js';
import { PROC_FD_AVAILABLE, writeByPath } from './atomic-write.js';
import { FsService, type FsCallContext } from './fs-service.js';
import { realRoots, resolveWriteTarget } from './path-guard.js';

const RACER = fileURLToPath(new URL('../test-support/swap-racer.mjs', import.meta.url));
const WRITES = Number(process.env.ACP_KIT_RACE_WRITES ?? 2000);
const CONCURRENCY = 8;
const SEED = Number(process.env.ACP_KIT_RACE_SEED ?? 20240611);

let base: string;
let root: string;
let outside: string;
let cleanup: () => Promise<void>;
let racer: ChildProcess | undefined;

beforeEach(async () => {
  const t = await tempDir('acp-race-');
  ({ dir: base, cleanup } = t);
  root = join(base, 'ws');
  outside = join(base, 'outside');
  await mkdir(join(root, 'd'), { recursive: true });
  await mkdir(outside);
});

afterEach(async () => {
  if (racer && racer.exitCode === null && racer.signalCode === null) {
    racer.kill('SIGKILL');
    await once(racer, 'exit');
  }
  racer = undefined;
  await cleanup();
});

/** Every file under `dir`, recursively (links not followed). */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => !entry.isDirectory()).map((entry) => join(entry.parentPath, entry.name));
}

async function startRacer(): Promise<ChildProcess> {
  const child = spawn(process.execPath, [RACER, join(root, 'd'), outside, '8', '1', String(SEED)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await once(child.stdout, 'data');
  return child;
}

const context: FsCallContext = {
  agentId: 'race',
  get cwd() {
    return root;
  },
  get roots() {
    return [root];
  },
  // The `all` policy: everything inside the roots, nothing outside.
  authorize: async (subject) => !subject.outsideRoots && !subject.hardLinked,
};

describe('writes under a racing directory↔symlink swap', () => {
  it(`leaves no file outside the roots after ${WRITES} writes`, async () => {
    const fs = new FsService();
    racer = await startRacer();
    const outcomes = new Map<string, number>();
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < WRITES) {
        const i = next++;
        // Half into the swapped directory, half into a new directory under it (created on the way).
        const path = i % 2 === 0 ? join(root, 'd', `f${i}.txt`) : join(root, 'd', `n${i}`, 'f.txt');
        let outcome = 'written';
        try {
          await fs.writeTextFile({ sessionId: 's', path, content: `write ${i}` }, context);
        } catch (error) {
          outcome = error instanceof ClientError ? error.code : `other: ${String(error)}`;
        }
        outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    racer.kill('SIGKILL');
    await once(racer, 'exit');
    const escaped = await filesUnder(outside);
    const summary = `seed ${SEED}, outcomes ${JSON.stringify(Object.fromEntries(outcomes))}`;
    expect(escaped, `files outside the roots (${summary})`).toEqual([]);
    // The race was real: some writes landed, some were refused because of the swap.
    expect(outcomes.get('written') ?? 0, summary).toBeGreaterThan(0);
    expect(WRITES - (outcomes.get('written') ?? 0), summary).toBeGreaterThan(0);
    expect(
      [...outcomes.keys()].filter((key) => key.startsWith('other')),
      summary,
    ).toEqual([]);
  }, 120_000);
});

describe('the fallback without /proc (macOS)', () => {
  it('writes, creates parents, and refuses a parent swapped for a link', async () => {
    const roots = await realRoots([root]);
    const target = await resolveWriteTarget(join(root, 'd', 'new', 'f.txt'));
    await writeByPath({ target, content: 'hello', roots, shown: join(root, 'd', 'new', 'f.txt') });
    expect(await filesUnder(root)).toEqual([join(root, 'd', 'new', 'f.txt')]);

    const swapped = await resolveWriteTarget(join(root, 'd', 'g.txt'));
    const { rename, symlink } = await import('node:fs/promises');
    await rename(join(root, 'd'), join(root, 'd-moved'));
    await symlink(outside, join(root, 'd'));
    const failure = await writeByPath({ target: swapped, content: 'x', roots, shown: 'g.txt' }).catch(
      (error: unknown) => error,
    );
    expect((failure as ClientError).code).toBe('PATH_OUTSIDE_ROOTS');
    expect(await filesUnder(outside)).toEqual([]);
  });

  it('is not used on Linux, which writes through /proc/self/fd', () => {
    expect(PROC_FD_AVAILABLE).toBe(process.platform === 'linux');
  });
});
