import { AsyncLocalStorage } from 'node:async_hooks';
import type { AuditEvent } from '../domain/types.js';

/**
 * The audit row of the call being answered, for the write that completes the call to commit with it: a charge's row
 * then costs no durable commit of its own (two a charge waits for, not three). The transport opens it around the
 * handler and writes the row itself only when no write took it; once the handler has settled it is closed, so work
 * the call left behind (a timer, a later lookup) never writes a row in the call's name.
 */
export interface CallAudit {
  /** Who did what from where; the resource, the outcome and the time are the completing write's. */
  readonly who: Pick<AuditEvent, 'actorKind' | 'actorId' | 'actorName' | 'action' | 'source'>;
  /** Set by the write that committed the row. */
  written: boolean;
  /** Set when the handler has settled: no write may take the row any more. */
  closed: boolean;
}

const scope = new AsyncLocalStorage<CallAudit>();

/** Runs a call's handler with its audit row open to the write that completes it; the row is closed when it settles. */
export async function withCallAudit<T>(audit: CallAudit, run: () => Promise<T>): Promise<T> {
  try {
    return await scope.run(audit, run);
  } finally {
    audit.closed = true;
  }
}

/**
 * The open audit row of this call, for a write that completes it (outcome OK, the resource the write made);
 * `undefined` outside an audited call, after its handler settled, or once a write took it. The write that commits the
 * row sets `written`.
 */
export function openCallAudit(): CallAudit | undefined {
  const audit = scope.getStore();
  return audit && !audit.closed && !audit.written ? audit : undefined;
}
