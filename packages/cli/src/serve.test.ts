/**
 * `acp serve` with real agent processes, and remote clients over real sockets on 127.0.0.1: the
 * demo agent over both profiles, an agent given as a command (stderr and exit reported to the
 * client), a client that vanishes mid-turn (the turn is cancelled, the process ends), the token.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AcpKitError, ClientSideConnection, type SessionNotification } from '@acp-kit/protocol';
import { AGENT_STDERR_NOTIFICATION } from '@acp-kit/protocol/remote';
import { CLOSE_NO_INITIALIZE, connectRemoteAgent } from '@acp-kit/protocol/remote/node';
import { connectUrl, serveToken } from './commands/serve.js';
import { fakeCommand, runCli, testHome, type TestHome } from './test-support/cli-harness.js';
import { startServe, type Served } from './test-support/serve-harness.js';

let home: TestHome | undefined;
let served: Served | undefined;

afterEach(async () => {
  await served?.stop();
  await home?.cleanup();
  served = home = undefined;
});

async function serve(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Served> {
  home ??= await testHome();
  return startServe(home, args, env);
}

async function remoteClient(url: string, profile: 'websocket' | 'http', token?: string) {
  const channel = await connectRemoteAgent(url, { profile, ...(token ? { token } : {}) });
  const updates: SessionNotification[] = [];
  const stderr: string[] = [];
  const connection = new ClientSideConnection(channel, {
    sessionUpdate: (params) => void updates.push(params),
    requestPermission: async ({ options }) => ({
      outcome: { outcome: 'selected', optionId: options[0]?.optionId ?? '' },
    }),
  });
  connection.onExtNotification(
    AGENT_STDERR_NOTIFICATION,
    (params) => void stderr.push((params as { text: string }).text),
  );
  connection.start();
  await connection.initialize({ protocolVersion: 1, clientCapabilities: {} });
  return { channel, connection, updates, stderr };
}

describe('acp serve', () => {
  it.each(['websocket', 'http'] as const)(
    'serves the demo agent for a whole turn over %s',
    async (profile) => {
      served = await serve(['--agent', 'demo']);
      expect(served.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/acp$/);
      const client = await remoteClient(served.url, profile);
      const { sessionId } = await client.connection.newSession({ cwd: home?.work ?? '/tmp', mcpServers: [] });
      const result = await client.connection.promptSession({
        sessionId,
        prompt: [{ type: 'text', text: 'hello' }],
      });
      expect(result.stopReason).toBe('end_turn');
      const texts = client.updates
        .map((u) => u.update as { sessionUpdate: string; content?: { text?: string } })
        .filter((u) => u.sessionUpdate === 'agent_message_chunk')
        .map((u) => u.content?.text ?? '')
        .join('');
      expect(texts.length).toBeGreaterThan(0);
      await client.connection.close();
      expect(served.stderr()).toMatch(/connection \w+ \((websocket|http)\): started .+, pid \d+/);
    },
  );

  it('reports the agent’s stderr and its exit (code, stderr tail) to the remote client', async () => {
    served = await serve(['--', ...fakeCommand()]);
    const client = await remoteClient(served.url, 'websocket');
    const { sessionId } = await client.connection.newSession({ cwd: '/tmp', mcpServers: [] });
    const steps = JSON.stringify([{ stderr: 'something went wrong here\n' }, { exit: 3 }]);
    const error = await client.connection
      .promptSession({ sessionId, prompt: [{ type: 'text', text: steps }] })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(AcpKitError);
    expect((error as AcpKitError).code).toBe('PEER_EXITED');
    expect((error as AcpKitError).message).toMatch(/exited with code 3/);
    expect((error as AcpKitError).message).toContain('something went wrong here');
    expect(client.stderr.join('')).toContain('something went wrong here');
  });

  it('acp run --url --verbose shows what the remote agent wrote on stderr while it started', async () => {
    // acp serve starts the agent at initialize: its first stderr is forwarded during the handshake.
    served = await serve(['--', ...fakeCommand({ startupStderr: 'fake agent booting\n' })]);
    const run = await runCli(['run', '--url', served.url, '--verbose', 'hello'], home as TestHome);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('fake agent booting');
  });

  it.each(['websocket', 'http'] as const)(
    'a client that vanishes mid-turn over %s: the turn is cancelled and the agent process ends',
    async (profile) => {
      home = await testHome();
      const cancelFile = join(home.dir, 'cancelled.txt');
      served = await serve(['--resume-grace', '0', '--', ...fakeCommand({ cancelFile })]);
      const client = await remoteClient(served.url, profile);
      const { sessionId } = await client.connection.newSession({ cwd: '/tmp', mcpServers: [] });
      const steps = JSON.stringify([{ text: 'working' }, { waitForCancel: true }]);
      void client.connection
        .promptSession({ sessionId, prompt: [{ type: 'text', text: steps }] })
        .catch(() => undefined);
      while (client.updates.length === 0) await new Promise((resolve) => setImmediate(resolve));
      // Gone without a goodbye: no DELETE, no close frame, no resume.
      const closedLine = waitForStderr(served, /connection \w+ closed/);
      const endedLine = waitForStderr(served, /ended \(/);
      (client.channel as unknown as { options: { resume: boolean } }).options.resume = false;
      destroySockets(client.channel);
      await closedLine;
      await endedLine;
      expect((await readFile(cancelFile, 'utf8')).trim()).toBe(sessionId);
    },
  );

  it('starts no agent for a WebSocket that sends no initialize, and drops it after --handshake-timeout', async () => {
    served = await serve(['--agent', 'demo', '--handshake-timeout', '0.3']);
    // Connected, and silent: the channel sends nothing until the engine writes.
    const silent = await connectRemoteAgent(served.url, { profile: 'websocket' });
    const ended = await new Promise<unknown>((resolve) =>
      silent.start({ data: () => undefined, end: (details) => resolve(details?.cause) }),
    );
    expect(String(ended)).toContain(`${CLOSE_NO_INITIALIZE}: initialize not sent in time`);
    expect(served.stderr()).not.toMatch(/started/);
    const bad = await runCli(['serve', '--agent', 'demo', '--handshake-timeout', '0'], home as TestHome);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--handshake-timeout takes a number of seconds/);
  });

  it('requires the token it generates with --require-token, and never prints it to stderr', async () => {
    served = await serve(['--agent', 'demo', '--require-token'], { ACP_KIT_SERVE_TOKEN: '' });
    expect(served.token).toMatch(/^[\w-]{32}$/);
    const refused = await remoteClient(served.url, 'websocket').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((refused as AcpKitError).code).toBe('REMOTE_REFUSED');
    const client = await remoteClient(served.url, 'http', served.token);
    await client.connection.newSession({ cwd: '/tmp', mcpServers: [] });
    await client.connection.close();
    expect(served.stderr()).not.toContain(served.token ?? 'x');
  });

  it('requires a token on any address but loopback', () => {
    expect(serveToken('127.0.0.1', false, {})).toEqual({ token: undefined, generated: false });
    expect(serveToken('::1', false, {})).toEqual({ token: undefined, generated: false });
    for (const host of ['0.0.0.0', '192.0.2.7', '::', 'devbox.example']) {
      const { token, generated } = serveToken(host, false, {});
      expect(generated).toBe(true);
      expect(token).toMatch(/^[\w-]{32}$/);
    }
    expect(serveToken('0.0.0.0', false, { ACP_KIT_SERVE_TOKEN: 'set' })).toEqual({
      token: 'set',
      generated: false,
    });
  });

  it('on every address (--host 0.0.0.0) prints a URL to connect to, and it works', async () => {
    served = await serve(['--agent', 'demo', '--host', '0.0.0.0'], { ACP_KIT_SERVE_TOKEN: 'tok-1' });
    expect(served.url).toMatch(/^http:\/\/0\.0\.0\.0:\d+\/acp$/);
    expect(served.connect).not.toContain('0.0.0.0');
    expect(served.connect).toBe(connectUrl(served.url));
    const h = home as TestHome;
    h.env.ACP_KIT_REMOTE_TOKEN = 'tok-1';
    const run = await runCli(['run', '--url', served.connect, 'hello'], h);
    expect(run.code, run.stderr).toBe(0);
    expect(
      connectUrl('http://[::]:9/acp', {
        lo: [],
        eth0: [{ address: '192.0.2.5', family: 'IPv4', internal: false } as never],
      }),
    ).toBe('http://192.0.2.5:9/acp');
    expect(connectUrl('http://0.0.0.0:9/acp', {}, 'devbox')).toBe('http://devbox:9/acp');
    expect(connectUrl('http://127.0.0.1:9/acp', {}, 'devbox')).toBe('http://127.0.0.1:9/acp');
  });

  it('takes the token from ACP_KIT_SERVE_TOKEN and does not print it', async () => {
    served = await serve(['--agent', 'demo', '--require-token'], { ACP_KIT_SERVE_TOKEN: 'my-own-token-123' });
    expect(served.token).toBeUndefined();
    const client = await remoteClient(served.url, 'websocket', 'my-own-token-123');
    await client.connection.newSession({ cwd: '/tmp', mcpServers: [] });
    await client.connection.close();
  });
});

describe('acp run --url', () => {
  it.each(['websocket', 'http'] as const)(
    'runs a demo turn against acp serve over %s, the token from the environment',
    async (transport) => {
      served = await serve(['--agent', 'demo', '--require-token'], {
        ACP_KIT_SERVE_TOKEN: 'shared-secret-1',
      });
      const h = home as TestHome;
      h.env.ACP_KIT_REMOTE_TOKEN = 'shared-secret-1';
      h.env.ACP_KIT_REMOTE_TRANSPORT = transport;
      const run = await runCli(['run', '--url', served.url, '--format', 'json', 'hello'], h);
      const lines = run.stdout
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(lines.at(-1)).toMatchObject({ type: 'result', stopReason: 'end_turn', exitCode: 0 });
      expect(lines.filter((line) => line.type === 'update').length).toBeGreaterThan(3);
      expect(run.stderr).not.toContain('shared-secret-1');
      expect(served.stderr()).toContain(`(${transport})`);
    },
  );

  it('acp run --url asks a full server again after its Retry-After, and says so on stderr', async () => {
    served = await serve(['--agent', 'demo', '--max-connections', '1']);
    const holder = await remoteClient(served.url, 'websocket');
    const run = await runCli(['run', '--url', served.url, 'hello'], home as TestHome, {
      // The place frees up while acp run waits.
      onStderr: (text) => void (/server is full/.test(text) && holder.connection.close()),
    });
    expect(run.stderr).toMatch(
      /▸ the server is full \(too many connections\): asking again in 5 s \(1 of 3\)/,
    );
    expect(run.code).toBe(0);
  });

  it('says why a remote agent cannot be used: a wrong token, a bad URL, two agents at once', async () => {
    served = await serve(['--agent', 'demo', '--require-token'], { ACP_KIT_SERVE_TOKEN: 'right' });
    const h = home as TestHome;
    h.env.ACP_KIT_REMOTE_TOKEN = 'wrong';
    const refused = await runCli(['run', '--url', served.url, 'hello'], h);
    expect(refused.code).toBe(8);
    expect(refused.stderr).toMatch(/token was missing or wrong/);
    // No agent stderr to look at over a URL: the hint names the variable the token goes in.
    expect(refused.stderr).toContain(
      'hint: set ACP_KIT_REMOTE_TOKEN to the token `acp serve` printed (or ACP_KIT_SERVE_TOKEN on the server), then run again',
    );
    expect(refused.stderr).not.toContain('--verbose');
    // A port nobody listens on (the server's, once it stopped).
    const url = served.url;
    await served.stop();
    served = undefined;
    const unreachable = await runCli(['run', '--url', url, '--format', 'json', 'hello'], h);
    expect(unreachable.code).toBe(8);
    expect(unreachable.stdout).toContain(
      '"hint":"check the address and that the server is running (`acp serve` prints its address); through ssh -L, that the tunnel is open"',
    );
    const bad = await runCli(['run', '--url', 'ftp://host/acp', 'hello'], h);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--url needs an http/);
    const both = await runCli(['run', '--url', url, '--agent', 'demo', 'hello'], h);
    expect(both.code).toBe(2);
    const ui = await runCli(['--url', 'nope'], h);
    expect(ui.code).toBe(2);
    expect(ui.stderr).toMatch(/--url needs an http/);
  });
});

/** Resolves when serve's stderr matches. */
async function waitForStderr(s: Served, pattern: RegExp): Promise<void> {
  while (!pattern.test(s.stderr())) await new Promise((resolve) => setImmediate(resolve));
}

/** Drops the client's sockets at the TCP level (as a crashed laptop or a dead proxy would). */
function destroySockets(channel: unknown): void {
  const socket = (channel as { socket?: { terminate(): void } }).socket;
  if (socket) socket.terminate();
  else for (const controller of (channel as { inflight: Set<AbortController> }).inflight) controller.abort();
}
