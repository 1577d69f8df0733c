/**
 * What a session needs from the agent connection it is attached to (implemented by
 * `AgentConnection`; kept as an interface so sessions can be tested and reattached).
 */
import type { Logger } from '@acp-kit/protocol';
import type { ClientHost } from '../agent/host.js';
import type { ClientTimeouts } from '../agent/timeouts.js';
import type { ClientError } from '../errors.js';
import type { PermissionPolicy } from '../permissions/policy.js';
import type { RuleStore } from '../permissions/rule-store.js';
import type { TerminalService } from '../terminal/terminal-service.js';
import type { AgentPort } from './agent-port.js';

/** The agent a session talks to. */
export interface SessionAgent {
  id: string;
  name: string;
  command: string;
  args: string[];
}

/** A session's view of its connection. */
export interface SessionLink {
  readonly agent: SessionAgent;
  /** The negotiated protocol face: every request of a session goes through it. */
  readonly port: AgentPort;
  readonly terminals: TerminalService;
  readonly policy: PermissionPolicy;
  readonly ruleStore: RuleStore | undefined;
  readonly host: ClientHost;
  readonly logger: Logger | undefined;
  readonly timeouts: Readonly<Required<ClientTimeouts>>;
  /** A turn started: watch it for stalls. */
  turnStarted(localId: string): void;
  /** The turn ended. */
  turnEnded(localId: string): void;
  /** Turns an error of `session/new|load|prompt` into AUTH_REQUIRED when it is a -32000. */
  authError(error: unknown): ClientError | undefined;
  /** Stops the agent at once (it ignored a cancellation). */
  kill(): Promise<void>;
  /** The session no longer uses this connection. */
  detach(agentSessionId: string): void | Promise<void>;
  /** A file's text inside `roots` for display (see `FsService.peekText`); undefined when it cannot be read. */
  peekText?(path: string, roots: readonly string[]): Promise<string | undefined>;
  /** Reports something about the agent's behaviour a developer may want to know (once per message). */
  diagnostic?(message: string): void;
}
