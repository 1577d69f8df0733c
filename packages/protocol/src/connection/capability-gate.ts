/**
 * Capability checks as data: which capability of the peer each method we send (or what it carries)
 * needs. One table per protocol version and direction; {@link TypedConnection} applies the table of
 * its face before every request and notification, so that we never call what the peer did not
 * advertise.
 */
import { AcpKitError } from '../jsonrpc/errors.js';

/** The capability a method needs: its path as shown in the error, and the test. */
export type CapabilityRule<C> = readonly [capability: string, supported: (caps: C) => boolean];

/**
 * What the peer must have advertised before a method is sent.
 *
 * @example
 * const gate: CapabilityGate<AgentCapabilities> = {
 *   methods: { 'session/list': ['agentCapabilities.sessionCapabilities.list', (c) => on(c.sessionCapabilities?.list)] },
 * };
 */
export interface CapabilityGate<C> {
  /** Method → the capability it needs (methods not listed need none). */
  readonly methods?: Readonly<Record<string, CapabilityRule<C>>>;
  /** Method → a check of what it carries (prompt content, MCP transports, update kinds); it calls {@link refuse}. */
  readonly payloads?: Readonly<Record<string, (caps: C, params: unknown) => void>>;
}

/** Set-like markers: ACP uses `{}` (or `true`) for "supported", absent/null/false for not. */
export function on(value: unknown): boolean {
  return value !== undefined && value !== null && value !== false;
}

/** Throws CAPABILITY_NOT_SUPPORTED: `what` needs `capability`, which the peer did not advertise. */
export function refuse(what: string, capability: string): never {
  throw new AcpKitError(
    'CAPABILITY_NOT_SUPPORTED',
    `The peer did not advertise ${capability}, so ${what} cannot be used`,
    { capability },
  );
}

/** Throws CAPABILITY_NOT_SUPPORTED unless `caps` allow sending `method` with `params` under `gate`. */
export function checkCapabilities<C>(
  gate: CapabilityGate<C>,
  caps: C,
  method: string,
  params: unknown,
): void {
  const rule = gate.methods?.[method];
  if (rule && !rule[1](caps)) refuse(method, rule[0]);
  gate.payloads?.[method]?.(caps, params);
}

/** `elicitation/create` needs the client's `elicitation.form` or `.url` for its mode (v1 and v2 alike). */
export function checkElicitationMode(
  caps: { elicitation?: { form?: unknown; url?: unknown } | null },
  params: unknown,
  prefix: string,
): void {
  const mode = (params as { mode?: unknown } | undefined)?.mode;
  if (mode === 'url' ? !on(caps.elicitation?.url) : !on(caps.elicitation?.form)) {
    refuse(`elicitation (${String(mode)} mode)`, `${prefix}.elicitation.${mode === 'url' ? 'url' : 'form'}`);
  }
}
