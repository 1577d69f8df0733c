/**
 * J. Secrets: canaries in MCP server env and headers, prompt text, terminal env, credential-named
 * `_meta` fields and an agent's argv, through the client engine and the real demo agent at debug
 * logging; every log line, stderr text, error, record and listing is searched (J1). Error replies
 * are covered by A3/B2 (J2). The agent's environment is an allowlist plus what was configured (J3).
 */
import { rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileWatch, newCanary } from './support/canary.js';
import { holds, zero } from './support/figures.js';
import { ACP_FROM_SOURCE, Collected, exitOf, makeHome, spawnAcp, tempDir } from './support/procs.js';
import { batteryClient, RELAY_AGENT, relayCall, relayEntry, relayInfo, script } from './support/relay.js';

const watch = fileWatch('j-secrets');

describe('J1 canary secrets never reach a log, an error or a record', () => {
  it('demo agent through the client engine: MCP env and headers, prompt text, debug logging everywhere', async () => {
    const secret = newCanary();
    const header = newCanary();
    const prompt = watch.promptCanary();
    const home = makeHome('j1-demo');
    const battery = await batteryClient({ watch, home, mode: 'reads' });
    try {
      const client = battery.client;
      const self = { command: process.execPath, args: [...ACP_FROM_SOURCE] };
      const demo = {
        ...client.catalog.require('demo'),
        command: self.command,
        args: [...self.args, 'agent', '--demo', '--data-dir', home.agentData],
      };
      const agent = await client.connect(demo);
      agent.events.on('stderr', ({ text }) => watch.see('demo agent stderr', text));
      agent.events.on('diagnostic', ({ message }) => watch.see('client diagnostic', message));
      const session = await agent.newSession({
        cwd: home.work,
        mcpServers: [
          {
            name: 'stdio-mcp',
            command: '/nonexistent/battery-mcp',
            args: [],
            env: [{ name: 'MCP_TOKEN', value: secret }],
          },
          {
            type: 'http',
            name: 'http-mcp',
            url: 'http://127.0.0.1:9/mcp',
            headers: [{ name: 'Authorization', value: `Bearer ${header}` }],
          },
        ],
      });
      const turn = await session
        .prompt(`read ${prompt}.txt`)
        .catch((e: unknown) => (watch.seeError('prompt error', e), undefined));
      await session.close();
      await agent.close();
      // Scans the client's records and the agent's session files.
      await battery.close();
      holds(
        { case: 'J1', name: 'demo agent turn with MCP env/header and prompt canaries completed' },
        turn !== undefined,
      );
      expect(turn).toBeDefined();
      expect(watch.hits).toEqual([]);
    } finally {
      await battery.close();
      home.cleanup();
    }
  }, 90_000);

  it('relay agent: terminal env, credential-named _meta fields, errors carrying secrets: not in logs or records', async () => {
    const battery = await batteryClient({ watch, mode: 'all' });
    try {
      const agent = await battery.client.connect(relayEntry());
      const session = await agent.newSession({ cwd: battery.home.work });
      const sessionId = session.agentSessionId ?? '';
      const terminal = newCanary();
      await relayCall(agent, 'terminal/create', {
        sessionId,
        command: process.execPath,
        args: ['-e', '0'],
        env: [{ name: 'MY_TOKEN', value: terminal }],
      });
      const metaKey = newCanary();
      const bearer = newCanary();
      // The steps come from a file, so the secrets are not in the prompt text (which is kept by design).
      const stepsDir = tempDir('j1-steps');
      const steps = join(stepsDir, 'steps.json');
      writeFileSync(
        steps,
        JSON.stringify([
          {
            update: {
              sessionUpdate: 'agent_message_chunk',
              content: { type: 'text', text: 'hi' },
              _meta: { apiKey: metaKey, authorization: `Bearer ${bearer}`, token: metaKey },
            },
          },
          {
            update: {
              sessionUpdate: 'tool_call',
              toolCallId: 't',
              title: 'x',
              _meta: { password: metaKey, credentials: { secret: bearer } },
            },
          },
        ]),
      );
      try {
        await session.prompt(script([{ file: steps }]));
      } finally {
        rmSync(stepsDir, { recursive: true, force: true });
      }
      await session.close();
    } finally {
      await battery.close();
    }
    expect(watch.hits).toEqual([]);
  });

  it('an API key in the agent argv is not saved in meta.json nor printed by acp sessions list', async () => {
    const home = makeHome('j1-argv');
    const key = newCanary();
    try {
      // A short command line, as a user would type it (the key within what acp records of it).
      symlinkSync(RELAY_AGENT, join(home.work, 'agent.mjs'));
      const run = spawnAcp(['run', 'hello', '--', 'node', 'agent.mjs', '--api-key', key], {
        cwd: home.work,
        env: home.env,
      });
      const out = new Collected(run.stdout);
      const err = new Collected(run.stderr);
      expect((await exitOf(run, 60_000)).code).toBe(0);
      const list = spawnAcp(['sessions', 'list'], { cwd: home.work, env: home.env });
      const listed = new Collected(list.stdout);
      const listErr = new Collected(list.stderr);
      await exitOf(list, 60_000);
      watch.see('acp run stdout', out.text, { output: true });
      watch.see('acp run stderr', err.text);
      watch.see('acp sessions list', listed.text + listErr.text);
      watch.scanTree(home.data, 'acp data dir');
      const found = watch.hits.filter((h) => h.canary === key).length;
      zero({ case: 'J1', name: 'agent argv key in meta.json / acp sessions list' }, found);
      expect(found).toBe(0);
    } finally {
      home.cleanup();
    }
  }, 90_000);
});

describe('J3 the agent environment', () => {
  it("a client-side AWS_SECRET_ACCESS_KEY is invisible to the agent unless the agent's entry configures it", async () => {
    const canary = newCanary();
    const saved = process.env.AWS_SECRET_ACCESS_KEY;
    process.env.AWS_SECRET_ACCESS_KEY = canary;
    const battery = await batteryClient({
      watch,
      env: { AWS_SECRET_ACCESS_KEY: canary, GITHUB_TOKEN: canary },
    });
    try {
      const plain = await relayInfo(await battery.client.connect(relayEntry()));
      const configured = await relayInfo(
        await battery.client.connect({
          ...relayEntry({}, 'configured'),
          env: { AWS_SECRET_ACCESS_KEY: 'configured-value' },
        }),
      );
      const leaked = Object.values(plain.env).some((v) => v.includes(canary));
      holds({ case: 'J3', name: 'client secrets invisible to an agent not configured for them' }, !leaked);
      holds(
        { case: 'J3', name: 'a variable configured for the agent is passed' },
        configured.env.AWS_SECRET_ACCESS_KEY === 'configured-value',
      );
      expect(configured.env.AWS_SECRET_ACCESS_KEY).toBe('configured-value');
      expect(plain.env.PATH, 'PATH is on the allowlist').toBeDefined();
      expect(leaked).toBe(false);
    } finally {
      if (saved === undefined) delete process.env.AWS_SECRET_ACCESS_KEY;
      else process.env.AWS_SECRET_ACCESS_KEY = saved;
      await battery.close();
      // The agent saw the secret; its own report of it is not a leak by the client.
      watch.hits.splice(0, watch.hits.length, ...watch.hits.filter((h) => h.canary !== canary));
    }
  });
});
