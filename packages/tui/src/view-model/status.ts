/** View model for the status bar. */
import type { ToolCallLocation } from '@acp-kit/protocol';

/** State of the connection to the agent process. */
export type ConnectionState =
  'starting' | 'initializing' | 'authenticating' | 'ready' | 'reconnecting' | 'disconnected' | 'crashed';

/** Context window usage and cost (`usage_update`); `used` may be unknown. */
export interface UsageView {
  readonly used: number | null;
  readonly size: number;
  readonly cost?: { readonly amount: number; readonly currency: string } | null;
}

/** Everything the status bar shows. Agent-provided strings are sanitized when rendered. */
export interface StatusView {
  readonly agentName: string;
  readonly agentVersion?: string;
  readonly connection: ConnectionState;
  readonly sessionTitle?: string;
  /** Display name of the current mode. */
  readonly mode?: string;
  /** Display name of the current model. */
  readonly model?: string;
  readonly usage?: UsageView;
  /** Permission requests waiting for an answer. */
  readonly queuedPermissions?: number;
  /** Forms the agent asked to fill in (`elicitation/create`) waiting for an answer. */
  readonly queuedElicitations?: number;
  /** Where the running tool is working (follow-along). */
  readonly currentLocation?: ToolCallLocation;
  /** The ACP kind of the running tool whose location is shown (its icon; default `edit`). */
  readonly currentKind?: string;
  /** The command the running tool runs (an `execute` call: shown instead of a location). */
  readonly currentCommand?: string;
  /** Working directory, used to show locations relative to it. */
  readonly cwd?: string;
  /**
   * A remote agent: where and how (`127.0.0.1:8765 · websocket · resumed 2×`); files and
   * terminals the agent asks for are still served on this machine.
   */
  readonly remote?: string;
  /**
   * Work the agent goes on with in the background (its last complete snapshot), as a label:
   * `2 terminals, 1 tool call`. Absent when there is none.
   */
  readonly background?: string;
  /** The running turn: when the last update arrived (clock milliseconds). Absent when idle. */
  readonly turn?: { readonly lastUpdateAt: number };
}
