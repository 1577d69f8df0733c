/**
 * `acp serve`: exposes a catalog agent (or a command) as a remote ACP endpoint, `/acp`, over the
 * RFD's Streamable HTTP and WebSocket profiles. Each remote connection gets its own agent process;
 * its stderr and its exit go to that connection's client. Loopback by default; any other address
 * needs a bearer token (ACP_KIT_SERVE_TOKEN, or one generated and printed here).
 */
import { randomBytes } from 'node:crypto';
import { hostname, networkInterfaces } from 'node:os';
import { resolve } from 'node:path';
import { stat } from 'node:fs/promises';
import { AgentCatalog, resolveClientPaths, startAgentProcess, type AgentEntry } from '@acp-kit/client';
import { RemoteServer, type RemoteServerLimits } from '@acp-kit/protocol/remote';
import { isLoopbackHost, listenRemote } from '@acp-kit/protocol/remote/node';
import { EXIT_CODES, UsageError, type StopSignal } from '../exit-codes.js';
import type { CliIo } from '../io.js';
import { chooseAgent } from './run.js';

/** The variable that holds the token `acp serve` requires (never a command-line option: it would be in the shell history and `ps`). */
export const SERVE_TOKEN_VARIABLE = 'ACP_KIT_SERVE_TOKEN';
export const DEFAULT_SERVE_PORT = 8765;

export interface ServeOptions {
  agent?: string;
  host?: string;
  port?: string;
  cwd?: string;
  allowOrigin?: string[];
  requireToken?: boolean;
  maxConnections?: string;
  maxSessions?: string;
  maxMessageBytes?: string;
  resumeGrace?: string;
  handshakeTimeout?: string;
}

function positiveInteger(value: string | undefined, option: string): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isSafeInteger(number) || number < 1)
    throw new UsageError(`${option} takes a whole number above 0`);
  return number;
}

/**
 * The token the endpoint requires: ACP_KIT_SERVE_TOKEN when set; else, on a non-loopback address
 * (or with --require-token), a new random one (printed once); else none (loopback only).
 */
export function serveToken(
  host: string,
  requireToken: boolean,
  env: NodeJS.ProcessEnv,
): { token: string | undefined; generated: boolean } {
  const given = env[SERVE_TOKEN_VARIABLE];
  if (given) return { token: given, generated: false };
  if (isLoopbackHost(host) && !requireToken) return { token: undefined, generated: false };
  return { token: randomBytes(24).toString('base64url'), generated: true };
}

/**
 * The URL a client connects to. A wildcard host (`0.0.0.0`, `::`) is where the server listens, not
 * an address to connect to: this machine's first external IPv4 address stands in for it (else its
 * host name).
 *
 * @example
 * connectUrl('http://0.0.0.0:8765/acp'); // 'http://192.168.1.20:8765/acp'
 */
export function connectUrl(
  url: string,
  interfaces: ReturnType<typeof networkInterfaces> = networkInterfaces(),
  name: string = hostname(),
): string {
  const parsed = new URL(url);
  if (parsed.hostname !== '0.0.0.0' && parsed.hostname !== '[::]') return url;
  const external = Object.values(interfaces)
    .flat()
    .find((address) => address?.family === 'IPv4' && !address.internal);
  parsed.hostname = external?.address ?? name;
  return parsed.href;
}

/** Runs the endpoint until SIGINT/SIGTERM/SIGHUP; then every connection and agent is stopped. */
export async function serveCommand(
  tail: readonly string[] | undefined,
  options: ServeOptions,
  io: CliIo,
): Promise<number> {
  if (options.agent && tail) throw new UsageError('give either --agent NAME or a command after --, not both');
  if (!options.agent && !tail?.length)
    throw new UsageError('no agent to serve', {
      hint: 'acp serve --agent demo, or acp serve -- COMMAND [ARGS…]',
    });
  const host = options.host ?? '127.0.0.1';
  const port = options.port === undefined ? DEFAULT_SERVE_PORT : Number(options.port);
  if (!Number.isSafeInteger(port) || port < 0 || port > 65535)
    throw new UsageError('--port takes a port number (0: any free port)');
  const cwd = resolve(io.cwd, options.cwd ?? '.');
  if (!(await stat(cwd).catch(() => undefined))?.isDirectory())
    throw new UsageError(`--cwd ${cwd} is not a directory`);
  const limits: Partial<RemoteServerLimits> = {};
  const maxConnections = positiveInteger(options.maxConnections, '--max-connections');
  const maxSessions = positiveInteger(options.maxSessions, '--max-sessions');
  const maxMessageBytes = positiveInteger(options.maxMessageBytes, '--max-message-bytes');
  const grace = options.resumeGrace === undefined ? undefined : Number(options.resumeGrace);
  if (grace !== undefined && !(grace >= 0)) throw new UsageError('--resume-grace takes a number of seconds');
  const handshake = options.handshakeTimeout === undefined ? undefined : Number(options.handshakeTimeout);
  if (handshake !== undefined && !(handshake > 0))
    throw new UsageError('--handshake-timeout takes a number of seconds above 0');
  if (handshake !== undefined) limits.handshakeTimeoutMs = handshake * 1000;
  if (maxConnections) limits.maxConnections = maxConnections;
  if (maxSessions) limits.maxSessionsPerConnection = maxSessions;
  if (maxMessageBytes) limits.maxMessageBytes = maxMessageBytes;
  if (grace !== undefined) limits.resumeGraceMs = grace * 1000;

  const paths = resolveClientPaths(io.env);
  const catalog = await AgentCatalog.load({ agentsFile: paths.agentsFile, self: io.self, env: io.env });
  const entry: AgentEntry = chooseAgent({ catalog }, options.agent, tail, io.cwd);
  if ((entry as { url?: unknown }).url !== undefined)
    throw new UsageError(`${entry.id} is a remote agent; acp serve runs agents on this machine`);

  const { token, generated } = serveToken(host, options.requireToken === true, io.env);
  const log = (text: string): void => void io.stderr.write(`acp serve: ${text}\n`);
  const short = (id: string): string => id.slice(0, 8);

  const server = new RemoteServer({
    limits,
    startAgent: async ({ connectionId, profile }) => {
      const process = await startAgentProcess(entry, {
        cwd,
        env: io.env,
        passEnv: catalog.passEnv,
        onStderr: (text) => server.get(connectionId)?.stderr(text),
      });
      log(
        `connection ${short(connectionId)} (${profile}): started ${entry.name}, pid ${process.peer.pid ?? '?'}`,
      );
      void process.exited.then((details) =>
        log(
          `connection ${short(connectionId)}: ${entry.name} ended (${details.signal ? `signal ${details.signal}` : `exit code ${details.exitCode ?? '?'}`})`,
        ),
      );
      return { channel: process.peer.channel, stop: () => process.shutdown(2000) };
    },
    onConnectionClosed: (connection) => log(`connection ${short(connection.id)} closed`),
  });
  const listener = await listenRemote(server, {
    host,
    port,
    ...(token ? { token } : {}),
    ...(options.allowOrigin ? { allowedOrigins: options.allowOrigin } : {}),
  }).catch((error: unknown) => {
    const code = (error as { code?: string }).code;
    if (code === 'EADDRINUSE')
      throw new UsageError(`port ${port} on ${host} is in use`, { hint: 'choose another with --port' });
    throw error;
  });

  const url = connectUrl(listener.url);
  io.stdout.write(
    `acp serve: ${entry.name} at ${listener.url}${url === listener.url ? '' : ' (every address of this machine)'} (WebSocket and Streamable HTTP), one agent process per connection\n`,
  );
  if (generated)
    io.stdout.write(
      `token: ${token}\n  clients send it as "Authorization: Bearer <token>"; for acp: ACP_KIT_REMOTE_TOKEN=<token> acp --url ${url}\n  (set ${SERVE_TOKEN_VARIABLE} to choose the token yourself)\n`,
    );
  else if (!token)
    io.stdout.write(`no token: only this machine can connect (set ${SERVE_TOKEN_VARIABLE} to require one)\n`);
  io.stdout.write(`connect: acp --url ${url}   or   acp run --url ${url} "PROMPT"\n`);

  const signal = await new Promise<StopSignal>((resolveSignal) => {
    const off = io.onSignal((received) => {
      off();
      resolveSignal(received);
    });
  });
  log(`stopping (${signal}): closing ${server.size} connection(s)`);
  await listener.close();
  return EXIT_CODES.OK;
}
