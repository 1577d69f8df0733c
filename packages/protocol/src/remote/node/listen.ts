/**
 * Serves a {@link RemoteServer} on one `/acp` endpoint with Node's HTTP server: Streamable HTTP
 * (POST, SSE GET, DELETE) and the WebSocket upgrade (with `ws`), after the checks every request
 * passes first: path, Host (on loopback, against DNS rebinding), Origin, bearer token.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { isRefusal, type RemoteServer } from '../server.js';
import {
  EVENT_STREAM_MEDIA_TYPE,
  HEADER_CONNECTION_ID,
  HEADER_LAST_EVENT_ID,
  HEADER_MESSAGE_SEQ,
  HEADER_RESUMABLE,
  HEADER_SESSION_ID,
  JSON_MEDIA_TYPE,
  parseMessage,
} from '../wire.js';
import { serveSocket, type SocketStart } from './socket-receiver.js';
import { attachSse } from './sse-receiver.js';

export interface ListenRemoteOptions {
  /** Address to listen on (default 127.0.0.1). */
  host?: string;
  /** Port (default 0: any free port). */
  port?: number;
  /** The endpoint's path (default `/acp`). */
  path?: string;
  /** Bearer token every request must carry (`Authorization: Bearer …`); none: no authentication. */
  token?: string;
  /** Origins allowed to connect from a browser (exact `scheme://host[:port]`); others get 403. */
  allowedOrigins?: readonly string[];
}

/** A listening endpoint. */
export interface RemoteListener {
  /** `http://host:port/acp`. */
  readonly url: string;
  readonly host: string;
  readonly port: number;
  readonly httpServer: Server;
  /** Stops listening and closes every connection (their agents are stopped). */
  close(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);
const CORS_HEADERS = [
  'Authorization',
  'Content-Type',
  HEADER_CONNECTION_ID,
  HEADER_SESSION_ID,
  HEADER_LAST_EVENT_ID,
  HEADER_MESSAGE_SEQ,
].join(', ');

/** Whether an address is on the loopback interface (host names are case-insensitive: `LOCALHOST` too). */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return LOOPBACK.has(bare) || /^127\.\d+\.\d+\.\d+$/.test(bare);
}

/**
 * Listens and serves the endpoint.
 *
 * @example
 * const listener = await listenRemote(server, { port: 8765, token: process.env.ACP_KIT_SERVE_TOKEN });
 * console.log(`ACP at ${listener.url}`);
 */
export async function listenRemote(
  server: RemoteServer,
  options: ListenRemoteOptions = {},
): Promise<RemoteListener> {
  const host = options.host ?? '127.0.0.1';
  const path = options.path ?? '/acp';
  const gate = new Gate(options, isLoopbackHost(host));
  const limits = server.limits;
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: limits.maxMessageBytes,
    perMessageDeflate: false,
  });
  const upgradeHeaders = new WeakMap<IncomingMessage, string[]>();
  wss.on('headers', (headers, request) => headers.push(...(upgradeHeaders.get(request) ?? [])));

  const http = createServer((req, res) => {
    void handleRequest(server, gate, path, req, res).catch((error: unknown) => {
      server.logger?.log('warn', 'remote request failed', {
        error: error instanceof Error ? error.message : 'error',
      });
      if (!res.headersSent) respond(res, 500, 'Internal Server Error');
      else res.destroy();
    });
  });
  http.on('connection', (socket: Socket) => socket.setNoDelay(true));
  http.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => undefined);
    void handleUpgrade(server, gate, path, wss, upgradeHeaders, req, socket, head).catch(() =>
      socket.destroy(),
    );
  });
  // An SSE stream or a held POST may last long: no idle timeout on them (heartbeats keep them alive).
  http.requestTimeout = 0;
  http.headersTimeout = 30_000;

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, host, () => {
      http.off('error', reject);
      resolve();
    });
  });
  const address = http.address() as AddressInfo;
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${urlHost}:${address.port}${path}`,
    host: address.address,
    port: address.port,
    httpServer: http,
    close: async () => {
      await server.close();
      for (const client of wss.clients) client.terminate();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/** The checks before anything else: Host, Origin, token. */
class Gate {
  private readonly tokenDigest: Buffer | undefined;
  private readonly origins: ReadonlySet<string>;

  constructor(
    options: ListenRemoteOptions,
    private readonly loopback: boolean,
  ) {
    this.tokenDigest = options.token ? digest(options.token) : undefined;
    this.origins = new Set(options.allowedOrigins ?? []);
  }

  /** The refusal for this request, if any (status and text; no detail that helps guessing). */
  check(req: IncomingMessage, preflight = false): { status: number; message: string } | undefined {
    if (this.loopback && !hostIsLoopback(req.headers.host)) return { status: 403, message: 'Forbidden host' };
    const origin = req.headers.origin;
    if (origin !== undefined && !this.origins.has(origin))
      return { status: 403, message: 'Forbidden origin' };
    if (preflight || !this.tokenDigest) return undefined;
    const header = req.headers.authorization ?? '';
    const match = /^Bearer\s+(.+)$/i.exec(header);
    // Compare digests: constant time whatever the lengths.
    if (!match || !timingSafeEqual(digest((match[1] as string).trim()), this.tokenDigest))
      return { status: 401, message: 'Unauthorized' };
    return undefined;
  }

  corsHeaders(req: IncomingMessage): Record<string, string> {
    const origin = req.headers.origin;
    if (origin === undefined || !this.origins.has(origin)) return {};
    return {
      'Access-Control-Allow-Origin': origin,
      Vary: 'Origin',
      'Access-Control-Expose-Headers': [HEADER_CONNECTION_ID, HEADER_RESUMABLE].join(', '),
    };
  }
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

function hostIsLoopback(host: string | undefined): boolean {
  if (!host) return false;
  const name = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.replace(/:\d+$/, '');
  return isLoopbackHost(name);
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

function respond(
  res: ServerResponse,
  status: number,
  text: string,
  headers: Record<string, string> = {},
): void {
  const extra = status === 401 ? { 'WWW-Authenticate': 'Bearer' } : {};
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', ...extra, ...headers });
  res.end(text);
}

/** `Last-Event-ID` as a number; null when absent, NaN when not a number. */
function lastEventId(req: IncomingMessage): number | null {
  const value = header(req, HEADER_LAST_EVENT_ID);
  if (value === undefined || value === '') return null;
  return /^\d{1,15}$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
}

async function handleRequest(
  server: RemoteServer,
  gate: Gate,
  path: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://localhost');
  if (url.pathname !== path) return respond(res, 404, 'Not Found');
  const cors = gate.corsHeaders(req);
  if (req.method === 'OPTIONS') {
    const refused = gate.check(req, true);
    if (refused) return respond(res, refused.status, refused.message);
    res.writeHead(204, {
      ...cors,
      'Access-Control-Allow-Methods': 'GET, POST, DELETE',
      'Access-Control-Allow-Headers': CORS_HEADERS,
      'Access-Control-Max-Age': '600',
    });
    res.end();
    return;
  }
  const refused = gate.check(req);
  if (refused) return respond(res, refused.status, refused.message);
  for (const [name, value] of Object.entries(cors)) res.setHeader(name, value);
  if (req.method === 'POST') return handlePost(server, req, res);
  if (req.method === 'GET') return handleGet(server, req, res);
  if (req.method === 'DELETE') {
    const id = header(req, HEADER_CONNECTION_ID);
    if (!id) return respond(res, 400, 'Missing Acp-Connection-Id');
    const connection = server.get(id);
    if (!connection) return respond(res, 404, 'Unknown Acp-Connection-Id');
    connection.end();
    res.writeHead(202);
    res.end();
    return;
  }
  respond(res, 405, 'Method Not Allowed', { Allow: 'GET, POST, DELETE' });
}

async function handlePost(server: RemoteServer, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const type = (header(req, 'content-type') ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== JSON_MEDIA_TYPE) return respond(res, 415, 'Unsupported Media Type');
  const id = header(req, HEADER_CONNECTION_ID);
  const connection = id ? server.get(id) : undefined;
  if (id && !connection) return respond(res, 404, 'Unknown Acp-Connection-Id');
  // acp-kit extension: numbered messages, so a POST retried after a cut is taken once. A number
  // is used up by any final answer (202 or a refusal); only a message that never arrived is sent again.
  const seqHeader = header(req, HEADER_MESSAGE_SEQ);
  let seq: number | undefined;
  if (connection && seqHeader !== undefined) {
    seq = /^\d{1,15}$/.test(seqHeader) ? Number(seqHeader) : Number.NaN;
    if (!Number.isSafeInteger(seq) || seq < 1) return respond(res, 400, 'Invalid Acp-Message-Seq');
    if (seq > connection.clientSeq + 1) return respond(res, 409, 'Acp-Message-Seq out of order');
  }
  const body = await readBody(req, server.limits.maxMessageBytes);
  if (connection && seq !== undefined) {
    if (seq <= connection.clientSeq) {
      // A retry of a message that arrived (its answer was lost).
      res.writeHead(202);
      res.end();
      return;
    }
    // Counted once the whole body arrived: a POST cut half-way is taken when it is sent again.
    connection.clientSeq = seq;
  }
  if (body === undefined) {
    // Not read further: the client's connection is closed after this answer.
    res.setHeader('Connection', 'close');
    res.once('finish', () => req.destroy());
    respond(res, 413, `Message over the ${server.limits.maxMessageBytes}-byte limit`);
    return;
  }
  if (!connection) {
    const message = parseMessage(body);
    if (message?.method !== 'initialize') return respond(res, 400, 'Missing Acp-Connection-Id');
    return initializeOverHttp(server, body, req, res);
  }
  const refusal = await connection.fromClient(body, header(req, HEADER_SESSION_ID) ?? null);
  if (refusal) return respond(res, refusal.status, refusal.message);
  res.writeHead(202);
  res.end();
}

async function initializeOverHttp(
  server: RemoteServer,
  body: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const opened = await server.open('http');
  if (isRefusal(opened))
    return respond(res, opened.status, opened.message, retryAfter(server, opened.status));
  const connection = opened;
  const gone = (): void => connection.close('the client went away during initialize');
  res.once('close', gone);
  try {
    const answer = await connection.initialize(body);
    res.off('close', gone);
    connection.markInitialized();
    res.writeHead(200, {
      'Content-Type': JSON_MEDIA_TYPE,
      [HEADER_CONNECTION_ID]: connection.id,
      [HEADER_RESUMABLE]: '1',
    });
    res.end(answer);
  } catch (error) {
    res.off('close', gone);
    connection.close('initialize failed');
    const timeout = error instanceof Error && 'code' in error && error.code === 'REQUEST_TIMEOUT';
    respond(res, timeout ? 504 : 502, error instanceof Error ? error.message : 'Initialize failed');
  }
}

function handleGet(server: RemoteServer, req: IncomingMessage, res: ServerResponse): void {
  const accept = (header(req, 'accept') ?? '').toLowerCase();
  if (!accept.includes(EVENT_STREAM_MEDIA_TYPE)) return respond(res, 406, 'Not Acceptable');
  const id = header(req, HEADER_CONNECTION_ID);
  if (!id) return respond(res, 400, 'Missing Acp-Connection-Id');
  const connection = server.get(id);
  if (!connection || connection.profile !== 'http') return respond(res, 404, 'Unknown Acp-Connection-Id');
  const last = lastEventId(req);
  if (Number.isNaN(last)) return respond(res, 400, 'Invalid Last-Event-ID');
  const session = header(req, HEADER_SESSION_ID);
  // SSE: 204 tells a client the stream is over and not to come back.
  if (connection.streamEnded(session, last ?? undefined)) {
    res.writeHead(204);
    res.end();
    return;
  }
  attachSse(connection, session, last ?? undefined, req, res, server.limits.heartbeatMs);
}

async function handleUpgrade(
  server: RemoteServer,
  gate: Gate,
  path: string,
  wss: WebSocketServer,
  upgradeHeaders: WeakMap<IncomingMessage, string[]>,
  req: IncomingMessage,
  socket: Duplex,
  head: Buffer,
): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://localhost');
  if (url.pathname !== path) return rejectUpgrade(socket, 404, 'Not Found');
  if ((header(req, 'upgrade') ?? '').toLowerCase() !== 'websocket')
    return rejectUpgrade(socket, 400, 'Bad Upgrade');
  const refused = gate.check(req);
  if (refused) return rejectUpgrade(socket, refused.status, refused.message);
  const resumeId = header(req, HEADER_CONNECTION_ID);
  let start: SocketStart;
  if (resumeId) {
    // acp-kit extension: a client that lost its socket resumes the connection it had.
    const existing = server.get(resumeId);
    if (!existing || existing.profile !== 'websocket')
      return rejectUpgrade(socket, 404, 'Unknown Acp-Connection-Id');
    const parsed = lastEventId(req);
    if (parsed === null || Number.isNaN(parsed))
      return rejectUpgrade(socket, 400, 'Resuming needs Last-Event-ID');
    start = { connection: existing, lastEventId: parsed };
    upgradeHeaders.set(req, [
      `${HEADER_CONNECTION_ID}: ${existing.id}`,
      `${HEADER_RESUMABLE}: 1`,
      `${HEADER_MESSAGE_SEQ}: ${existing.clientSeq}`,
    ]);
  } else {
    // The agent starts when `initialize` arrives: a socket that never sends it costs no process.
    const admission = server.admit();
    if (isRefusal(admission))
      return rejectUpgrade(socket, admission.status, admission.message, retryAfter(server, admission.status));
    start = { admission, handshakeTimeoutMs: server.limits.handshakeTimeoutMs };
    upgradeHeaders.set(req, [`${HEADER_CONNECTION_ID}: ${admission.id}`, `${HEADER_RESUMABLE}: 1`]);
  }
  const abandon = (): void => {
    if ('admission' in start) start.admission.release();
  };
  socket.once('close', abandon);
  wss.handleUpgrade(req, socket, head, (ws) => {
    socket.off('close', abandon);
    serveSocket(ws, start, server.limits.heartbeatMs);
  });
}

/** `Retry-After` for a 503 (the server is full): when to try again. */
function retryAfter(server: RemoteServer, status: number): Record<string, string> {
  return status === 503 ? { 'Retry-After': String(server.limits.retryAfterSeconds) } : {};
}

function rejectUpgrade(
  socket: Duplex,
  status: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  const reason =
    {
      400: 'Bad Request',
      401: 'Unauthorized',
      403: 'Forbidden',
      404: 'Not Found',
      503: 'Service Unavailable',
    }[status] ?? 'Error';
  const extra = Object.entries({
    ...(status === 401 ? { 'WWW-Authenticate': 'Bearer' } : {}),
    ...headers,
  })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\n${extra}Content-Length: ${Buffer.byteLength(message)}\r\n\r\n${message}`,
  );
}

/** The request body as text, or undefined past `limit` bytes (reading stops there). */
function readBody(req: IncomingMessage, limit: number): Promise<string | undefined> {
  const declared = Number(header(req, 'content-length'));
  if (Number.isFinite(declared) && declared > limit) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        req.off('data', onData);
        req.off('end', onEnd);
        chunks.length = 0;
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => resolve(Buffer.concat(chunks, size).toString('utf8'));
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('error', reject);
    req.once('close', () => {
      if (!req.complete) reject(new Error('the request was cut off'));
    });
  });
}
