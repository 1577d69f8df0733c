/**
 * The UI side of the engine's permission flow (`ClientHost.askPermission`): questions wait in the
 * app store until the user answers them in the permission modal of their tab. A question the
 * engine withdraws (turn cancelled, agent gone) leaves the queue on its own.
 */
import type { PermissionAnswer, PermissionAsk } from '@acp-kit/client';
import type { AppStore } from '../state/app-store.js';

/**
 * @example
 * const permissions = new PermissionQueue(store, (localId) => tabs.byLocalId(localId));
 * const client = await AcpClient.create({ host: { askPermission: permissions.ask } });
 */
export class PermissionQueue {
  private readonly waiting = new Map<
    string,
    { tabId: string; resolve: (answer: PermissionAnswer) => void }
  >();
  private counter = 0;

  constructor(
    private readonly store: AppStore,
    private readonly tabFor: (localId: string) => string | undefined,
  ) {}

  /** `ClientHost.askPermission`. */
  readonly ask = (ask: PermissionAsk): Promise<PermissionAnswer> => {
    const id = `p${++this.counter}`;
    const tabId = this.tabFor(ask.localId) ?? '';
    return new Promise<PermissionAnswer>((resolve) => {
      const withdraw = (): void => this.settle(id, { decision: 'deny' });
      this.waiting.set(id, {
        tabId,
        resolve: (answer) => {
          ask.signal.removeEventListener('abort', withdraw);
          resolve(answer);
        },
      });
      if (ask.signal.aborted) {
        this.waiting.delete(id);
        resolve({ decision: 'deny' });
        return;
      }
      ask.signal.addEventListener('abort', withdraw, { once: true });
      this.store.dispatch({ type: 'permission_queued', permission: { id, tabId, ask } });
    });
  };

  /** The user's answer to a queued question. */
  answer(id: string, answer: PermissionAnswer): void {
    this.settle(id, answer);
  }

  /** Denies every question of a tab (the tab is closing). */
  denyTab(tabId: string): void {
    for (const [id, entry] of [...this.waiting])
      if (entry.tabId === tabId) this.settle(id, { decision: 'deny' });
  }

  private settle(id: string, answer: PermissionAnswer): void {
    const entry = this.waiting.get(id);
    if (!entry) return;
    this.waiting.delete(id);
    this.store.dispatch({ type: 'permission_removed', id });
    entry.resolve(answer);
  }
}
