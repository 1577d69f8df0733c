/**
 * The fast path of `runProxy`: in a direction the proxy does not intercept, messages are passed
 * on as text (opened or wrapped in `proxy/successor`, their id mapped, their payload copied
 * as it came) instead of being parsed, handed to the engine and encoded again. What the proxy
 * does intercept, `initialize`, answers to the engine's own requests and anything the scan does
 * not accept go to the JSON-RPC engine as before, through the channel this returns.
 *
 * Ids: the engine numbers its requests 1, 2, …; requests forwarded here count down from -1 on
 * the same hop, so an answer's sign says whose it is.
 *
 * Order: messages of one direction keep their order when that direction is passed through (all
 * of them take this path but `initialize`, whose answer clients wait for). Between directions,
 * a passed-through message may overtake one the engine is still handling, as it could overtake
 * it inside an interceptor.
 */
import type { CloseDetails } from '../jsonrpc/errors.js';
import { FrameDecoder } from '../jsonrpc/framing.js';
import type { ByteChannel, ByteSink } from '../transport/types.js';
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
import { envelopeText, openEnvelope } from './text-envelope.js';

const SUCCESSOR_JSON = methodJson(PROXY_METHODS.proxy_successor);

export interface PassThroughOptions {
  /** Pass on messages from the client's side (no `fromClient` interceptor). */
  readonly fromClient: boolean;
  /** Pass on messages from the agent's side (no `fromAgent` interceptor). */
  readonly fromAgent: boolean;
  readonly maxMessageBytes?: number;
  /** Sees the frames passed on here (the engine traces its own). */
  readonly trace?: (direction: 'in' | 'out', text: string) => void;
}

/** Wraps the channel to the conductor: returns the channel the proxy's engine runs on. */
export function passThroughChannel(channel: ByteChannel, options: PassThroughOptions): ByteChannel {
  const hop = new Hop(0, 'conductor', channel, options.trace, -1);
  const encoder = new TextEncoder();
  let engine: ByteSink | undefined;
  let reading = false;
  // What is passed on here is read from the same hop: a conductor that does not keep up stops our reading.
  const flush = () => hop.flush();
  const toEngine = (text: string) => engine?.data(encoder.encode(text + '\n'));

  const route = (text: string): void => {
    const frame = scanFrame(text);
    if (!frame) return toEngine(text);
    if (frame.method === undefined) {
      // Ours (negative ids) go back the way they came; a late one (cancelled) is dropped.
      if (frame.idText?.charCodeAt(0) === 45) answerBack(hop, frame);
      else toEngine(text);
      return;
    }
    if (!wellFormed(frame)) return toEngine(text);
    if (frame.method === '$/cancel_request' && frame.idText === undefined) {
      if (!cancelForwarded(hop, frame)) toEngine(text);
      return;
    }
    if (frame.method === PROXY_METHODS.proxy_successor) {
      const inner = options.fromAgent ? openEnvelope(frame) : undefined;
      // A bad envelope goes to the engine, which answers -32602.
      if (!inner || !('methodJson' in inner)) return toEngine(text);
      hop.traceIn(text);
      return forwardText(hop, frame.idText, hop, inner.methodJson, inner.params);
    }
    if (
      !options.fromClient ||
      frame.method === 'initialize' ||
      frame.method === PROXY_METHODS.proxy_initialize
    )
      return toEngine(text);
    hop.traceIn(text);
    forwardText(
      hop,
      frame.idText,
      hop,
      SUCCESSOR_JSON,
      envelopeText(frame.methodText ?? methodJson(frame.method), paramsText(frame)),
    );
  };

  return {
    start(sink) {
      engine = sink;
      const decoder = new FrameDecoder(
        { frame: route, fatal: (error) => sink.end({ cause: error }) },
        { maxMessageBytes: options.maxMessageBytes },
      );
      channel.start({
        data(chunk) {
          reading = true;
          decoder.feed(chunk);
          reading = false;
          flush();
        },
        end: (details?: CloseDetails) => sink.end(details),
      });
    },
    write(text) {
      // The engine's frames end with a newline; the hop adds its own.
      hop.send(text.endsWith('\n') ? text.slice(0, -1) : text, undefined, false);
      if (!reading) flush();
      return !hop.congested;
    },
    drain: () => channel.drain(),
    pause: () => hop.hold(true),
    resume: () => hop.hold(false),
    close() {
      flush();
      hop.close();
    },
    get bufferedAmount() {
      return channel.bufferedAmount;
    },
  };
}

/** What the engine would not turn down: left to it when not, so that it answers the error. */
function wellFormed(frame: ScannedFrame): boolean {
  return (
    frame.jsonrpcText === '"2.0"' &&
    paramsAllowed(frame) &&
    (frame.idText === undefined || isIdText(frame.idText))
  );
}
