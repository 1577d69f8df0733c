/** The client engine's version-neutral model (see `agent-update.ts`). */
export * from './agent-update.js';
export * from './content.js';
