/**
 * What the v2 implementations of the protocol bench send beside bench/common.js: the same chunks
 * with the message id v2 requires, the foreground states that open and end a v2 turn, and the
 * config option the round trip sets (v2 has no modes: `session/set_config_option` takes the place
 * of v1's `session/set_mode`).
 */
import { MODE_ID, SESSION_ID, chunkText } from '../common.js';

export const MESSAGE_ID = 'msg-bench-0001';
export const AGENT_CAPABILITIES = { session: {} };
export const CONFIG_OPTIONS = [
  {
    configId: 'mode',
    name: 'Mode',
    category: 'mode',
    type: 'select',
    currentValue: MODE_ID,
    options: [
      { value: 'code', name: 'Code' },
      { value: 'ask', name: 'Ask' },
    ],
  },
];

/** A fresh v2 `session/update` params object for chunk `i`. */
export function v2ChunkParams(i) {
  return {
    sessionId: SESSION_ID,
    update: {
      sessionUpdate: 'agent_message_chunk',
      messageId: MESSAGE_ID,
      content: { type: 'text', text: chunkText(i) },
    },
  };
}

export const RUNNING = { sessionId: SESSION_ID, update: { sessionUpdate: 'state_update', state: 'running' } };
export const IDLE = {
  sessionId: SESSION_ID,
  update: { sessionUpdate: 'state_update', state: 'idle', stopReason: 'end_turn' },
};

export const SET_MODE = { sessionId: SESSION_ID, configId: 'mode', type: 'id', value: MODE_ID };

/**
 * The client side of a v2 turn: chunks go to `onUpdate` (as the harness counts them), and the
 * prompt's stop reason is the one of the `idle` state that ends the turn.
 */
export class V2Turns {
  constructor(onUpdate) {
    this.onUpdate = onUpdate;
    this.ended = undefined;
  }

  update(params) {
    const update = params.update;
    if (update.sessionUpdate === 'agent_message_chunk') this.onUpdate(params);
    else if (update.sessionUpdate === 'state_update' && update.state === 'idle')
      this.ended?.(update.stopReason);
  }

  /** Resolves with the stop reason once `send()` was answered and the turn went idle. */
  async prompt(send) {
    const idle = new Promise((resolve) => (this.ended = resolve));
    await send();
    return idle;
  }
}
