/**
 * The v2 face, agent → client: `session/update`s through one {@link V2UpdateTranslator} per agent
 * session into the session's store (a foreground state also settles the waiting turn), and
 * permission questions through the session's broker, forms (`elicitation/create`) as in v1. v2 has
 * no `fs/*` or `terminal/*` requests: the agent's terminals arrive as updates.
 */
import type { ClientHandlers } from '@acp-kit/protocol/v2';
import { answerElicitation, completeElicitation, type ElicitationDeps } from '../agent/elicitation.js';
import type { AgentUpdate } from '../model/agent-update.js';
import { requireSession } from '../protocol-v1/v1-handlers.js';
import { newId } from '../util/ids.js';
import { V2UpdateTranslator } from './from-v2-update.js';
import { fromV2Elicitation, toV2ElicitationAnswer } from './v2-elicitation.js';
import { fromV2Permission } from './v2-permission.js';
import type { V2Turns } from './v2-turns.js';

/** What the v2 handlers need from the connection. */
export interface V2HandlerDeps extends ElicitationDeps {
  /** Updates for a session not registered yet (its `session/new` answer is on its way). */
  orphanUpdates(sessionId: string, updates: AgentUpdate[]): void;
  /** Sees every update, translated, before it is routed. */
  onUpdates?(sessionId: string, updates: readonly AgentUpdate[]): void;
  /** A promise while the host is backed up: the next messages wait for it. */
  backpressure?(): Promise<void> | undefined;
  turns: V2Turns;
}

/** The translators of a v2 connection's sessions (their terminals' decoders), by agent session id. */
export class V2Translators {
  private readonly bySession = new Map<string, V2UpdateTranslator>();

  for(sessionId: string): V2UpdateTranslator {
    let translator = this.bySession.get(sessionId);
    if (!translator) {
      translator = new V2UpdateTranslator();
      this.bySession.set(sessionId, translator);
    }
    return translator;
  }

  forget(sessionId: string): void {
    this.bySession.delete(sessionId);
  }
}

/** Builds the handlers of a v2 ClientSideConnection. */
export function createV2Handlers(deps: V2HandlerDeps, translators: V2Translators): ClientHandlers {
  return {
    sessionUpdate(params) {
      const sessionId = params.sessionId;
      // The prompt's own user message, echoed by the agent, is already in the session.
      const updates = translators
        .for(sessionId)
        .update(params.update)
        .filter(
          (u) =>
            !((u.kind === 'message' || u.kind === 'message_chunk') && u.role === 'user') ||
            u.messageId === undefined ||
            !deps.turns.isEcho(sessionId, u.messageId),
        );
      deps.onUpdates?.(params.sessionId, updates);
      const session = deps.session(params.sessionId);
      if (!session) {
        deps.orphanUpdates(params.sessionId, updates);
        return deps.backpressure?.();
      }
      const applying = session.handleUpdate(updates);
      // The turn ends once the session holds everything up to its `idle`.
      const settle = (): Promise<void> | undefined => {
        for (const update of updates)
          if (update.kind === 'foreground') deps.turns.foreground(params.sessionId, update);
        return deps.backpressure?.();
      };
      return applying ? applying.then(settle) : settle();
    },
    async requestPermission(params, ctx) {
      const session = requireSession(deps.session(params.sessionId), params.sessionId);
      const { question, upsert } = fromV2Permission(params, () => newId('perm'));
      if (upsert) await session.handleUpdate(translators.for(params.sessionId).update(upsert));
      return session.requestPermission(question, ctx.signal);
    },
    createElicitation: async (params, ctx) =>
      toV2ElicitationAnswer(await answerElicitation(deps, fromV2Elicitation(params), ctx.signal)),
    completeElicitation: (params) => completeElicitation(deps, params),
  };
}
