/**
 * A tab whose remote agent's server is full: the client asks again after the server's
 * `Retry-After` and the tab says so while it waits (issue 17); closing the app stops the wait.
 */
import { afterEach, expect, it } from 'vitest';
import { remoteEntry } from '@acp-kit/client';
import { RemoteServer } from '@acp-kit/protocol/remote';
import { listenRemote, type RemoteListener } from '@acp-kit/protocol/remote/node';
import { startApp, waitFrame, type AppFlow } from '../test-support/app-flow.js';

let app: AppFlow | undefined;
let listener: RemoteListener | undefined;
afterEach(async () => {
  await app?.close();
  await listener?.close();
  app = listener = undefined;
});

it('a tab on a full remote server says that it will ask again, and when', async () => {
  // No agent place at all: every client is answered 503 with a Retry-After the test never waits out.
  const server = new RemoteServer({
    startAgent: () => {
      throw new Error('a full server starts no agent');
    },
    limits: { maxConnections: 0, retryAfterSeconds: 30 },
  });
  listener = await listenRemote(server);
  app = await startApp({ picker: false });
  const entry = remoteEntry(listener.url);
  app.controller.openAgent(entry);
  await waitFrame(
    app.r,
    `${entry.name}: the server is full (too many connections): asking again in 30 s (1 of 3)`,
  );
  // Still starting (not failed): it waits to ask again.
  expect(app.controller.store.getSnapshot().tabs[0]?.phase).toBe('starting');
});
