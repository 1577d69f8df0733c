/**
 * The agent side's `initialize` gate, shared by the v1 and v2 faces: no request reaches its
 * handler before an `initialize` succeeded, and the rules for repeating it.
 */
import { ErrorCodes, ProtocolError } from '../jsonrpc/errors.js';

type MaybePromise<T> = T | Promise<T>;

/** The message of the -32600 answer to a request that arrives before `initialize`. */
export const NOT_INITIALIZED_MESSAGE = 'Not initialized: send initialize first';

/** How strictly a face treats a repeated `initialize`. */
export interface InitializeRules {
  /**
   * ACP v2: "the Client may repeat it before its first other request; the latest successful
   * `initialize` is authoritative". A repeat after another request, one while an `initialize` is
   * still running, and one asking for a version below `minRepeatVersion` are answered -32600, as
   * the SDK's v2 agent does. Unset (v1): any repeat is handled.
   */
  strictRepeat?: { minRepeatVersion: number };
}

/**
 * The state of one connection's `initialize`.
 *
 * A request that arrives before `initialize` is refused (-32600, `data: {method}`); one that arrives
 * while the first `initialize` is being handled (a client that pipelines `session/new` right behind
 * it) waits for it and runs once it has succeeded.
 */
export class InitializeGate {
  private initialized = false;
  /** The first `initialize` being handled, while none has succeeded yet. */
  private initializing: Promise<unknown> | undefined;
  /** How many `initialize` handlers are running. */
  private running = 0;
  /** A request other than `initialize` was admitted after initialization (v2 forbids a repeat then). */
  private otherRequestSeen = false;

  constructor(private readonly rules: InitializeRules = {}) {}

  /** Whether an `initialize` has succeeded. */
  get isInitialized(): boolean {
    return this.initialized;
  }

  /** Throws -32600 when the rules refuse this `initialize` (a repeat, under `strictRepeat`). */
  begin(requestedVersion: number): void {
    const strict = this.rules.strictRepeat;
    if (!strict) return;
    if (this.running > 0) throw invalidRequest('initialize is already in progress');
    if (!this.initialized) return;
    if (this.otherRequestSeen) throw invalidRequest('initialize must not be repeated after other requests');
    if (requestedVersion < strict.minRepeatVersion) {
      throw invalidRequest(
        `a repeated initialize must request protocol version ${strict.minRepeatVersion} or later`,
      );
    }
  }

  /** Runs the `initialize` handler, opening the gate when it succeeds. */
  track<R>(run: () => MaybePromise<R>): MaybePromise<R> {
    this.running++;
    let result: MaybePromise<R>;
    try {
      result = run();
    } catch (error) {
      this.running--;
      throw error;
    }
    if (!(result instanceof Promise)) {
      this.running--;
      this.initialized = true;
      return result;
    }
    const attempt = result.then(
      () => {
        this.running--;
        this.initialized = true;
      },
      () => {
        this.running--;
      },
    );
    if (this.initialized) return result;
    this.initializing = attempt;
    void attempt.then(() => {
      if (this.initializing === attempt) this.initializing = undefined;
    });
    return result;
  }

  /**
   * Runs before a received request's params are looked at: throws -32600 before initialization,
   * or returns a promise that holds a request pipelined behind the first `initialize`.
   */
  admit(method: string): Promise<void> | undefined {
    if (method === 'initialize') return undefined;
    if (this.initialized) {
      this.otherRequestSeen = true;
      return undefined;
    }
    if (!this.initializing) throw notInitialized(method);
    return this.initializing.then(() => {
      if (!this.initialized) throw notInitialized(method);
      this.otherRequestSeen = true;
    });
  }
}

function invalidRequest(message: string): ProtocolError {
  return new ProtocolError(ErrorCodes.InvalidRequest, message);
}

/** The -32600 answer to `method` received before `initialize`. */
export function notInitialized(method: string): ProtocolError {
  return new ProtocolError(ErrorCodes.InvalidRequest, NOT_INITIALIZED_MESSAGE, {
    method: method.slice(0, 64),
  });
}
