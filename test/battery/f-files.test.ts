/**
 * F4–F7. Special files, secret files inside the workspace, bad line/limit and oversized writes,
 * and hardlinks, through our client engine.
 */
import { spawn } from 'node:child_process';
import { existsSync, linkSync, mkdirSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileWatch } from './support/canary.js';
import { figure, zero } from './support/figures.js';
import { within } from './support/procs.js';
import { assertUsable, relayCall, type RelayAnswer } from './support/relay.js';

import { leaked, OUTSIDE_MARKER, setup } from './support/fs-setup.js';
const watch = fileWatch('f-files');

describe('F4 special files', () => {
  it('devices, FIFOs, sockets, /proc files, a 10 GB sparse file: refused or capped, never a hang', async () => {
    const s = await setup(watch, 'all', ['/dev', '/proc/self']);
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
      const s = await setup(watch, mode);
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
    const s = await setup(watch, 'all');
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
    const s = await setup(watch, 'all');
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
