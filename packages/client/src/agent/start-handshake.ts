/**
 * The handshake of one start of an {@link AgentConnection}, wired to the connection's parts: the
 * faces' handlers to its sessions, services and events; the engine's frames to the stall watch,
 * the stdout noise detector and the traces; what it advertises to its host and options.
 */
import type { FrameDirection, ParsedLine } from '@acp-kit/protocol';
import type { FsService } from '../fs/fs-service.js';
import type { AgentUpdate } from '../model/agent-update.js';
import type { AgentLink, NoiseDetector } from '../process/agent-process.js';
import type { HandlerDeps } from '../protocol-v1/v1-handlers.js';
import type { V2HandlerDeps } from '../protocol-v2/v2-handlers.js';
import type { TerminalService } from '../terminal/terminal-service.js';
import type { Emitter } from '../util/emitter.js';
import type { AgentOutput } from './agent-output.js';
import { CLIENT_INFO } from './capabilities.js';
import type { AgentConnectionEvents, AgentConnectionOptions } from './connection-options.js';
import { shakeHands, type Handshake } from './handshake.js';
import type { ClientHost } from './host.js';
import type { SessionRegistry } from './session-registry.js';

/** What the faces' handlers are wired to (see {@link faceDeps}). */
export interface FaceParts {
  sessions: SessionRegistry;
  events: Emitter<AgentConnectionEvents>;
  /** A promise while a consumer or a recording is backed up (see `AgentConnection.addBackpressure`). */
  backpressure(): Promise<void> | undefined;
  fs: FsService;
  terminals: TerminalService;
  host: ClientHost;
  agentId: string;
}

/**
 * The handlers' dependencies in both versions: updates go to the registered session (or wait for
 * it), seen first by the `update` (v1 as received) and `agentUpdate` events; v1's fs and terminal
 * requests to the services.
 */
export function faceDeps(parts: FaceParts): { v1: HandlerDeps; v2: Omit<V2HandlerDeps, 'turns'> } {
  const { sessions, events } = parts;
  const routing = {
    session: (id: string) => sessions.get(id),
    orphanUpdates: (id: string, updates: AgentUpdate[]) => sessions.hold(id, updates),
    onUpdates: (sessionId: string, updates: readonly AgentUpdate[]) =>
      events.emit('agentUpdate', { sessionId, updates }),
    backpressure: parts.backpressure,
    host: parts.host,
    agentId: parts.agentId,
  };
  return {
    v1: {
      ...routing,
      onUpdate: (params) => events.emit('update', params),
      fs: parts.fs,
      terminals: parts.terminals,
    },
    v2: routing,
  };
}

/** What one start hands to its handshake. */
export interface StartHandshake {
  options: AgentConnectionOptions;
  faces: FaceParts;
  output: AgentOutput;
  /** Stdout lines that are not JSON, of this process. */
  noise: NoiseDetector;
  protocolVersion: 1 | 2 | undefined;
  timeoutMs: number;
  /** Aborted when the connection is closed or killed while starting. */
  signal: AbortSignal;
  /** A frame from the agent: the turn it belongs to is not stalled. */
  traffic(): void;
  /** Every frame, both ways, for the session traces. */
  frame(direction: FrameDirection, text: string, parsed?: unknown): void;
  /** A long line from the agent, known by its value (its text was let go as it was parsed). */
  parsedFrame(direction: 'in', value: unknown): void;
}

/** Shakes hands with the agent on `process` (see `shakeHands`). */
export function startHandshake(process: AgentLink, start: StartHandshake): Promise<Handshake> {
  const { options, output, noise } = start;
  return shakeHands(process.channel, faceDeps(start.faces), {
    info: options.clientInfo ?? CLIENT_INFO,
    terminalAuth: options.terminalAuth,
    forms: start.faces.host.elicit !== undefined,
    ...(start.protocolVersion ? { protocolVersion: start.protocolVersion } : {}),
    connection: {
      peerName: options.agent.name,
      logger: options.logger,
      // The unstable schema: `mcp/message` for the MCP servers offered over ACP.
      unstable: true,
      // A login reads the code from stdin: an error frame there would be taken for it.
      answerParseErrors: () => output.signingIn === 0,
      ...(options.coalesceReadsMs ? { coalesceReadsMs: options.coalesceReadsMs } : {}),
      onValidation: (report) => output.validation(report),
      trace: (direction: FrameDirection, text: string, parsed?: unknown) => {
        if (direction === 'in') {
          start.traffic();
          noise.inspect(text, parsed);
        }
        start.frame(direction, text, parsed);
      },
      // A long line's text is not needed here (the trace cuts long strings, the noise check
      // looks at the start of a line that is no object): its pieces go as it is parsed.
      traceParsedLine: (direction: 'in', line: ParsedLine) => {
        start.traffic();
        noise.inspect(line.outline, line.value);
        start.parsedFrame(direction, line.value);
      },
    },
    request: { timeoutMs: start.timeoutMs, signal: start.signal },
    // Registered before the handshake ends: what the agent wrote while starting is not lost.
    onConnection: (connection) => output.forwardRemoteStderr(process, connection),
  });
}
