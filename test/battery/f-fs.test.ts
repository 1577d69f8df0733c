/**
 * F. File system security: `fs/read_text_file` and `fs/write_text_file` sent by the scripted
 * agent to our client engine, over real pipes, on real files: a path corpus (F1), symlinks (F2),
 * a directory swapped for a symlink while writes are in flight (F3), special files (F4), secret
 * files (F5), bad line/limit and oversized writes (F6), and hardlinks (F7).
 */
import { spawn } from 'node:child_process';
import {
  existsSync,
  linkSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import type { AgentConnection, ClientSession, PermissionAsk } from '@acp-kit/client';
import { afterAll, describe, expect, it } from 'vitest';
import { canaryFigure, CanaryWatch } from './support/canary.js';
import { figure, holds, zero } from './support/figures.js';
import { fixture, within } from './support/procs.js';
import {
  assertUsable,
  batteryClient,
  relayCall,
  relayCalls,
  relayEntry,
  type BatteryClient,
  type RelayAnswer,
} from './support/relay.js';
import { COUNTS, timeoutMs } from './support/size.js';

const watch = new CanaryWatch();
afterAll(() => {
  expect(canaryFigure(watch, 'f-fs')).toEqual([]);
});

const OUTSIDE_MARKER = 'OUTSIDE-CONTENT-MUST-NOT-LEAK';

interface Setup {
  battery: BatteryClient;
  agent: AgentConnection;
  session: ClientSession;
  work: string;
  outside: string;
  asks: PermissionAsk[];
  read(path: string, extra?: Record<string, unknown>): Promise<RelayAnswer>;
  write(path: string, content: string): Promise<RelayAnswer>;
}

/** A workspace, an outside directory with a marked file, and a session whose host denies and records. */
async function setup(
  mode: 'all' | 'ask' | 'reads' = 'all',
  additionalDirectories: string[] = [],
): Promise<Setup> {
  const asks: PermissionAsk[] = [];
  const battery = await batteryClient({
    watch,
    mode,
    host: { askPermission: async (ask) => (asks.push(ask), { decision: 'deny' }) },
  });
  const work = battery.home.work;
  const outside = join(battery.home.root, 'outside');
  mkdirSync(outside);
  writeFileSync(join(outside, 'secret.txt'), OUTSIDE_MARKER);
  const agent = await battery.client.connect(relayEntry());
  const session = await agent.newSession({ cwd: work, additionalDirectories });
  const sessionId = session.agentSessionId ?? '';
  return {
    battery,
    agent,
    session,
    work,
    outside,
    asks,
    read: (path, extra = {}) => relayCall(agent, 'fs/read_text_file', { sessionId, path, ...extra }),
    write: (path, content) => relayCall(agent, 'fs/write_text_file', { sessionId, path, content }),
  };
}

/** Every file under `dir`, relative, sorted. */
function tree(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();
}

const leaked = (answer: RelayAnswer): boolean => JSON.stringify(answer).includes(OUTSIDE_MARKER);

describe('F1 the path corpus', () => {
  it('outside the roots is refused (or asked), and errors do not show resolved paths', async () => {
    const s = await setup('all');
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
    const s = await setup('all');
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
      const s = await setup('all');
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

describe('F4 special files', () => {
  it('devices, FIFOs, sockets, /proc files, a 10 GB sparse file: refused or capped, never a hang', async () => {
    const s = await setup('all', ['/dev', '/proc/self']);
    const socketPath = join(s.work, 'sock');
    const server = createServer().listen(socketPath);
    try {
      spawn('mkfifo', [join(s.work, 'fifo')]).on('error', () => undefined);
      await within(new Promise((resolve) => server.once('listening', resolve)), 5_000, 'the socket');
      await new Promise((resolve) => setTimeout(resolve, 50));
      const sparse = join(s.work, 'sparse.bin');
      writeFileSync(sparse, '');
      truncateSync(sparse, 10 * 1024 ** 3);
      const cases = [
        '/dev/zero',
        '/dev/urandom',
        join(s.work, 'fifo'),
        socketPath,
        '/proc/self/environ',
        sparse,
      ];
      const problems: string[] = [];
      for (const path of cases) {
        const started = performance.now();
        const answer = await within(s.read(path), 10_000, `reading ${path}`).catch(
          (e: Error) => ({ error: { code: 0, message: e.message } }) as RelayAnswer,
        );
        const ms = Math.round(performance.now() - started);
        const bytes = JSON.stringify(answer.result ?? '').length;
        figure({
          case: 'F4',
          name: `${path.replace(s.work, '<work>')}: ms, bytes read ${bytes}`,
          value: ms,
          unit: 'ms',
          target: '≤ 5,000 ms, ≤ 16 MiB',
          pass: ms <= 5000 && bytes <= 16 * 1024 * 1024,
        });
        watch.see('F4 answer', answer.error);
        if (ms > 5000 || bytes > 16 * 1024 * 1024) problems.push(`${path}: ${ms} ms, ${bytes} bytes`);
      }
      zero({ case: 'F4', name: 'special files read without a cap or hanging' }, problems.length);
      expect(problems).toEqual([]);
      await assertUsable(s.agent);
    } finally {
      server.close();
      await s.battery.close();
    }
  }, 60_000);
});

describe('F5 secret files inside the workspace', () => {
  for (const mode of ['ask', 'reads'] as const) {
    it(`mode ${mode} (reads auto-approved): .env*, .git/config, *.pem, .ssh/ need explicit permission`, async () => {
      const s = await setup(mode);
      try {
        const secrets = ['.env', '.env.local', '.git/config', 'server.pem', '.ssh/id_rsa'];
        for (const name of secrets) {
          mkdirSync(join(s.work, name, '..'), { recursive: true });
          writeFileSync(join(s.work, name), `SECRET-IN-${name}`);
        }
        let leaks = 0;
        for (const name of secrets) {
          const answer = await s.read(join(s.work, name));
          if (JSON.stringify(answer).includes('SECRET-IN-')) leaks++;
        }
        const asked = s.asks.length;
        zero(
          { case: 'F5', name: `mode ${mode}: secret files read without explicit permission (host denies)` },
          leaks,
        );
        if (mode === 'ask')
          figure({
            case: 'F5',
            name: 'mode ask: secret reads asked',
            value: asked,
            target: `${secrets.length}`,
            pass: asked === secrets.length,
          });
        expect(leaks).toBe(0);
        if (mode === 'ask') expect(asked).toBe(secrets.length);
      } finally {
        await s.battery.close();
      }
    });
  }
});

describe('F6 line, limit and write size', () => {
  it('line 0, negative, 2^32 or huge → -32602; limit 0 → -32602 or nothing; 20 MB and 100 MB writes refused', async () => {
    const s = await setup('all');
    try {
      const file = join(s.work, 'lines.txt');
      writeFileSync(file, Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n'));
      const problems: string[] = [];
      for (const line of [0, -1, 2 ** 32, 1e15]) {
        const answer = await s.read(file, { line });
        if (answer.error?.code !== -32602)
          problems.push(`line ${line}: ${JSON.stringify(answer).slice(0, 120)}`);
      }
      for (const limit of [-1, 2 ** 32]) {
        const answer = await s.read(file, { limit });
        if (answer.error?.code !== -32602)
          problems.push(`limit ${limit}: ${JSON.stringify(answer).slice(0, 120)}`);
      }
      const zeroLimit = await s.read(file, { limit: 0 });
      if (!(
        zeroLimit.error?.code === -32602 ||
        (zeroLimit.result as { content?: string } | undefined)?.content === ''
      ))
        problems.push(`limit 0: ${JSON.stringify(zeroLimit).slice(0, 120)}`);
      const sessionId = s.session.agentSessionId ?? '';
      // Over the write limit (16 MiB) but under the frame limit: an error, no file.
      const overPath = join(s.work, 'over.txt');
      const over = await relayCall(
        s.agent,
        'fs/write_text_file',
        { sessionId, path: overPath },
        { field: 'content', bytes: 20 * 1024 * 1024 },
      );
      if (over.error === undefined || existsSync(overPath)) problems.push('a 20 MB write was accepted');
      // 100 MB: over the frame limit too; whatever ends it, no file and no hang.
      const hugePath = join(s.work, 'huge.txt');
      const huge = await within(
        relayCall(
          s.agent,
          'fs/write_text_file',
          { sessionId, path: hugePath },
          { field: 'content', bytes: 100 * 1024 * 1024 },
        ).catch((e: unknown) => ({ error: { code: 0, message: String(e) } }) as RelayAnswer),
        30_000,
        'the 100 MB write ending',
      ).catch((e: Error) => ({ error: { code: -1, message: e.message } }) as RelayAnswer);
      if (huge.error?.code === -1 || huge.error === undefined || existsSync(hugePath))
        problems.push(`a 100 MB write: ${huge.error?.message ?? 'accepted'}`);
      zero({ case: 'F6', name: 'line/limit/size cases not refused or capped' }, problems.length);
      expect(problems).toEqual([]);
    } finally {
      await s.battery.close();
    }
  }, 60_000);
});

describe('F7 hardlinks', () => {
  it('a hardlink inside the workspace to an outside file is treated as outside (refused) or asked', async () => {
    const s = await setup('all');
    try {
      const target = join(s.outside, 'hard-target.txt');
      writeFileSync(target, OUTSIDE_MARKER);
      linkSync(target, join(s.work, 'hard'));
      const read = await s.read(join(s.work, 'hard'));
      const write = await s.write(join(s.work, 'hard'), 'overwritten through a hardlink');
      const asked = s.asks.length;
      const escapes = (leaked(read) ? 1 : 0) + (readFileSync(target, 'utf8') === OUTSIDE_MARKER ? 0 : 1);
      zero(
        { case: 'F7', name: `hardlink to an outside file: escapes without a question (${asked} asked)` },
        asked > 0 ? 0 : escapes,
      );
      expect(
        asked > 0 || escapes === 0,
        `read: ${JSON.stringify(read).slice(0, 100)}, write: ${JSON.stringify(write).slice(0, 100)}`,
      ).toBe(true);
    } finally {
      await s.battery.close();
    }
  });
});
