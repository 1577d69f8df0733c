/**
 * One hop of a conductor (or of a pass-through proxy): the channel to a peer, what waits to be
 * written to it, and the requests in flight across it in each direction; and forwarding a
 * request from one hop to another with its id mapped, as text.
 */
import { ErrorCodes, ProtocolError } from '../jsonrpc/errors.js';
import { encodeError, invalidRequest } from '../jsonrpc/wire.js';
import type { ByteChannel } from '../transport/types.js';
import { buildMessage, buildResponse, methodJson, type ScannedFrame } from './frame-scan.js';
import { cancelledKey, idKey, idOf } from './text-envelope.js';

const CANCEL_REQUEST_JSON = methodJson('$/cancel_request');

/** A request that arrived on this hop and was forwarded: where, and under which id. */
export interface InboundForward {
  /** The id as the sender wrote it, echoed in the answer. */
  readonly idText: string;
  readonly target: Hop;
  readonly targetId: number;
}

/** A request the conductor sent on this hop: whose it is. */
export interface OutboundForward {
  readonly from: Hop;
  /** The key of the sender's request in `from.inbound`. */
  readonly key: string;
}

export class Hop {
  /** Requests received on this hop awaiting an answer, by the canonical JSON of their id. */
  readonly inbound = new Map<string, InboundForward>();
  /** Requests sent on this hop awaiting an answer, by the id the conductor gave them. */
  readonly outbound = new Map<number, OutboundForward>();
  /** The next id of a request sent on this hop; `idStep` apart (a proxy counts down: see proxy.ts). */
  nextId: number;
  /** The peer's side ended (exit, EOF, framing error). */
  ended = false;
  /** Frames routed to this hop since the last flush: written in one go. */
  private pending: string[] = [];
  /** The hops the queued frames were read from. */
  private sources = new Set<Hop>();
  /** While the peer does not keep up: the hops held back until it drains. */
  private held: Hop[] | undefined;
  private holds = 0;
  private closed = false;

  constructor(
    readonly index: number,
    readonly name: string,
    readonly channel: ByteChannel,
    private readonly trace?: (direction: 'in' | 'out', text: string) => void,
    private readonly idStep = 1,
  ) {
    this.nextId = idStep;
  }

  /** Takes the id of the next request sent on this hop. */
  takeId(): number {
    const id = this.nextId;
    this.nextId += this.idStep;
    return id;
  }

  traceIn(text: string): void {
    this.trace?.('in', text);
  }

  /**
   * Queues one frame (without its newline) for the next flush. `source`: the hop it was read
   * from, held back while this one does not keep up; `traced`: false when traced already.
   */
  send(text: string, source?: Hop, traced = true): void {
    if (this.closed) return;
    if (traced) this.trace?.('out', text);
    this.pending.push(text);
    if (source) this.sources.add(source);
  }

  /** The peer did not take the last write yet. */
  get congested(): boolean {
    return this.held !== undefined;
  }

  /**
   * Writes what was queued. When the peer does not keep up, reading from the hops these frames
   * came from stops until it drained: only they fill it (holding every hop would stop the very
   * hops whose reading drains it, e.g. a proxy waiting to write what it was sent).
   */
  flush(): void {
    if (this.pending.length === 0) return;
    const text = this.pending.length === 1 ? this.pending[0] + '\n' : this.pending.join('\n') + '\n';
    this.pending = [];
    const sources = this.sources;
    this.sources = new Set();
    if (this.closed || (this.channel.write(text) && !this.held)) return;
    const starting = this.held === undefined;
    const held = (this.held ??= []);
    for (const source of sources) {
      source.hold(true);
      held.push(source);
    }
    if (!starting) return;
    void this.channel.drain().then(() => {
      this.held = undefined;
      for (const source of held) source.hold(false);
    });
  }

  /** Stops (on) or restarts (off) reading from this hop; holds from several hops add up. */
  hold(on: boolean): void {
    if (on) {
      if (this.holds++ === 0) this.channel.pause();
    } else if (this.holds > 0 && --this.holds === 0) {
      this.channel.resume();
    }
  }

  close(): void {
    this.closed = true;
    this.pending = [];
    this.channel.close();
  }
}

/**
 * Sends a request (with `idText`) or notification from `from` to `target` under a new id there;
 * `method` and `params` are JSON texts. A duplicate id from the sender is answered -32600.
 */
export function forwardText(
  from: Hop,
  idText: string | undefined,
  target: Hop,
  method: string,
  params: string | undefined,
): void {
  if (idText === undefined) return target.send(buildMessage(undefined, method, params), from);
  const key = idKey(idText);
  if (from.inbound.has(key))
    return from.send(encodeError(idOf(idText), invalidRequest('duplicate request id'), idText));
  const id = target.takeId();
  from.inbound.set(key, { idText, target, targetId: id });
  target.outbound.set(id, { from, key });
  target.send(buildMessage(String(id), method, params), from);
}

/** An answer that arrived on `on`: back to the sender of the request, under its id. False when unknown. */
export function answerBack(on: Hop, frame: ScannedFrame): boolean {
  const id = frame.idText === undefined ? Number.NaN : Number(frame.idText);
  const pending = on.outbound.get(id);
  if (!pending) return false;
  on.outbound.delete(id);
  const inbound = pending.from.inbound.get(pending.key);
  if (!inbound) return true;
  pending.from.inbound.delete(pending.key);
  const answer = buildResponse(inbound.idText, frame);
  if (answer !== undefined) pending.from.send(answer, on);
  else {
    const error = new ProtocolError(ErrorCodes.InternalError, `chain: ${on.name} sent a malformed answer`);
    pending.from.send(encodeError(idOf(inbound.idText), error, inbound.idText), on);
  }
  return true;
}

/**
 * A `$/cancel_request` that arrived on `from` (hop-local): cancels the request forwarded for it
 * on the next hop and answers the sender -32800 now, as the engine does. False when it names no
 * request forwarded from `from`.
 */
export function cancelForwarded(from: Hop, frame: ScannedFrame): boolean {
  const key = cancelledKey(frame);
  const inbound = key === undefined ? undefined : from.inbound.get(key);
  if (key === undefined || !inbound) return false;
  from.inbound.delete(key);
  inbound.target.outbound.delete(inbound.targetId);
  inbound.target.send(
    buildMessage(undefined, CANCEL_REQUEST_JSON, `{"requestId":${inbound.targetId}}`),
    from,
  );
  from.send(encodeError(idOf(inbound.idText), ProtocolError.requestCancelled(), inbound.idText));
  return true;
}
