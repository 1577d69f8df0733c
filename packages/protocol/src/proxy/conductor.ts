/**
 * The conductor of a proxy chain (unstable ACP v1, RFD "Proxy Chains"): one agent to the client,
 * made of proxies in front of a final agent. Runtime-neutral: it routes between channels it is
 * given; `@acp-kit/protocol/node/chain`'s `startChain` (its own entry: the unstable schema's
 * validators stay out of `/node`) spawns the components and owns their lifetimes.
 *
 * Routing, per hop (every hop is its own JSON-RPC connection, so request ids are mapped per hop):
 * - client → first component: plain; `initialize` becomes `proxy/initialize` when it is a proxy.
 * - proxy → conductor, `proxy/successor`: unwrapped and sent plain to the next component.
 * - proxy or agent → conductor, plain: towards the client; wrapped in `proxy/successor` for the
 *   previous proxy, plain for the client.
 * Answers come back unchanged. When a component ends, the chain is over: every request still
 * waiting for an answer gets an error naming that component.
 *
 * Frames are routed as text: only the routing fields are read (frame-scan.ts); `params`,
 * `result` and `error` travel as the text they came in as, and what one read brings is written
 * to each hop in one write. Each hop of a chain used to parse, validate and re-encode every
 * message; a stream through one proxy ran at a fifth of the direct rate (docs/performance.md).
 */
import { AcpKitError, ErrorCodes, ProtocolError } from '../jsonrpc/errors.js';
import { FrameDecoder } from '../jsonrpc/framing.js';
import type { Logger } from '../jsonrpc/types.js';
import { closeError, encodeError, invalidRequest } from '../jsonrpc/wire.js';
import type { ByteChannel } from '../transport/types.js';
import { PROXY_METHODS } from './envelope.js';
import {
  isIdText,
  methodJson,
  paramsAllowed,
  paramsText,
  scanFrame,
  type ScannedFrame,
} from './frame-scan.js';
import { answerBack, cancelForwarded, forwardText, Hop } from './hop.js';
import { envelopeText, idOf, openEnvelope } from './text-envelope.js';

/** One component of the chain; the last one is the final agent, the others are proxies. */
export interface ChainComponent {
  /** How errors and logs name it (e.g. `trace proxy`, `agent`). */
  readonly name: string;
  readonly channel: ByteChannel;
}

export interface ConductorOptions {
  /** Diagnostics sink; never receives frame contents (only methods and ids). */
  logger?: Logger;
  /** Largest inbound message on any hop in bytes (default 64 MiB); a bigger one ends the chain. */
  maxMessageBytes?: number;
  /** Called with every frame on every hop: `hop` is `client` or a component's index. */
  trace?: (hop: 'client' | number, direction: 'in' | 'out', text: string) => void;
}

/** Why the chain ended: the component that ended first (or the client) and what it said. */
export interface ChainEnd {
  /** `client`, or the index of the component. */
  readonly who: 'client' | number;
  readonly name: string;
  readonly reason: AcpKitError;
}

const CANCEL_REQUEST = '$/cancel_request';
const INITIALIZE_JSON = methodJson('initialize');
const PROXY_INITIALIZE_JSON = methodJson(PROXY_METHODS.proxy_initialize);
const SUCCESSOR_JSON = methodJson(PROXY_METHODS.proxy_successor);

/**
 * Routes messages between a client channel and the chain's components.
 *
 * @example
 * const conductor = new Conductor(clientChannel, [{ name: 'trace proxy', channel: a }, { name: 'agent', channel: b }]);
 * const end = await conductor.ended; // the first to go; then stop the others
 */
export class Conductor {
  /** Resolves with the first end: of the client or of a component. */
  readonly ended: Promise<ChainEnd>;
  /** Hop 0 is the client, hop i + 1 the component i. */
  private readonly hops: Hop[];
  private end: ChainEnd | undefined;
  private resolveEnded!: (end: ChainEnd) => void;
  private readonly logger: Logger | undefined;

  constructor(
    clientChannel: ByteChannel,
    private readonly parts: readonly ChainComponent[],
    private readonly options: ConductorOptions = {},
  ) {
    if (parts.length === 0) throw new AcpKitError('INVALID_ARGUMENT', 'a chain needs at least an agent');
    this.ended = new Promise((resolve) => (this.resolveEnded = resolve));
    this.logger = options.logger;
    const trace = options.trace;
    const traceOf = (index: number) =>
      trace &&
      ((direction: 'in' | 'out', text: string) => trace(index === 0 ? 'client' : index - 1, direction, text));
    this.hops = [
      new Hop(0, 'client', clientChannel, traceOf(0)),
      ...parts.map((part, index) => new Hop(index + 1, part.name, part.channel, traceOf(index + 1))),
    ];
  }

  /** Starts reading from every channel. */
  start(): void {
    for (const hop of this.hops) {
      const decoder = new FrameDecoder(
        {
          frame: (text) => this.route(hop, text),
          fatal: (error) => this.hopEnded(hop, error),
        },
        { maxMessageBytes: this.options.maxMessageBytes },
      );
      hop.channel.start({
        data: (chunk) => {
          decoder.feed(chunk);
          this.flush();
        },
        end: (details) => this.hopEnded(hop, closeError(hop.name, details)),
      });
    }
  }

  /** Closes every channel (the components' processes are the spawner's to stop). */
  async close(): Promise<void> {
    this.finish({
      who: 'client',
      name: 'client',
      reason: new AcpKitError('CONNECTION_CLOSED', 'the chain was closed'),
    });
    for (const hop of this.hops) hop.close();
    await Promise.resolve();
  }

  private isProxyHop(hop: number): boolean {
    return hop >= 1 && hop < this.hops.length - 1;
  }

  /** One frame that arrived on `from`. */
  private route(from: Hop, text: string): void {
    from.traceIn(text);
    if (this.end) return;
    const frame = scanFrame(text);
    if (!frame) {
      // The engine's answer to a line it cannot read; what we cannot scan we cannot route either.
      return from.send(encodeError(null, ProtocolError.parseError({ note: 'not a JSON-RPC object' })));
    }
    if (frame.method === undefined) {
      if (!answerBack(from, frame))
        this.log('debug', 'answer to an unknown or cancelled request', { hop: from.name });
      return;
    }
    if (frame.jsonrpcText !== '"2.0"')
      return this.reject(from, frame, invalidRequest('jsonrpc must be "2.0"'));
    if (!paramsAllowed(frame))
      return this.reject(from, frame, invalidRequest('params must be an object or array'));
    if (frame.idText !== undefined && !isIdText(frame.idText))
      return from.send(encodeError(null, invalidRequest('id must be a string or a number')));
    if (frame.method === CANCEL_REQUEST && frame.idText === undefined) {
      cancelForwarded(from, frame);
      return;
    }
    const fromIndex = from.index;
    if (fromIndex > 0 && frame.method === PROXY_METHODS.proxy_successor && this.isProxyHop(fromIndex)) {
      const inner = openEnvelope(frame);
      if (inner instanceof ProtocolError) {
        if (frame.idText !== undefined) from.send(encodeError(idOf(frame.idText), inner, frame.idText));
        else this.log('debug', 'dropped a malformed proxy/successor notification', { hop: from.name });
        return;
      }
      return this.forward(from, frame.idText, this.hops[fromIndex + 1], inner.methodJson, inner.params);
    }
    const target = fromIndex === 0 ? this.hops[1] : this.hops[fromIndex - 1];
    if (!target) return;
    const params = paramsText(frame);
    if (fromIndex === 0 || target.index === 0) {
      // Plain on both sides: a notification goes on as it came.
      if (frame.idText === undefined && !(fromIndex === 0 && frame.method === 'initialize'))
        return target.send(text, from);
      return this.forward(from, frame.idText, target, frame.methodText ?? methodJson(frame.method), params);
    }
    // Towards a proxy, from its successor: wrapped.
    forwardText(
      from,
      frame.idText,
      target,
      SUCCESSOR_JSON,
      envelopeText(frame.methodText ?? methodJson(frame.method), params),
    );
  }

  /** Sends a message on to `target`; `initialize` becomes `proxy/initialize` for a proxy. */
  private forward(
    from: Hop,
    idText: string | undefined,
    target: Hop | undefined,
    method: string,
    params: string | undefined,
  ): void {
    if (!target) return;
    if (method === INITIALIZE_JSON && this.isProxyHop(target.index)) method = PROXY_INITIALIZE_JSON;
    forwardText(from, idText, target, method, params);
  }

  private reject(from: Hop, frame: ScannedFrame, error: ProtocolError): void {
    const idText = frame.idText !== undefined && isIdText(frame.idText) ? frame.idText : undefined;
    from.send(encodeError(idText === undefined ? null : idOf(idText), error, idText));
  }

  private flush(): void {
    for (const hop of this.hops) hop.flush();
  }

  private hopEnded(hop: Hop, reason: AcpKitError): void {
    hop.ended = true;
    this.finish({ who: hop.index === 0 ? 'client' : hop.index - 1, name: hop.name, reason });
  }

  /** The first end: every request still waiting, on every hop still there, is answered with why. */
  private finish(end: ChainEnd): void {
    if (this.end) return;
    this.end = end;
    const error = endError(end);
    for (const hop of this.hops) {
      if (hop.ended) continue;
      for (const inbound of hop.inbound.values())
        hop.send(encodeError(idOf(inbound.idText), error, inbound.idText));
      hop.inbound.clear();
      hop.outbound.clear();
    }
    this.flush();
    this.resolveEnded(end);
  }

  private log(level: 'debug' | 'warn', message: string, fields: Record<string, unknown>): void {
    this.logger?.log(level, message, fields);
  }
}

function endError(end: ChainEnd): ProtocolError {
  const what = end.who === 'client' ? 'the client disconnected' : `${end.name} ended: ${end.reason.message}`;
  return new ProtocolError(ErrorCodes.InternalError, `proxy chain stopped: ${what}`, {
    component: end.name,
  });
}
