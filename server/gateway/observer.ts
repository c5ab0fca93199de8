import type { WebhookOutcome } from '../domain/types.js';

/** How one delivery attempt to a caller's webhook_url ended: delivered, failed with a retry scheduled, or failed for the last time. */
export type OutboundAttemptOutcome = 'delivered' | 'failed' | 'gave_up';

/**
 * What the use cases report as they work (the metrics endpoint counts it).
 * Labels stay few: providers are adapter ids from stored accounts, outcomes
 * come from closed lists. Every method is cheap and never throws.
 */
export interface UseCaseObserver {
  /** A notification arrived for a known account (stored, or refused for its signature). */
  notificationReceived(provider: string): void;
  /** What came of processing one (a refused signature at intake is REJECTED). */
  notificationProcessed(provider: string, outcome: WebhookOutcome): void;
  outboundAttempt(outcome: OutboundAttemptOutcome): void;
}
