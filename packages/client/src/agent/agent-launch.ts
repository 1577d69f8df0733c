/**
 * Starting the agent an {@link AgentConnection} talks to: a local process (or the one started
 * early, see `startEarlyAgent`), or a remote agent for an entry with a `url` (whose HTTP and
 * WebSocket code is loaded only then). Either way the connection gets an {@link AgentLink}.
 */
import type { RemoteEvent } from '@acp-kit/protocol/remote';
import { processLink, startAgentProcess, type AgentLink } from '../process/agent-process.js';
import type { AgentConnectionOptions } from './connection-options.js';

/** What a start reports while it runs. */
export interface LaunchHooks {
  /** Sanitised stderr text of a local agent. */
  onStderr(text: string): void;
  /** How a remote agent's connection is doing. */
  onRemoteEvent(event: RemoteEvent): void;
  /** Closed while a full server makes us wait: stop waiting. */
  signal: AbortSignal;
}

/** Starts the agent of `options.agent`: remote when the entry has a `url`, else a local process. */
export async function launchAgent(options: AgentConnectionOptions, hooks: LaunchHooks): Promise<AgentLink> {
  const agent = options.agent;
  if (agent.url !== undefined) {
    const { startRemoteAgent } = await import('../process/remote-agent.js');
    return startRemoteAgent(agent, {
      ...(options.env ? { env: options.env } : {}),
      signal: hooks.signal,
      onEvent: hooks.onRemoteEvent,
    });
  }
  const started =
    options.early?.adopt(hooks.onStderr) ??
    (await startAgentProcess(agent, {
      cwd: options.cwd ?? agent.cwd,
      env: options.env,
      ...(options.passEnv ? { passEnv: options.passEnv } : {}),
      onStderr: hooks.onStderr,
    }));
  return processLink(started);
}
