/** v1's `modes` object: the agent's modes as a v1 client sees them beside the `mode` config option. */
import type { SessionModeState } from '@acp-kit/protocol';
import { MODES, type ModeId } from '../../modes/modes.js';

/** The ACP v1 `modes` object for a session in mode `current`. */
export function modeState(current: ModeId): SessionModeState {
  return {
    currentModeId: current,
    availableModes: MODES.map(({ id, name, description }) => ({ id, name, description })),
  };
}
