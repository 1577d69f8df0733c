/**
 * Opening sessions: creating new ones, bringing stored ones back to life for load and resume, and
 * the live-session registry.
 */
import { randomUUID } from 'node:crypto';
import { ProtocolError, type Logger } from '@acp-kit/protocol';
import type { ClientPort } from '../core/client-port.js';
import { DEFAULT_MODE } from '../modes/modes.js';
import { Workspace, WorkspaceRootError } from '../tools/workspace.js';
import { invalidParams } from '../util/errors.js';
import { Session, type ConfigOptionSource } from './session.js';
import { LOG_FORMAT, isValidSessionId, type SessionMeta, type SessionStore } from './store.js';

export interface SessionFactoryOptions {
  store: SessionStore;
  client: ClientPort;
  options: ConfigOptionSource;
  initialConfig: () => Record<string, string | boolean>;
  logger: Logger;
}

async function workspaceFor(
  cwd: string,
  additionalDirectories: readonly string[] | undefined,
): Promise<Workspace> {
  try {
    return await Workspace.create(cwd, additionalDirectories ?? []);
  } catch (error) {
    if (error instanceof WorkspaceRootError) throw invalidParams(error.message);
    throw error;
  }
}

/** The live sessions of one connection. */
export class SessionRegistry {
  private readonly live = new Map<string, Session>();

  constructor(private readonly factory: SessionFactoryOptions) {}

  get store(): SessionStore {
    return this.factory.store;
  }

  get(sessionId: string): Session | undefined {
    return this.live.get(sessionId);
  }

  /** The live session, or -32002 telling the client to load or resume it first. */
  require(sessionId: string): Session {
    const session = this.live.get(sessionId);
    if (session) return session;
    if (this.factory.store.exists(sessionId)) {
      throw ProtocolError.resourceNotFound(`Session ${sessionId} is not open; load or resume it first`, {
        sessionId,
      });
    }
    throw ProtocolError.resourceNotFound(`Unknown session ${sessionId}`, { sessionId });
  }

  async create(cwd: string, additionalDirectories: readonly string[] | undefined): Promise<Session> {
    const workspace = await workspaceFor(cwd, additionalDirectories);
    const now = new Date().toISOString();
    const meta: SessionMeta = {
      version: LOG_FORMAT,
      sessionId: randomUUID(),
      agent: this.factory.store.agent,
      cwd: workspace.cwd,
      additionalDirectories: [...workspace.additionalDirectories],
      title: null,
      createdAt: now,
      updatedAt: now,
      modeId: DEFAULT_MODE,
      config: this.factory.initialConfig(),
      permissions: {},
    };
    const log = this.factory.store.create(meta);
    return this.register(new Session({ ...this.factory, meta, log, workspace }));
  }

  /**
   * Reopens a stored session (closing a live instance of it first). The request's `cwd` must be
   * the session's; additional directories may change.
   */
  async reopen(
    sessionId: string,
    cwd: string,
    additionalDirectories: readonly string[] | undefined,
  ): Promise<Session> {
    const meta = isValidSessionId(sessionId) ? this.factory.store.readMeta(sessionId) : undefined;
    if (!meta) throw ProtocolError.resourceNotFound(`Unknown session ${sessionId}`, { sessionId });
    const workspace = await workspaceFor(cwd, additionalDirectories);
    if (workspace.cwd !== meta.cwd) {
      throw invalidParams(`Session ${sessionId} belongs to ${meta.cwd}, not ${workspace.cwd}`);
    }
    await this.close(sessionId);
    // From now on its log gets records of the current format (the older ones are still read).
    meta.version = LOG_FORMAT;
    meta.additionalDirectories = [...workspace.additionalDirectories];
    const defaults = this.factory.initialConfig();
    meta.config = { ...defaults, ...meta.config };
    const log = this.factory.store.openLog(sessionId);
    const session = new Session({ ...this.factory, meta, log, workspace });
    session.saveMeta();
    return this.register(session);
  }

  private register(session: Session): Session {
    this.live.set(session.id, session);
    return session;
  }

  /** Closes a live session; false when it was not live. */
  async close(sessionId: string): Promise<boolean> {
    const session = this.live.get(sessionId);
    if (!session) return false;
    this.live.delete(sessionId);
    await session.close();
    return true;
  }

  /** Cancels the running turn of every live session. */
  cancelAll(): void {
    for (const session of this.live.values()) session.cancel();
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.live.keys()].map((id) => this.close(id)));
  }
}
