/**
 * A recording ACP client for tests, built on our ClientSideConnection: it keeps every update,
 * answers permission requests by a policy, and serves `fs/*` and `terminal/*` for real.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import {
  ClientSideConnection,
  PROTOCOL_VERSION,
  ProtocolError,
  type ByteChannel,
  type ClientCapabilities,
  type CreateElicitationRequest,
  type CreateElicitationResponse,
  type InitializeResponse,
  type ReadTextFileRequest,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type SessionNotification,
  type SessionUpdate,
  type WriteTextFileRequest,
} from '@acp-kit/protocol';
import { TestTerminals } from './terminals.js';

export type PermissionPolicy = (
  request: RequestPermissionRequest,
  signal: AbortSignal,
) => RequestPermissionResponse | Promise<RequestPermissionResponse>;

/** Selects the option of `kind` (the first one if several). */
export function choose(kind: string): PermissionPolicy {
  return (request) => {
    const option = request.options.find((o) => o.kind === kind);
    if (!option) throw new Error(`no ${kind} option offered`);
    return { outcome: { outcome: 'selected', optionId: option.optionId } };
  };
}

/** Never answers until the request is cancelled, then answers `cancelled` (like a real client). */
export const waitForCancel: PermissionPolicy = (_request, signal) =>
  new Promise((resolve) => {
    signal.addEventListener('abort', () => resolve({ outcome: { outcome: 'cancelled' } }), { once: true });
  });

export interface TestClientOptions {
  capabilities?: ClientCapabilities;
  permission?: PermissionPolicy;
  /** Answers `elicitation/create` (advertise `elicitation.form` in `capabilities` too). */
  elicit?: (
    request: CreateElicitationRequest,
  ) => CreateElicitationResponse | Promise<CreateElicitationResponse>;
}

type Waiter = { predicate: (n: SessionNotification) => boolean; resolve: (n: SessionNotification) => void };

export class TestClient {
  readonly connection: ClientSideConnection;
  readonly notifications: SessionNotification[] = [];
  readonly permissionRequests: RequestPermissionRequest[] = [];
  readonly reads: ReadTextFileRequest[] = [];
  readonly writes: WriteTextFileRequest[] = [];
  readonly elicitations: CreateElicitationRequest[] = [];
  readonly terminals = new TestTerminals();
  permission: PermissionPolicy;
  private readonly capabilities: ClientCapabilities;
  private waiters: Waiter[] = [];
  private permissionWaiters: (() => void)[] = [];

  constructor(channel: ByteChannel, options: TestClientOptions = {}) {
    this.capabilities = options.capabilities ?? {};
    this.permission = options.permission ?? choose('allow_once');
    this.connection = new ClientSideConnection(
      channel,
      {
        sessionUpdate: (n) => this.onUpdate(n),
        requestPermission: async (request, ctx) => {
          this.permissionRequests.push(request);
          for (const wake of this.permissionWaiters.splice(0)) wake();
          return this.permission(request, ctx.signal);
        },
        readTextFile: async (request) => {
          this.reads.push(request);
          let text: string;
          try {
            text = await readFile(request.path, 'utf8');
          } catch {
            throw ProtocolError.resourceNotFound(`no such file ${request.path}`);
          }
          if (request.line == null && request.limit == null) return { content: text };
          const lines = text.split('\n');
          const start = (request.line ?? 1) - 1;
          return {
            content: lines.slice(start, request.limit == null ? undefined : start + request.limit).join('\n'),
          };
        },
        writeTextFile: async (request) => {
          this.writes.push(request);
          await mkdir(dirname(request.path), { recursive: true });
          await writeFile(request.path, request.content);
          return {};
        },
        createTerminal: (request) => this.terminals.create(request),
        terminalOutput: (request) => this.terminals.output(request.terminalId),
        waitForTerminalExit: (request, ctx) => this.terminals.waitForExit(request.terminalId, ctx.signal),
        killTerminal: (request) => this.terminals.kill(request.terminalId),
        releaseTerminal: (request) => this.terminals.release(request.terminalId),
        createElicitation: async (request) => {
          this.elicitations.push(request);
          if (!options.elicit) return { action: 'decline' };
          return options.elicit(request);
        },
      },
      { validateOutgoing: true },
    ).start();
  }

  initialize(): Promise<InitializeResponse> {
    return this.connection.initialize({
      protocolVersion: PROTOCOL_VERSION,
      clientCapabilities: this.capabilities,
      clientInfo: { name: 'acp-kit-agent-tests', version: '0.0.0' },
    });
  }

  private onUpdate(notification: SessionNotification): void {
    this.notifications.push(notification);
    for (const waiter of [...this.waiters]) {
      if (waiter.predicate(notification)) {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        waiter.resolve(notification);
      }
    }
  }

  /** Updates of a session, optionally only of one kind. */
  updates(sessionId: string, kind?: string): SessionUpdate[] {
    return this.notifications
      .filter((n) => n.sessionId === sessionId && (!kind || n.update.sessionUpdate === kind))
      .map((n) => n.update);
  }

  /** Resolves with the first update (already received or future) matching `predicate`. */
  waitForUpdate(sessionId: string, predicate: (update: SessionUpdate) => boolean): Promise<SessionUpdate> {
    const match = (n: SessionNotification): boolean => n.sessionId === sessionId && predicate(n.update);
    const seen = this.notifications.find(match);
    if (seen) return Promise.resolve(seen.update);
    return new Promise((resolve) =>
      this.waiters.push({ predicate: match, resolve: (n) => resolve(n.update) }),
    );
  }

  /** Resolves once `count` permission requests have arrived. */
  async waitForPermissionRequests(count: number): Promise<void> {
    while (this.permissionRequests.length < count) {
      await new Promise<void>((resolve) => this.permissionWaiters.push(resolve));
    }
  }

  /** All text of agent message chunks of a session, concatenated. */
  agentText(sessionId: string): string {
    return this.updates(sessionId, 'agent_message_chunk')
      .map((u) => {
        const content = (u as { content: { type: string; text?: string } }).content;
        return content.type === 'text' ? (content.text ?? '') : '';
      })
      .join('');
  }

  /** Final state of each tool call of a session (tool_call merged with its updates). */
  toolCalls(sessionId: string): Record<string, unknown>[] {
    const calls = new Map<string, Record<string, unknown>>();
    for (const update of this.updates(sessionId)) {
      const u = update as Record<string, unknown> & { toolCallId?: string };
      if (update.sessionUpdate === 'tool_call' && u.toolCallId) calls.set(u.toolCallId, { ...u });
      if (update.sessionUpdate === 'tool_call_update' && u.toolCallId) {
        const call = calls.get(u.toolCallId);
        if (call)
          for (const [k, v] of Object.entries(u))
            if (v !== undefined && v !== null && k !== 'sessionUpdate') call[k] = v;
      }
    }
    return [...calls.values()];
  }

  async close(): Promise<void> {
    this.terminals.dispose();
    await this.connection.close();
  }
}
