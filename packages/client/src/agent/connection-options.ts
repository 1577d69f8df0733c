/**
 * What an {@link AgentConnection} is started with and the events it emits (the connection's
 * public vocabulary, kept apart from the class that implements it).
 */
import type { Implementation, Logger, SessionNotification } from '@acp-kit/protocol';
import type { RemoteEvent } from '@acp-kit/protocol/remote';
import type { AgentEntry } from '../catalog/types.js';
import type { ClientError } from '../errors.js';
import type { FsServiceOptions } from '../fs/fs-service.js';
import type { AgentUpdate } from '../model/agent-update.js';
import type { PermissionPolicy } from '../permissions/policy.js';
import type { RuleStore } from '../permissions/rule-store.js';
import type { TranscriptStore } from '../persistence/transcript-store.js';
import type { EarlyAgent } from '../process/early-agent.js';
import type { TerminalServiceOptions } from '../terminal/terminal-service.js';
import type { ClientHost } from './host.js';
import type { ClientTimeouts } from './timeouts.js';

/** Options of `AgentConnection.start`. */
export interface AgentConnectionOptions {
  agent: AgentEntry;
  /** Working directory of the agent process (default: the entry's, else ours). */
  cwd?: string;
  /** Base environment of the agent (default: ours); see `agentEnvironment`. */
  env?: NodeJS.ProcessEnv;
  /** Credential variables every agent may see (the user's global `passEnv`), besides the entry's. */
  passEnv?: readonly string[];
  policy: PermissionPolicy;
  /** Where answers scoped `project`/`always` are saved. */
  ruleStore?: RuleStore;
  host?: ClientHost;
  /** Record sessions here (transcripts and, unless `trace` is false, wire traces). */
  transcripts?: TranscriptStore;
  trace?: boolean;
  fs?: FsServiceOptions;
  terminals?: Omit<TerminalServiceOptions, 'onEvent'>;
  /** A turn without traffic for this long is reported as stalled (default 60 s). */
  stallMs?: number;
  /** How long to wait for `initialize`, `session/new|load|resume`, and a cancelled turn to end. */
  timeouts?: ClientTimeouts;
  restartBudget?: { max?: number; windowMs?: number };
  clientInfo?: Implementation;
  logger?: Logger;
  /** Whether terminal auth methods can be run by the host (default true). */
  terminalAuth?: boolean;
  /** Read pacing of the agent's output (see `AcpClientOptions.coalesceReadsMs`; default off). */
  coalesceReadsMs?: number;
  /** The agent's process, already started (see `startEarlyAgent`): the first start takes it. */
  early?: EarlyAgent;
  /**
   * Speak this ACP version only (`--protocol`; default: the entry's `protocol`, else ask for 2 and
   * continue in 1 when the agent answers 1).
   */
  protocolVersion?: 1 | 2;
}

/** Events of a connection. */
export interface AgentConnectionEvents {
  /** The agent process ended; `expected` when we closed it. */
  exit: { error: ClientError; expected: boolean };
  /** The agent printed something that is not JSON on stdout (reported once). */
  noise: { sample: string };
  /** Sanitised stderr text of the agent. */
  stderr: { text: string };
  /** A turn had no traffic for `silentMs`. */
  stalled: { localId: string; silentMs: number };
  /** Every v1 `session/update` received, as received (replays included), before it is routed. */
  update: SessionNotification;
  /** Every `session/update` received in either version, as the model's updates, before it is routed. */
  agentUpdate: { sessionId: string; updates: readonly AgentUpdate[] };
  /** Something a developer may want to know (unknown variants, rejected frames), once per kind. */
  diagnostic: { message: string };
  /** A remote agent's connection: connected (and how), busy (asked again later), cut, reconnecting, resumed, failed. */
  remote: RemoteEvent;
  /**
   * What the agent prints while it signs in (`authenticate` running): its stderr and any non-JSON
   * lines on stdout, where logins put their URL and code prompts. Sanitised.
   */
  signInOutput: { text: string };
}
