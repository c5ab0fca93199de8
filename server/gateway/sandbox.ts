import { setTimeout as sleep } from 'node:timers/promises';
import { GatewayError, notFound } from '../lib/errors.js';
import type { Transaction } from '../domain/types.js';
import { canSimulatePayments, type SentNotification } from '../providers/adapter.js';
import { resolveAccount, type GatewayDeps } from './context.js';

/** How long SimulatePayment waits for the notification it caused to be applied. */
const SETTLE_WAIT_MS = 10_000;

/** Drives the SANDBOX provider for demos and tests. */
export class SandboxService {
  constructor(private readonly deps: GatewayDeps) {}

  async simulatePayment(id: string): Promise<{ transaction: Transaction; notification?: SentNotification }> {
    const transaction = await this.deps.transactions.findTransaction(this.deps.db.em(), id);
    if (!transaction) throw notFound(`transaction ${id} not found`);
    const { adapter, ctx } = await resolveAccount(this.deps, transaction.providerAccountId, { includeDeleted: true });
    if (!canSimulatePayments(adapter)) {
      throw new GatewayError(
        'FAILED_PRECONDITION',
        `transaction ${id} belongs to ${transaction.provider}, which cannot simulate payments (the SANDBOX provider can)`,
        { reason: 'NOT_SIMULATED_PROVIDER' },
      );
    }
    const { notification } = await adapter.simulatePayment(ctx, transaction.transactionId);
    // The sidecar stored the notification before answering the sandbox; a worker applies it moments later.
    const deadline = Date.now() + SETTLE_WAIT_MS;
    for (;;) {
      const current = (await this.deps.transactions.findTransaction(this.deps.db.em(), id, 'primary'))!;
      if (current.status !== transaction.status || Date.now() > deadline) return { transaction: current, notification };
      await sleep(50);
    }
  }
}
