/**
 * Signing in to an agent: `authenticate` (v1) or `auth/login` (v2) through the port with the key
 * in the two shapes agents read, and the AUTH_REQUIRED error a refused request becomes (with the
 * methods to offer and the credentials the agent was not given).
 */
import { ProtocolError, type AuthMethod } from '@acp-kit/protocol';
import { authMethodsFromErrorData, describeAuthMethods } from '../auth/auth-methods.js';
import type { AgentEntry } from '../catalog/types.js';
import { ClientError, isAuthRequiredError } from '../errors.js';
import { agentEnvironment } from '../process/agent-env.js';
import type { AgentPort } from '../session/agent-port.js';

/**
 * One sign-in with an agent-handled method. Agents read `_meta["api-key"]` in two shapes (Gemini
 * CLI a string, codex-acp `{ apiKey }`): the string goes first and, when the agent refuses it, the
 * object. When both fail, the refusal that is not an internal error is reported (it is about the
 * key itself).
 */
export async function signIn(
  port: AgentPort,
  methodId: string,
  apiKey: string | undefined,
  signal?: AbortSignal,
): Promise<void> {
  // A login may wait on the user (a browser, a code): no time limit, but `signal` cancels it.
  const request = signal ? { signal } : {};
  if (apiKey === undefined) {
    await port.authenticate(methodId, undefined, request);
    return;
  }
  try {
    await port.authenticate(methodId, { 'api-key': apiKey }, request);
  } catch (first) {
    if (!(first instanceof ProtocolError) || signal?.aborted) throw first;
    await port.authenticate(methodId, { 'api-key': { apiKey } }, request).catch((second: unknown) => {
      // The shape it did not read fails as an internal error; the other says what is wrong.
      const internal = (error: ProtocolError): boolean => error.code === -32603;
      if (!(second instanceof ProtocolError)) throw second;
      throw internal(first) && !internal(second) ? second : first;
    });
  }
}

/**
 * The AUTH_REQUIRED error for an agent's auth-required answer (undefined for any other error):
 * the methods its error data names, else those it advertised, and the credential variables it was
 * not given (`heldBackEnv`, names only).
 */
export function authRequiredError(
  agent: AgentEntry,
  error: unknown,
  advertised: readonly AuthMethod[] | undefined,
  heldBackEnv: () => readonly string[],
): ClientError | undefined {
  if (!isAuthRequiredError(error)) return undefined;
  const withheld = heldBackEnv();
  const methods = authMethodsFromErrorData(error.data) ?? advertised ?? [];
  const authOptions = describeAuthMethods(methods, agent);
  return new ClientError('AUTH_REQUIRED', `${agent.name} needs authentication: ${error.message}`, {
    authOptions,
    agentId: agent.id,
    agentMessage: error.message,
    ...(agent.authHint ? { authHint: agent.authHint } : {}),
    // A key the user set may be one the agent was not given (see agentEnvironment): say which.
    ...(withheld.length > 0 ? { heldBackEnv: [...withheld] } : {}),
  });
}

/**
 * Names of our credential variables the agent was not given (see `agentEnvironment`): what a
 * refused sign-in may be missing. Names only, never values; acp's own (`ACP_KIT_*`: its remote
 * token, the key `acp run --auth` passes itself) are no agent's missing credential.
 */
export function withheldCredentials(options: {
  agent: AgentEntry;
  env?: NodeJS.ProcessEnv;
  passEnv?: readonly string[];
}): string[] {
  return agentEnvironment(options.env ?? process.env, options.agent, options.passEnv).withheld.filter(
    (name) => !name.startsWith('ACP_KIT_'),
  );
}
