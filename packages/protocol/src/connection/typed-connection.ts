/**
 * The part every typed connection shares, whatever the protocol version and side: schema
 * validation of everything received, capability checks of everything sent, typed registration of
 * handlers, extension methods and the opt-in unstable surface. A face (v1 or v2, agent or client)
 * is a thin class that gives it its method tables and capability gate as data ({@link ConnectionSpec}).
 */
import {
  JsonRpcConnection,
  type JsonRpcConnectionOptions,
  type RequestOptions,
} from '../jsonrpc/connection.js';
import type { RequestContext } from '../jsonrpc/connection-types.js';
import { AcpKitError, ProtocolError } from '../jsonrpc/errors.js';
import { InboundRequest } from '../jsonrpc/inbound-request.js';
import type { RequestId } from '../jsonrpc/types.js';
import { METHOD_TABLE, type MethodInfo } from '../schema/methods.gen.js';
import { METHOD_TABLE as UNSTABLE_METHOD_TABLE } from '../schema/unstable/methods.gen.js';
import { FAIL, ParseContext, type Diagnostic, type ValidationIssue } from '../schema/runtime.js';
import type { ByteChannel } from '../transport/types.js';
import { checkCapabilities, type CapabilityGate } from './capability-gate.js';

/** What makes a face: the schema it speaks and what it must check before sending. */
export interface ConnectionSpec {
  /** The schema version's method table, and its unstable superset (used with `{ unstable: true }`). */
  readonly methods: {
    readonly stable: ReadonlyMap<string, MethodInfo>;
    readonly unstable: ReadonlyMap<string, MethodInfo>;
  };
  /** The peer capability each method we send needs (checked before sending). */
  readonly capabilities?: CapabilityGate<never>;
}

/** What a subclass that names no spec gets: ACP v1's tables, no capability checks (as before specs). */
const V1_TABLES: ConnectionSpec = { methods: { stable: METHOD_TABLE, unstable: UNSTABLE_METHOD_TABLE } };

/** What the application learns about a received message that needed leniency or was rejected. */
export interface ValidationReport {
  /** Method of the message. */
  method: string;
  /** `params` of a request or notification we received, or `result` of a response to our request. */
  part: 'params' | 'result';
  /** Repairs and unknown values that were kept. */
  diagnostics: Diagnostic[];
  /** Set when the message was rejected. */
  error?: ValidationIssue;
}

export interface TypedConnectionOptions extends JsonRpcConnectionOptions {
  /**
   * Validate against the unstable schema (a superset) and enable the `unstable*` methods.
   * Off by default: unstable features may change in any release.
   */
  unstable?: boolean;
  /** Check what we send against the schema before sending (useful in tests; off by default). */
  validateOutgoing?: boolean;
  /** Called when a received message needed leniency or was rejected; use it to log once per kind. */
  onValidation?: (report: ValidationReport) => void;
}

/** Context given to every request handler. */
export interface HandlerContext {
  /** Aborted when the peer sends `$/cancel_request` for this request or the connection closes. */
  signal: AbortSignal;
  /** The JSON-RPC id of the request. */
  requestId: RequestId;
}

/** An extension method name: custom methods and notifications start with `_`. */
export type ExtensionMethod = `_${string}`;

type Handler = (params: never, ctx: HandlerContext) => unknown;
type RawHandler = (params: unknown, ctx: RequestContext) => unknown;
type Parser = NonNullable<MethodInfo['parseParams']>;

/**
 * Runs the request handler a connection registered for `method` on a request that reached the
 * engine before the connection existed: how a negotiated connection takes over the very
 * `initialize` that chose it. Module-private: not exported from the package.
 */
export const HANDLE_REQUEST: unique symbol = Symbol('acp-kit.handleRequest');

/** Like {@link HANDLE_REQUEST}, for a notification the engine held until the connection existed. */
export const HANDLE_NOTIFICATION: unique symbol = Symbol('acp-kit.handleNotification');

/** A client face takes the answer to an `initialize` sent before it existed (negotiation). */
export const ADOPT_INITIALIZE: unique symbol = Symbol('acp-kit.adoptInitialize');

/**
 * Base of every typed connection ({@link AgentSideConnection} and {@link ClientSideConnection} of
 * each protocol version).
 */
export abstract class TypedConnection {
  /** The JSON-RPC engine underneath, for tracing or advanced use. */
  readonly rpc: JsonRpcConnection;
  protected readonly options: TypedConnectionOptions;
  private readonly table: ReadonlyMap<string, MethodInfo>;
  private readonly unstableTable: ReadonlyMap<string, MethodInfo>;
  private readonly capabilityGate: CapabilityGate<unknown> | undefined;
  /** What `HANDLE_REQUEST` and `HANDLE_NOTIFICATION` run: the handlers this connection registered. */
  private readonly requestHandlers = new Map<string, RawHandler>();
  private readonly notificationHandlers = new Map<string, (params: unknown) => unknown>();
  private readonly parseContext = new ParseContext();
  /** Per method we call: what turns its result into the validated one (see {@link call}). */
  private readonly resultParsers = new Map<string, (result: unknown) => unknown>();

  /**
   * @param transport a channel (a new engine is made over it), or an engine already reading, whose
   *   handlers this connection replaces (a negotiated connection: nothing read so far is lost).
   */
  protected constructor(
    transport: ByteChannel | JsonRpcConnection,
    options: TypedConnectionOptions,
    peerName: string,
    spec: ConnectionSpec = V1_TABLES,
  ) {
    this.options = options;
    this.table = options.unstable ? spec.methods.unstable : spec.methods.stable;
    this.unstableTable = spec.methods.unstable;
    this.capabilityGate = spec.capabilities as CapabilityGate<unknown> | undefined;
    this.rpc =
      transport instanceof JsonRpcConnection
        ? transport
        : new JsonRpcConnection(transport, { peerName, ...options });
  }

  /** What the peer advertised, for the capability gate (undefined: nothing yet). */
  protected peerCapabilities(): unknown {
    return undefined;
  }

  /** Throws CAPABILITY_NOT_SUPPORTED unless the peer advertised what `method` with `params` needs. */
  protected guard(method: string, params: unknown): void {
    if (this.capabilityGate) {
      checkCapabilities(this.capabilityGate, this.peerCapabilities() ?? {}, method, params);
    }
  }

  /** @internal See {@link HANDLE_REQUEST}. */
  [HANDLE_REQUEST](method: string, params: unknown, ctx: RequestContext): unknown {
    const handler = this.requestHandlers.get(method);
    if (!handler) throw ProtocolError.methodNotFound(method);
    return handler(params, ctx);
  }

  /** @internal See {@link HANDLE_NOTIFICATION}. */
  [HANDLE_NOTIFICATION](method: string, params: unknown): unknown {
    return this.notificationHandlers.get(method)?.(params);
  }

  private onRawNotification(method: string, handler: (params: unknown) => unknown): void {
    this.notificationHandlers.set(method, handler);
    this.rpc.onNotification(method, handler);
  }

  /** Resolves with the reason when the connection ends (the peer exited, or {@link close} was called). */
  get closed(): Promise<AcpKitError> {
    return this.rpc.closed;
  }

  get isClosed(): boolean {
    return this.rpc.isClosed;
  }

  /** Closes the connection; pending requests reject with CONNECTION_CLOSED. */
  close(): Promise<void> {
    return this.rpc.close();
  }

  /** Parses received params or results in place; reports diagnostics. Returns the value or throws. */
  protected parseIncoming(
    method: string,
    part: 'params' | 'result',
    value: unknown,
    asNotification = false,
  ): unknown {
    const parse = this.parserFor(method, part, asNotification);
    return parse ? this.parseWith(parse, method, part, value) : value;
  }

  /** The generated parser of a method's `params` or `result` (undefined: not a method of the schema). */
  private parserFor(method: string, part: 'params' | 'result', asNotification = false): Parser | undefined {
    const entry = this.table.get(method);
    // A few unstable methods exist both as a request and as a notification.
    const info = asNotification && entry?.kind === 'request' ? (entry.notification ?? entry) : entry;
    return part === 'params' ? info?.parseParams : info?.parseResult;
  }

  private parseWith(parse: Parser, method: string, part: 'params' | 'result', value: unknown): unknown {
    // One context for every message: parsers run synchronously, one at a time, and allocate
    // nothing on the success path, so a valid message costs no allocation here either.
    const ctx = this.parseContext;
    ctx.error = undefined;
    if (ctx.diagnostics.length > 0) ctx.diagnostics.length = 0;
    let out = parse(value, ctx);
    // Older peers answer `null` where the schema now has an empty object.
    if (out === FAIL && part === 'result' && (value === null || value === undefined)) {
      // What the retry finds is not reported: only whether it succeeds.
      const error = ctx.error;
      const mark = ctx.diagnostics.length;
      ctx.error = undefined;
      out = parse({}, ctx);
      ctx.diagnostics.length = mark;
      if (out === FAIL) ctx.error = error;
    }
    if (out === FAIL) {
      const error = ctx.error ?? { path: '', message: 'invalid value' };
      this.options.onValidation?.({ method, part, diagnostics: ctx.diagnostics.slice(), error });
      const path = error.path ? `${part}.${error.path}` : part;
      if (part === 'params') {
        throw ProtocolError.invalidParams({ path, message: error.message });
      }
      throw new AcpKitError('INVALID_RESPONSE', `Invalid ${method} response at ${path}: ${error.message}`, {
        method,
        path,
        reason: error.message,
      });
    }
    if (ctx.diagnostics.length > 0)
      this.options.onValidation?.({ method, part, diagnostics: ctx.diagnostics.slice() });
    return out;
  }

  /** With `validateOutgoing`, throws INVALID_ARGUMENT when what we are about to send breaks the schema. */
  private checkOutgoing(
    method: string,
    value: unknown,
    part: 'params' | 'result' = 'params',
    asNotification = false,
  ): void {
    if (!this.options.validateOutgoing) return;
    const entry = this.table.get(method);
    const info = asNotification && entry?.kind === 'request' ? (entry.notification ?? entry) : entry;
    const check = part === 'params' ? info?.checkParams : info?.checkResult;
    const parse = part === 'params' ? info?.parseParams : info?.parseResult;
    if (!check || !parse || check(value)) return;
    const ctx = new ParseContext();
    parse(structuredClone(value), ctx);
    const where = ctx.error ? ` at ${part}.${ctx.error.path}: ${ctx.error.message}` : ' (strict check)';
    throw new AcpKitError('INVALID_ARGUMENT', `Invalid ${method} ${part}${where}`, { method });
  }

  /**
   * Runs before a received request's params are validated: throw a `ProtocolError` to refuse it,
   * or return a promise to hold it back until it settles (see the agent side's `initialize` gate).
   */
  protected admitRequest(_method: string, _id: RequestId): Promise<void> | undefined {
    return undefined;
  }

  /**
   * Registers a handler for a request we receive; params are validated before it runs. `prepare`
   * sees the params first (as received) and may refuse them or give what is to be validated.
   */
  protected handleRequest(
    method: string,
    handler: Handler | undefined,
    prepare?: (params: unknown) => unknown,
  ): void {
    if (!handler) return;
    const parse = this.parserFor(method, 'params');
    this.onRawRequest(method, (params, ctx) =>
      this.runRequest(method, parse, handler, prepare ? prepare(params) : params, ctx),
    );
  }

  /** Registers a request handler behind {@link admitRequest}. */
  private onRawRequest(method: string, run: RawHandler): void {
    const admitted: RawHandler = (params, ctx) => {
      const held = this.admitRequest(method, ctx.id);
      if (held) return held.then(() => run(params, ctx));
      return run(params, ctx);
    };
    this.requestHandlers.set(method, admitted);
    this.rpc.onRequest(method, admitted);
  }

  private runRequest(
    method: string,
    parse: Parser | undefined,
    handler: Handler,
    params: unknown,
    ctx: RequestContext,
  ): unknown {
    const parsed = parse ? this.parseWith(parse, method, 'params', params) : params;
    const result = (handler as (p: unknown, c: HandlerContext) => unknown)(parsed, handlerContext(ctx));
    if (!this.options.validateOutgoing) return result;
    return Promise.resolve(result).then((value) => {
      this.checkOutgoing(method, value, 'result');
      return value;
    });
  }

  /**
   * Registers a handler for a notification we receive; invalid params are reported and dropped.
   * With `ordered: false` the inbound queue does not wait for the handler's promise: right for
   * `session/cancel`, whose handler may wait for the turn to end, which needs later messages.
   */
  protected handleNotification(
    method: string,
    handler: ((params: never) => unknown) | undefined,
    ordered = true,
  ): void {
    if (!handler) return;
    const parse = this.parserFor(method, 'params', true);
    this.onRawNotification(method, (params) => {
      let parsed: unknown = params;
      try {
        if (parse) parsed = this.parseWith(parse, method, 'params', params);
      } catch {
        // Notifications cannot be answered; onValidation has already reported it.
        return undefined;
      }
      const result = (handler as (p: unknown) => unknown)(parsed);
      if (ordered) return result;
      Promise.resolve(result).catch((err: unknown) => {
        this.options.logger?.log('error', `${method} handler failed`, {
          error: err instanceof Error ? err.message : String(err),
        });
      });
      return undefined;
    });
  }

  /**
   * Sends a request of the schema once the peer's capabilities allow it, validating what comes
   * back. Never throws: the promise rejects.
   */
  protected call<R>(method: string, params: unknown, options?: RequestOptions): Promise<R> {
    try {
      this.guard(method, params);
      this.checkOutgoing(method, params);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.rpc.request(method, params, options, this.resultParser(method)) as Promise<R>;
  }

  /** The engine applies it to the result before settling: no `.then` (promise, turn) per call. */
  private resultParser(method: string): (result: unknown) => unknown {
    let parse = this.resultParsers.get(method);
    if (parse === undefined) {
      parse = (result) => this.parseIncoming(method, 'result', result);
      this.resultParsers.set(method, parse);
    }
    return parse;
  }

  /** Sends a notification of the schema once the peer's capabilities allow it. */
  protected send(method: string, params: unknown): Promise<void> {
    try {
      this.guard(method, params);
      this.checkOutgoing(method, params, 'params', true);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.rpc.notify(method, params);
  }

  // ------------------------------------------------------------ extensions

  /**
   * Sends an extension request (`_`-prefixed method).
   *
   * @example
   * const info = await conn.extRequest('_zed/info', {});
   */
  extRequest(method: ExtensionMethod, params: unknown, options?: RequestOptions): Promise<unknown> {
    assertExtension(method);
    return this.rpc.request(method, params, options);
  }

  /** Sends an extension notification (`_`-prefixed method). */
  extNotification(method: ExtensionMethod, params: unknown): Promise<void> {
    assertExtension(method);
    return this.rpc.notify(method, params);
  }

  /** Handles an extension request (`_`-prefixed method). */
  onExtRequest(method: ExtensionMethod, handler: (params: unknown, ctx: HandlerContext) => unknown): void {
    assertExtension(method);
    this.onRawRequest(method, (params, ctx) => handler(params, handlerContext(ctx)));
  }

  /** Handles an extension notification (`_`-prefixed method). */
  onExtNotification(method: ExtensionMethod, handler: (params: unknown) => unknown): void {
    assertExtension(method);
    this.onRawNotification(method, (params) => handler(params));
  }

  // ------------------------------------------------------------ unstable surface

  private assertUnstable(method: string): void {
    if (!this.options.unstable) {
      throw new AcpKitError(
        'INVALID_ARGUMENT',
        `${method} is unstable: create the connection with { unstable: true }`,
        {
          method,
        },
      );
    }
    if (!this.unstableTable.has(method)) {
      throw new AcpKitError('INVALID_ARGUMENT', `${method} is not a method of the unstable schema`, {
        method,
      });
    }
  }

  /** Sends a request of the unstable schema (needs `{ unstable: true }`); the result is validated. */
  unstableRequest(method: string, params: unknown, options?: RequestOptions): Promise<unknown> {
    this.assertUnstable(method);
    return this.call(method, params, options);
  }

  /** Sends a notification of the unstable schema (needs `{ unstable: true }`). */
  unstableNotification(method: string, params: unknown): Promise<void> {
    this.assertUnstable(method);
    return this.send(method, params);
  }

  /** Handles a request of the unstable schema (needs `{ unstable: true }`); params are validated. */
  onUnstableRequest(method: string, handler: (params: unknown, ctx: HandlerContext) => unknown): void {
    this.assertUnstable(method);
    this.handleRequest(method, handler as Handler);
  }

  /** Handles a notification of the unstable schema (needs `{ unstable: true }`). */
  onUnstableNotification(method: string, handler: (params: unknown) => unknown): void {
    this.assertUnstable(method);
    this.handleNotification(method, handler as (params: never) => unknown);
  }
}

/**
 * A request handler's context: the engine's own record of the request when it is one (it has
 * `requestId` and a lazy `signal`: no object per request), else a wrapper.
 */
function handlerContext(ctx: RequestContext): HandlerContext {
  return ctx instanceof InboundRequest ? ctx : new RequestHandlerContext(ctx);
}

/**
 * The context of a request that came from elsewhere than the engine. The engine creates a
 * request's AbortSignal on first use (~5 µs): the getter keeps it lazy.
 */
class RequestHandlerContext implements HandlerContext {
  constructor(private readonly request: RequestContext) {}

  get signal(): AbortSignal {
    return this.request.signal;
  }

  get requestId(): RequestId {
    return this.request.id;
  }
}

function assertExtension(method: string): void {
  if (!method.startsWith('_')) {
    throw new AcpKitError('INVALID_ARGUMENT', `Extension methods must start with "_": ${method}`, { method });
  }
}
