/**
 * What the `Controller` is created with, and what it tells the app when quitting.
 */
import type { ClientPaths, DetectedAgent, LaunchSpec } from '@acp-kit/client';
import type { AppStore } from '../state/app-store.js';
import type { TuiMetrics } from './metrics.js';
import type { TerminalHandover } from './tab-runtime.js';

/** A session the user can reopen with `acp --resume`. */
export interface ResumableSession {
  readonly localId: string;
  readonly title?: string;
}

/** Options of `Controller.create`. */
export interface ControllerOptions {
  readonly store: AppStore;
  readonly paths: ClientPaths;
  readonly cwd: string;
  readonly env?: NodeJS.ProcessEnv;
  /** How to run `acp` itself (for the `demo` and `acp-kit` catalog entries). */
  readonly self?: LaunchSpec;
  readonly handover: TerminalHandover;
  /** Writes control sequences to the terminal outside Ink's frame (OSC 52 copies). */
  readonly writeTerminal?: (data: string) => void;
  readonly now?: () => number;
  /** Benchmark measurements (milestones of opening sessions). */
  readonly metrics?: TuiMetrics;
  /** The catalog's agents with their installed state, found before the UI was loaded (`acp`'s picker). */
  readonly startAgents?: readonly DetectedAgent[];
  /** Speak this ACP version only with every agent (`--protocol 1|2`). */
  readonly protocolVersion?: 1 | 2;
}
