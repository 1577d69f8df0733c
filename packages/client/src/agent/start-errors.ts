/**
 * What a failed agent start is reported as: a wrong protocol version, no answer to `initialize`,
 * a process that died on the way, or a stop asked for while it was starting.
 */
import { AcpKitError } from '@acp-kit/protocol';
import type { AgentEntry } from '../catalog/types.js';
import { ClientError } from '../errors.js';

/** The agent was closed or killed before it finished starting. */
export function stoppedWhileStarting(agent: AgentEntry): ClientError {
  return new ClientError('AGENT_START_FAILED', `${agent.name} was stopped while starting`, {
    stopped: true,
  });
}

/** The error for an `initialize` that failed; `forced` is the one version it was limited to. */
export function initializeError(agent: AgentEntry, error: unknown, forced?: 1 | 2): Error {
  if (!(error instanceof AcpKitError) || error instanceof ClientError)
    return error instanceof Error ? error : new Error(String(error));
  if (error.code === 'UNSUPPORTED_PROTOCOL_VERSION' && forced !== undefined) {
    const answered = String(error.details.agentVersion);
    return new ClientError(
      'UNSUPPORTED_PROTOCOL_VERSION',
      `${agent.name} speaks ACP version ${answered}, and this connection was limited to version ${forced} (--protocol, or the catalog entry's "protocol")`,
      error.details,
      error,
    );
  }
  if (error.code === 'UNSUPPORTED_PROTOCOL_VERSION') {
    return new ClientError(
      'UNSUPPORTED_PROTOCOL_VERSION',
      `${error.message}; use a version of ${agent.name} that speaks ACP v1 or v2`,
      error.details,
      error,
    );
  }
  if (error.code === 'REQUEST_TIMEOUT') {
    return new ClientError(
      'AGENT_START_FAILED',
      `${agent.name} did not answer initialize in time (is ${agent.command} an ACP agent?)`,
      {},
      error,
    );
  }
  return new ClientError(
    'AGENT_START_FAILED',
    `${agent.name} failed to start: ${error.message}`,
    { ...error.details },
    error,
  );
}
