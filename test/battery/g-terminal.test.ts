/**
 * G. `terminal/create` and friends, sent by the scripted agent to our client engine, running real
 * commands: shell metacharacters in argv (G1), a whole shell line (G2), dangerous environment
 * variables and inherited secrets (G3), a cwd outside the roots (G4), an output flood (G5), kill
 * and release of process trees (G6), limits and a crashed agent's terminals (G7), and approval
 * that cannot be skipped (G8).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentConnection, ClientSession, PermissionAsk } from '@acp-kit/client';
import { describe, expect, it } from 'vitest';
import { fileWatch } from './support/canary.js';
import { atMost, figure, holds, mib, zero } from './support/figures.js';
import { countOrphans, orphansOf, orphanToken, processesWith, within } from './support/procs.js';
import {
  assertUsable,
  batteryClient,
  relayCall,
  relayEntry,
  relayTerminal,
  type BatteryClient,
  type RelayAnswer,
} from './support/relay.js';
import { COUNTS, timeoutMs } from './support/size.js';

const watch = fileWatch('g-terminal');

interface Terminals {
  battery: BatteryClient;
  agent: AgentConnection;
  session: ClientSession;
  asks: PermissionAsk[];
  call(method: string, params: Record<string, unknown>): Promise<RelayAnswer>;
  /** Creates a terminal, waits for its exit, returns its output. */
  run(params: Record<string, unknown>): Promise<{ created: RelayAnswer; output?: RelayAnswer }>;
}

async function terminals(
  options: {
    mode?: 'all' | 'ask';
    allow?: boolean;
    env?: NodeJS.ProcessEnv;
    limits?: Record<string, number>;
  } = {},
): Promise<Terminals> {
  const asks: PermissionAsk[] = [];
  const battery = await batteryClient({
    watch,
    mode: options.mode ?? 'all',
    ...(options.env ? { env: options.env } : {}),
    ...(options.limits ? { terminals: options.limits } : {}),
    host: { askPermission: async (ask) => (asks.push(ask), { decision: options.allow ? 'allow' : 'deny' }) },
  });
  const agent = await battery.client.connect(relayEntry());
  const session = await agent.newSession({ cwd: battery.home.work });
  const sessionId = session.agentSessionId ?? '';
  const call = (method: string, params: Record<string, unknown>) =>
    relayCall(agent, method, { sessionId, ...params });
  return {
    battery,
    agent,
    session,
    asks,
    call,
    run: (params) => relayTerminal(agent, sessionId, params),
  };
}

const outputOf = (answer: RelayAnswer | undefined) =>
  answer?.result as
    | {
        output: string;
        truncated: boolean;
        exitStatus?: { exitCode?: number | null; signal?: string | null };
      }
    | undefined;

describe('G1 shell metacharacters in argv', () => {
  it('are passed as literal strings: no marker file is created', async () => {
    const t = await terminals();
    try {
      const m = (n: number) => join(t.battery.home.work, `marker-${n}`);
      const args = [
        `; touch ${m(1)}`,
        `&& touch ${m(2)}`,
        `$(touch ${m(3)})`,
        `\`touch ${m(4)}\``,
        `\ntouch ${m(5)}`,
        `> ${m(6)}`,
        `| tee ${m(7)}`,
      ];
      const { output } = await t.run({ command: '/bin/echo', args });
      const created = [1, 2, 3, 4, 5, 6, 7].filter((n) => existsSync(m(n))).length;
      zero(
        { case: 'G1', name: `injection markers created (${args.length} metacharacter arguments)` },
        created,
      );
      expect(created).toBe(0);
      expect(outputOf(output)?.output, 'echo ran and printed its arguments').toContain(`$(touch ${m(3)})`);
      await assertUsable(t.agent);
    } finally {
      await t.battery.close();
    }
  });
});

describe('G2 a whole shell line in command', () => {
  it('the permission question shows the whole line; denied, it does not run', async () => {
    const t = await terminals({ mode: 'ask' });
    try {
      const marker = join(t.battery.home.work, 'g2-marker');
      const line = `echo hi; touch ${marker} && echo "$(id)"`;
      const { created } = await t.run({ command: line });
      const shown = t.asks.some((a) => (a.command ?? '').includes(line));
      holds(
        { case: 'G2', name: 'a shell line: asked with the whole line, not run when denied' },
        shown && !existsSync(marker) && created.error !== undefined,
      );
      expect(shown, JSON.stringify(t.asks.map((a) => a.command))).toBe(true);
      expect(existsSync(marker)).toBe(false);
    } finally {
      await t.battery.close();
    }
  });
});

describe('G3 the environment of terminals', () => {
  it('LD_PRELOAD, DYLD_*, NODE_OPTIONS, PATH: refused unless approved; duplicate names resolve the same way every time', async () => {
    const t = await terminals({ mode: 'all' });
    try {
      const printEnv = {
        command: process.execPath,
        args: [
          '-e',
          'process.stdout.write(String(process.env.COLUMNS) + ":" + String(process.env.LD_PRELOAD))',
        ],
      };
      const dangerous = ['LD_PRELOAD', 'DYLD_INSERT_LIBRARIES', 'NODE_OPTIONS', 'PATH'];
      let ran = 0;
      for (const name of dangerous) {
        const { created } = await t.run({
          ...printEnv,
          env: [{ name, value: name === 'PATH' ? '/tmp/evil-bin' : '/tmp/evil.so' }],
        });
        if (created.result !== undefined) ran++;
      }
      // A variable of the allow list, so that it runs under --approve all.
      const dup = {
        ...printEnv,
        env: [
          { name: 'COLUMNS', value: '80' },
          { name: 'COLUMNS', value: '132' },
        ],
      };
      const outputs = new Set<string>();
      for (let i = 0; i < 3; i++) outputs.add(outputOf((await t.run(dup)).output)?.output ?? 'none');
      zero(
        {
          case: 'G3',
          name: `loader/path variables run without approval (of ${dangerous.length}, host denies)`,
        },
        ran,
      );
      holds(
        { case: 'G3', name: 'duplicate names handled deterministically' },
        outputs.size === 1 && !outputs.has('none'),
      );
      expect(ran).toBe(0);
      expect([...outputs]).toHaveLength(1);
      expect(outputs.has('none'), 'the duplicate-name terminal did not run').toBe(false);
    } finally {
      await t.battery.close();
    }
  });

  it("the client's secrets are not inherited by terminals unless configured", async () => {
    // What a terminal prints is content; this test alone reports whether the secret got there.
    const canary = watch.contentCanary();
    // The client process itself holds the secrets (as a user's shell would give them to `acp`).
    const saved = { aws: process.env.AWS_SECRET_ACCESS_KEY, gh: process.env.GITHUB_TOKEN };
    process.env.AWS_SECRET_ACCESS_KEY = canary;
    process.env.GITHUB_TOKEN = canary;
    const t = await terminals({ mode: 'all', env: { AWS_SECRET_ACCESS_KEY: canary, GITHUB_TOKEN: canary } });
    try {
      const { output } = await t.run({
        command: process.execPath,
        args: ['-e', 'process.stdout.write(JSON.stringify(process.env))'],
      });
      const printed = outputOf(output)?.output ?? '';
      expect(printed, 'the terminal printed its environment').toContain('"PATH"');
      const inherited = printed.includes(canary);
      holds(
        { case: 'G3', name: 'AWS_SECRET_ACCESS_KEY / GITHUB_TOKEN of the client not visible to a terminal' },
        !inherited,
      );
      expect(inherited).toBe(false);
    } finally {
      if (saved.aws === undefined) delete process.env.AWS_SECRET_ACCESS_KEY;
      else process.env.AWS_SECRET_ACCESS_KEY = saved.aws;
      if (saved.gh === undefined) delete process.env.GITHUB_TOKEN;
      else process.env.GITHUB_TOKEN = saved.gh;
      await t.battery.close();
    }
  });
});

describe('G4 a cwd outside the roots', () => {
  it('is refused', async () => {
    const t = await terminals({ mode: 'all' });
    try {
      const marker = join(t.battery.home.root, 'g4-marker');
      const { created } = await t.run({
        command: '/usr/bin/touch',
        args: [marker],
        cwd: t.battery.home.root,
      });
      const refused = created.error !== undefined && !existsSync(marker);
      holds({ case: 'G4', name: 'cwd outside the roots refused' }, refused);
      expect(refused).toBe(true);
    } finally {
      await t.battery.close();
    }
  });
});

describe('G5 an output flood', () => {
  it(
    `${mib(COUNTS.terminalOutputBytes)} MiB of multi-byte output, outputByteLimit absent, 0, small, huge: kept ≤ min(limit, ceiling), cut at the start on a character boundary`,
    async () => {
      const t = await terminals({ mode: 'all' });
      const ceiling = 1024 * 1024;
      try {
        const bytes = COUNTS.terminalOutputBytes;
        const writer = `const u='é€😀ab\\n'.repeat(4096);const n=${bytes};let w=0;const go=()=>{while(w<n){w+=Buffer.byteLength(u);if(!process.stdout.write(u))return process.stdout.once('drain',go)}process.stdout.write('END-OF-OUTPUT')};go()`;
        const problems: string[] = [];
        let peak = 0;
        const base = process.memoryUsage().rss;
        const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss - base)), 20);
        for (const limit of [undefined, 0, 1000, 1e12]) {
          const { output } = await within(
            t.run({
              command: process.execPath,
              args: ['-e', writer],
              ...(limit === undefined ? {} : { outputByteLimit: limit }),
            }),
            timeoutMs(60_000, 600_000),
            `output flood (limit ${limit})`,
          );
          const o = outputOf(output);
          const kept = Buffer.byteLength(o?.output ?? '');
          const max = Math.min(limit ?? ceiling, ceiling);
          figure({
            case: 'G5',
            name: `outputByteLimit ${limit ?? 'absent'}: bytes kept`,
            value: kept,
            unit: 'bytes',
            target: `≤ ${max}`,
            pass: kept <= max,
          });
          if (kept > max) problems.push(`limit ${limit}: kept ${kept} > ${max}`);
          if (!o?.truncated) problems.push(`limit ${limit}: truncated is not true`);
          if ((o?.output ?? '').includes('\ufffd')) problems.push(`limit ${limit}: cut inside a character`);
          if (max > 100 && !(o?.output ?? '').endsWith('END-OF-OUTPUT'))
            problems.push(`limit ${limit}: the end was not kept`);
        }
        clearInterval(sampler);
        atMost({ case: 'G5', name: 'client RSS growth during the floods', unit: 'MiB' }, mib(peak), 64);
        zero({ case: 'G5', name: 'output retention problems' }, problems.length);
        expect(problems).toEqual([]);
      } finally {
        await t.battery.close();
      }
    },
    timeoutMs(120_000, 1_800_000),
  );
});

describe('G6 kill and release of a process tree', () => {
  for (const how of ['kill, then wait_for_exit', 'release'] as const) {
    it(`${how}: the whole group is gone, the exit status names the signal`, async () => {
      const token = orphanToken();
      const t = await terminals({ mode: 'all' });
      try {
        const tree = {
          command: '/bin/sh',
          args: [
            '-c',
            `node -e 'setInterval(()=>{},1e6)' ${token} & node -e 'process.on("SIGTERM",()=>{});setInterval(()=>{},1e6)' ${token}; wait`,
          ],
        };
        const created = await t.call('terminal/create', tree);
        const terminalId = (created.result as { terminalId: string }).terminalId;
        const deadline = Date.now() + 10_000;
        while (processesWith(token).length < 2 && Date.now() < deadline)
          await new Promise((done) => setTimeout(done, 25));
        let signal: unknown;
        if (how === 'release') await t.call('terminal/release', { terminalId });
        else {
          await t.call('terminal/kill', { terminalId });
          signal = (
            (await t.call('terminal/wait_for_exit', { terminalId })).result as { signal?: string } | undefined
          )?.signal;
        }
        const left = await orphansOf(token);
        zero({ case: 'G6', name: `${how}: orphans` }, left.length);
        expect(left).toEqual([]);
        if (how !== 'release') expect(signal).toMatch(/SIG(TERM|KILL)/);
      } finally {
        await t.battery.close();
        await countOrphans(token, 0);
      }
    }, 30_000);
  }
});

describe('G7 limits, and the terminals of a crashed agent', () => {
  it('past the per-session limit: an error; when the agent dies, all its terminals are killed', async () => {
    const token = orphanToken();
    const t = await terminals({ mode: 'all', limits: { maxRunningPerSession: 3 } });
    try {
      const answers: RelayAnswer[] = [];
      for (let i = 0; i < 4; i++)
        answers.push(
          await t.call('terminal/create', {
            command: process.execPath,
            args: ['-e', 'setInterval(()=>{},1e6)', token],
          }),
        );
      const refused = answers.filter((a) => a.error !== undefined).length;
      process.kill(t.agent.pid as number, 'SIGKILL');
      const left = await orphansOf(token);
      figure({
        case: 'G7',
        name: 'terminals refused past a limit of 3 running (4 asked)',
        value: refused,
        target: '1',
        pass: refused === 1,
      });
      zero({ case: 'G7', name: 'terminals left running after the agent crashed' }, left.length);
      expect(refused).toBe(1);
      expect(left).toEqual([]);
    } finally {
      await t.battery.close();
      await countOrphans(token, 0);
    }
  }, 30_000);
});

describe('G8 approval cannot be skipped', () => {
  it('mode ask: terminal/create without an approved question is asked, and denied does not run', async () => {
    const t = await terminals({ mode: 'ask' });
    try {
      const marker = join(t.battery.home.work, 'g8-marker');
      const { created } = await t.run({ command: '/usr/bin/touch', args: [marker] });
      const ok = t.asks.length === 1 && created.error !== undefined && !existsSync(marker);
      holds({ case: 'G8', name: 'terminal/create in ask mode: asked, denied, not run' }, ok);
      expect(t.asks).toHaveLength(1);
      expect(existsSync(marker)).toBe(false);
    } finally {
      await t.battery.close();
    }
  });
});
