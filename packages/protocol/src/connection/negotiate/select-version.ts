/**
 * The agent side's choice of a protocol version for one connection, and the `initialize` params
 * the chosen face's handler sees.
 */
import { parseWith } from '../../schema/runtime.js';
import type * as V1 from '../../schema/types.gen.js';
import { checkImplementation, parseClientCapabilities } from '../../schema/v2/validators.gen.js';
import type * as V2 from '../../schema/v2/types.gen.js';
import { PROTOCOL_VERSION_V2, unsupportedProtocolVersion } from '../v2/initialize.js';

/** The versions an agent serves. */
export interface ServedVersions {
  v1: boolean;
  v2: boolean;
}

/**
 * The version to answer an `initialize` asking for `requested` in: the highest served at or below
 * it. An agent serving v1 only keeps v1's rule and answers 1 to anything; one serving v2 answers
 * a request it cannot meet (0, or 1 without v1) with the -32022 error, which this throws.
 */
export function selectProtocolVersion(requested: number, served: ServedVersions): 1 | 2 {
  if (served.v1 && !served.v2) return 1;
  if (served.v2 && requested >= PROTOCOL_VERSION_V2) return 2;
  if (served.v1 && requested >= 1) return 1;
  throw unsupportedProtocolVersion(requested, served.v1 ? [1, 2] : [2]);
}

/**
 * The `initialize` params a v1 face sees when the client asked for `requested`.
 *
 * A v1 request is passed on (version set to 1). A v2 one is read for what a v1 agent needs: the v1
 * `clientCapabilities` and `clientInfo` the client sent beside the v2 fields (acp-kit's client
 * does, so that v1 agents keep its fs and terminals), or else a translation of the v2 fields. v2
 * clients have no fs or terminal methods: those are off in the translation.
 */
export function v1InitializeParams(params: object, requested: number): V1.InitializeRequest {
  const p = params as Record<string, unknown>;
  if (requested < PROTOCOL_VERSION_V2) return { ...p, protocolVersion: 1 } as V1.InitializeRequest;
  // The lenient parser drops what is malformed field by field, as it does for a v2 face.
  const v2 = parseWith<V2.ClientCapabilities>(parseClientCapabilities, structuredClone(p.capabilities ?? {}));
  const out: V1.InitializeRequest = {
    protocolVersion: 1,
    clientCapabilities:
      (p.clientCapabilities as V1.ClientCapabilities | undefined) ?? v1Capabilities(v2.ok ? v2.value : {}),
  };
  const info = p.clientInfo ?? (checkImplementation(p.info) ? p.info : undefined);
  if (info !== undefined) out.clientInfo = info as V1.Implementation;
  if (p._meta !== undefined && p._meta !== null) out._meta = p._meta as V1.InitializeRequest['_meta'];
  return out;
}

/** v2 client capabilities in v1 terms (what the SDK's router does too). */
function v1Capabilities(c: V2.ClientCapabilities): V1.ClientCapabilities {
  const out: V1.ClientCapabilities = {
    fs: { readTextFile: false, writeTextFile: false },
    terminal: false,
    auth: { terminal: c.auth?.terminal !== undefined && c.auth.terminal !== null },
    // Boolean config options are part of v2's baseline.
    session: { configOptions: { boolean: {} } },
  };
  if (c.elicitation) out.elicitation = c.elicitation as V1.ClientCapabilities['elicitation'];
  if (c._meta) out._meta = c._meta;
  return out;
}
