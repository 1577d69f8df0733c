/**
 * The v1 face, agent → client: the methods routed to the session they name (updates translated by
 * `fromV1Update`), served by the fs and terminal services, with local failures turned into wire
 * errors.
 */
import { ProtocolError, type ClientHandlers, type SessionNotification } from '@acp-kit/protocol';
import { answerElicitation, completeElicitation, type ElicitationDeps } from '../agent/elicitation.js';
import { ClientError } from '../errors.js';
import type { FsService } from '../fs/fs-service.js';
import type { AgentUpdate } from '../model/agent-update.js';
import { fromV1Update } from './from-v1-update.js';
import type { ClientSession } from '../session/client-session.js';
import type { TerminalService } from '../terminal/terminal-service.js';

/** What the handlers need from the connection. */
export interface HandlerDeps extends ElicitationDeps {
  /** Updates for a session not registered yet (its `session/new` answer is on its way). */
  orphanUpdates(sessionId: string, updates: AgentUpdate[]): void;
  /** Sees every `session/update` received, as received, before it is routed. */
  onUpdate?(params: SessionNotification): void;
  /** Sees every update, translated, before it is routed. */
  onUpdates?(sessionId: string, updates: readonly AgentUpdate[]): void;
  /** A promise while the host is backed up: the next messages wait for it (see `AgentConnection.addBackpressure`). */
  backpressure?(): Promise<void> | undefined;
  fs: FsService;
  terminals: TerminalService;
}

/** Maps a local failure to the error the agent gets. */
export function toProtocolError(error: unknown): unknown {
  if (!(error instanceof ClientError)) return error;
  const data = { reason: error.code };
  switch (error.code) {
    case 'FILE_NOT_FOUND':
    case 'SESSION_NOT_FOUND':
    case 'TERMINAL_NOT_FOUND':
      return ProtocolError.resourceNotFound(error.message, data);
    case 'PATH_INVALID':
    case 'INVALID_ARGUMENT':
      return new ProtocolError(-32602, error.message, data);
    default:
      // ACP has no "permission denied" code: -32603 with a message the model can act on.
      return new ProtocolError(-32603, error.message, data);
  }
}

async function served<T>(work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw toProtocolError(error);
  }
}

/** The session an agent's request names, or the error it gets when there is none. */
export function requireSession(session: ClientSession | undefined, sessionId: string): ClientSession {
  if (!session)
    throw ProtocolError.resourceNotFound('Session not found', { sessionId: String(sessionId).slice(0, 200) });
  return session;
}

/** Builds the handlers of a ClientSideConnection. */
export function createClientHandlers(deps: HandlerDeps): ClientHandlers {
  const require = (sessionId: string): ClientSession => requireSession(deps.session(sessionId), sessionId);
  return {
    sessionUpdate(params) {
      deps.onUpdate?.(params);
      const updates = fromV1Update(params.update);
      deps.onUpdates?.(params.sessionId, updates);
      const session = deps.session(params.sessionId);
      const applying = session
        ? session.handleUpdate(updates)
        : (deps.orphanUpdates(params.sessionId, updates), undefined);
      // A promise here holds the inbound queue; past its bounds, reading stops (the agent waits).
      // An update still being applied (its diffs placed in their files) holds it too.
      return applying ? applying.then(() => deps.backpressure?.()) : deps.backpressure?.();
    },
    requestPermission: (params, ctx) => require(params.sessionId).requestPermission(params, ctx.signal),
    readTextFile: (params) =>
      served(() => deps.fs.readTextFile(params, require(params.sessionId).fsContext())),
    writeTextFile: (params, ctx) =>
      served(() => deps.fs.writeTextFile(params, require(params.sessionId).fsContext(ctx.signal))),
    createTerminal: (params) =>
      served(() => deps.terminals.create(params, require(params.sessionId).terminalContext())),
    terminalOutput: (params) => served(() => (require(params.sessionId), deps.terminals.output(params))),
    waitForTerminalExit: (params, ctx) =>
      served(() => (require(params.sessionId), deps.terminals.waitForExit(params, ctx.signal))),
    killTerminal: (params) => served(() => (require(params.sessionId), deps.terminals.kill(params))),
    releaseTerminal: (params) => served(() => (require(params.sessionId), deps.terminals.release(params))),
    createElicitation: (params, ctx) => answerElicitation(deps, params, ctx.signal),
    completeElicitation: (params) => completeElicitation(deps, params),
  };
}
