import type { FlowMismatch, FlowMismatchOutcome, FlowMismatchState } from '../domain/types.js';
import { GatewayError, invalidArgument, notFound } from '../lib/errors.js';
import { redactText } from '../lib/http/redact.js';
import type { Principal } from './access.js';
import type { GatewayDeps } from './context.js';

export interface FlowMismatchFilter {
  providerAccountId?: string;
  subjectId?: string;
  /** Unset: the open ones. */
  state?: FlowMismatchState;
}

/**
 * Provider answers refused for not matching the record (flowIntegrity.ts), and an operator's settlement of each once
 * followed up with the provider. Settling moves no money and changes no record: it says who closed the mismatch, when,
 * what they found and how, so the open list holds only what still needs a person.
 */
export class FlowMismatchesService {
  constructor(private readonly deps: Pick<GatewayDeps, 'db' | 'logger' | 'mismatches'>) {}

  /** Newest first. */
  list(filter: FlowMismatchFilter): Promise<FlowMismatch[]> {
    return this.deps.mismatches.list(this.deps.db.em(), filter);
  }

  async settle(id: string, settlement: { outcome: FlowMismatchOutcome; note: string }, by: Principal): Promise<FlowMismatch> {
    // Kept for good and shown to every reader: card data an operator pastes in goes in masked. Its length is the edge's (requestGuard).
    const note = redactText(settlement.note.trim());
    if (!note) throw invalidArgument('note', 'note is required: say how the mismatch was followed up with the provider', 'REQUIRED');
    const em = this.deps.db.em();
    const settled = await this.deps.mismatches.settle(em, id, { outcome: settlement.outcome, note, by: { id: by.id, name: by.name }, at: new Date() });
    const mismatch = await this.deps.mismatches.find(em, id);
    if (!mismatch) throw notFound(`flow mismatch ${id} not found`);
    if (!settled)
      throw new GatewayError('FAILED_PRECONDITION', `flow mismatch ${id} was already settled by ${mismatch.settlement?.by.name}`, {
        reason: 'ALREADY_SETTLED',
      });
    this.deps.logger.info({ flowMismatchId: id, subjectId: mismatch.subjectId, outcome: settlement.outcome }, 'flow mismatch settled by an operator');
    return mismatch;
  }
}
