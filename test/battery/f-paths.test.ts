/**
 * F1–F3. File system security through our client engine, over real pipes, on real files: a path
 * corpus, symlinks, and a directory swapped for a symlink while writes are in flight. F4–F7 are in
 * f-files.test.ts.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { PermissionAsk } from '@acp-kit/client';
import { describe, expect, it } from 'vitest';
import { fileWatch } from './support/canary.js';
import { figure, holds, zero } from './support/figures.js';
import { fixture, within } from './support/procs.js';
import { assertUsable, batteryClient, relayCall, relayCalls, relayEntry } from './support/relay.js';
import { COUNTS, timeoutMs } from './support/size.js';

import { leaked, OUTSIDE_MARKER, setup, tree } from './support/fs-setup.js';
const watch = fileWatch('f-paths');

describe('F1 the path corpus', () => {
  it('outside the roots is refused (or asked), and errors do not show resolved paths', async () => {
    const s = await setup(watch, 'all');
    try {
      const w = s.work;
      const outsideBefore = tree(s.outside);
      const corpus = [
        'secret.txt',
        '../outside/secret.txt',
        `${w}/../outside/secret.txt`,
        `${w}/../../../../../../${s.outside.slice(1)}/secret.txt`,
        `${s.outside}/secret.txt`,
        '/etc/passwd',
        '~/outside/secret.txt',
        `${w}/%2e%2e/outside/secret.txt`,
        `${w}/x\0/../../outside/secret.txt`,
        `${w}/${'a/'.repeat(32 * 1024)}`,
        `${s.outside}/.`,
        `${s.outside}/secret.txt/.`,
        'C:\\Windows\\win.ini',
        '\\\\server\\share\\secret.txt',
        `/${w}//..//outside//secret.txt`,
        `${w}/./../outside/./secret.txt`,
      ];
      let escapes = 0;
      let showsResolved = 0;
      const offending: string[] = [];
      for (const path of corpus) {
        const read = await s.read(path);
        const write = await s.write(
          path.endsWith('secret.txt') ? path.replace('secret.txt', 'written.txt') : `${path}-written`,
          'agent wrote this',
        );
        if (leaked(read)) {
          escapes++;
          offending.push(`read ${path.slice(0, 80)}`);
        }
        for (const answer of [read, write]) {
          watch.see('F1 error', answer.error);
          const message = answer.error?.message ?? '';
          // Naming the path as asked (lexically normalised) is fine; naming where links lead is not.
          const asked = resolve(path.replace(/\0.*/, ''));
          if (!path.includes(s.outside) && !asked.startsWith(s.outside) && message.includes(s.outside)) {
            showsResolved++;
            offending.push(`${path.slice(0, 60)} → "${message.slice(0, 120)}"`);
          }
        }
      }
      escapes += tree(s.outside).length - outsideBefore.length;
      figure({
        case: 'F1',
        name: `path corpus (${corpus.length} paths, read and write)`,
        value: corpus.length * 2,
        unit: 'cases',
      });
      zero({ case: 'F1', name: 'escapes (outside content read, outside file written)' }, escapes);
      zero(
        { case: 'F1', name: 'errors showing a resolved outside path the agent did not name' },
        showsResolved,
      );
      expect(offending).toEqual([]);
      expect(escapes).toBe(0);
      expect(showsResolved).toBe(0);
      await assertUsable(s.agent);
    } finally {
      await s.battery.close();
    }
  });
});

describe('F2 symlinks', () => {
  it('links out are refused, the final component is never followed on write, inside links read fine', async () => {
    const s = await setup(watch, 'all');
    try {
      const w = s.work;
      writeFileSync(join(s.outside, 'target.txt'), 'outside target');
      writeFileSync(join(w, 'real.txt'), 'inside content');
      symlinkSync(join(s.outside, 'secret.txt'), join(w, 'link-out'));
      symlinkSync(s.outside, join(w, 'dir-out'));
      symlinkSync(join(s.outside, 'target.txt'), join(w, 'final'));
      symlinkSync(join(s.outside, 'created-by-dangling.txt'), join(w, 'dangling'));
      symlinkSync(join(w, 'real.txt'), join(w, 'inner-link'));
      const before = tree(s.outside);
      const answers = [
        await s.read(join(w, 'link-out')),
        await s.read(join(w, 'dir-out/secret.txt')),
        await s.write(join(w, 'dir-out/new.txt'), 'escaped'),
        await s.write(join(w, 'final'), 'overwritten through a link'),
        await s.write(join(w, 'dangling'), 'created through a dangling link'),
      ];
      const inside = await s.read(join(w, 'inner-link'));
      const revealing = answers.filter((a) => (a.error?.message ?? '').includes(s.outside)).length;
      const escapes =
        answers.filter(leaked).length +
        (tree(s.outside).length - before.length) +
        (readFileSync(join(s.outside, 'target.txt'), 'utf8') === 'outside target' ? 0 : 1);
      zero({ case: 'F2', name: 'symlink escapes (5 link cases)' }, escapes);
      holds(
        { case: 'F2', name: 'a link inside → inside is read' },
        JSON.stringify(inside.result).includes('inside content'),
      );
      zero({ case: 'F2', name: 'errors revealing where a link leads' }, revealing);
      expect(escapes).toBe(0);
      expect(inside.result).toEqual({ content: 'inside content' });
      await assertUsable(s.agent);
      expect(answers.map((a) => a.error?.message).filter((m) => m?.includes(s.outside))).toEqual([]);
    } finally {
      await s.battery.close();
    }
  });

  it('the root itself a symlink: inside works, outside still refused', async () => {
    const asks: PermissionAsk[] = [];
    const battery = await batteryClient({
      watch,
      mode: 'all',
      host: { askPermission: async (a) => (asks.push(a), { decision: 'deny' }) },
    });
    try {
      const real = join(battery.home.root, 'real-root');
      const outside = join(battery.home.root, 'outside');
      mkdirSync(real);
      mkdirSync(outside);
      writeFileSync(join(real, 'a.txt'), 'in the real root');
      writeFileSync(join(outside, 'secret.txt'), OUTSIDE_MARKER);
      const root = join(battery.home.root, 'root-link');
      symlinkSync(real, root);
      const agent = await battery.client.connect(relayEntry());
      const session = await agent.newSession({ cwd: root });
      const sessionId = session.agentSessionId ?? '';
      const inside = await relayCall(agent, 'fs/read_text_file', { sessionId, path: join(root, 'a.txt') });
      const out = await relayCall(agent, 'fs/read_text_file', {
        sessionId,
        path: join(root, '../outside/secret.txt'),
      });
      zero({ case: 'F2', name: 'root is a symlink: escapes' }, leaked(out) ? 1 : 0);
      expect(inside.result).toEqual({ content: 'in the real root' });
      expect(leaked(out)).toBe(false);
    } finally {
      await battery.close();
    }
  });
});

describe('F3 a directory swapped for a symlink while writes are in flight', () => {
  it(
    `${COUNTS.swapRaceWrites} writes (and reads) under a racing swap: nothing written or read outside`,
    async () => {
      const s = await setup(watch, 'all');
      const racer = spawn(process.execPath, [fixture('swapper.mjs'), s.work, s.outside], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      try {
        await within(
          new Promise((resolve) => racer.stdout?.once('data', resolve)),
          10_000,
          'the racer starting',
        );
        const sessionId = s.session.agentSessionId ?? '';
        const writes = Array.from({ length: COUNTS.swapRaceWrites }, (_, i) => ({
          method: 'fs/write_text_file',
          params: { sessionId, path: join(s.work, 'sub', `file-${i}.txt`), content: `agent content ${i}` },
        }));
        const reads = Array.from({ length: Math.ceil(COUNTS.swapRaceWrites / 5) }, () => ({
          method: 'fs/read_text_file',
          params: { sessionId, path: join(s.work, 'sub', 'secret.txt') },
        }));
        const started = performance.now();
        const answers = await relayCalls(s.agent, [...writes, ...reads], 8);
        const ms = Math.round(performance.now() - started);
        racer.kill('SIGKILL');
        const outsideFiles = tree(s.outside).filter((f) => f !== 'secret.txt');
        const readEscapes = answers.filter(leaked).length;
        const escapes = outsideFiles.length + readEscapes;
        figure({
          case: 'F3',
          name: `writes under the swap race (${answers.filter((a) => a.result !== undefined).length} succeeded, ${ms} ms)`,
          value: writes.length,
          unit: 'writes',
          target: '≥ 10,000 (full size)',
          pass: writes.length >= 10_000,
        });
        zero(
          {
            case: 'F3',
            name: `escapes: files outside (${outsideFiles.length}) + outside content read (${readEscapes})`,
          },
          escapes,
        );
        expect(outsideFiles.slice(0, 10), `${outsideFiles.length} files written outside`).toEqual([]);
        expect(readEscapes).toBe(0);
      } finally {
        racer.kill('SIGKILL');
        await s.battery.close();
      }
    },
    timeoutMs(120_000, 900_000),
  );
});
