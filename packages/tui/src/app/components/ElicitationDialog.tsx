import { memo } from 'react';
import { ElicitationForm } from '../../elicitation/ElicitationForm.js';
import type { FormState } from '../../elicitation/form-state.js';
import type { Controller } from '../services/controller.js';
import type { PendingElicitation } from '../state/app-state.js';
import { useController } from '../hooks/AppContext.js';

/** The form as the user left it, and where its changes are kept (it unmounts on a tab switch). */
function draftProps(
  controller: Controller,
  id: string,
): { draft?: FormState; onDraft: (state: FormState) => void } {
  const draft = controller.elicitations.draft(id);
  const onDraft = (state: FormState): void => controller.elicitations.keepDraft(id, state);
  return draft ? { draft, onDraft } : { onDraft };
}

/** Props of {@link ElicitationDialog}. */
export interface ElicitationDialogProps {
  readonly pending: PendingElicitation;
  /** The tab's agent, named as the one asking. */
  readonly agentName?: string;
  /** Other forms of this tab waiting behind this one. */
  readonly waiting: number;
  /** Rows the dialog may take. */
  readonly rows: number;
  readonly isActive?: boolean;
  /** Typeahead guard of the form (tests set 0). */
  readonly armDelayMs?: number;
}

/**
 * The form elicitation of the active tab; the answer (accept with content, decline, cancel) goes
 * back to the engine, which answers the agent's `elicitation/create`.
 */
export const ElicitationDialog = memo(function ElicitationDialog({
  pending,
  agentName,
  waiting,
  rows,
  isActive = true,
  armDelayMs,
}: ElicitationDialogProps) {
  const controller = useController();
  return (
    <ElicitationForm
      key={pending.id}
      message={pending.message}
      schema={pending.schema}
      waiting={waiting}
      rows={rows}
      isActive={isActive}
      {...(agentName !== undefined ? { agentName } : {})}
      {...(armDelayMs !== undefined ? { armDelayMs } : {})}
      {...draftProps(controller, pending.id)}
      onAnswer={(outcome) => controller.answerElicitation(pending.id, outcome)}
    />
  );
});
