import { createHash } from 'node:crypto';

/**
 * What identifies one notification across a provider's re-deliveries, so the gateway processes it once (keys are
 * compared within one provider account). One scheme for every adapter:
 * - `event:<id>`: the provider's own event id, where its notifications carry one that a re-delivery repeats;
 * - `<subject>:<id>:<status>`: else what the notification says happened: the subject's kind (a charge, a payout, a
 *   sell, the provider's event name), its id at the provider, and the status it reached, in lower case;
 * - `sha256:<hex>`: else the body's hash (a re-delivery of the same bytes).
 */
export type NotificationIdentity = { eventId: string } | { subject: string; id: string; status: string };

export function notificationKeyOf(identity: NotificationIdentity | undefined, body: Buffer): string {
  if (identity && 'eventId' in identity && identity.eventId) return `event:${identity.eventId}`;
  if (identity && 'subject' in identity && identity.id) return `${identity.subject}:${identity.id}:${identity.status.toLowerCase()}`;
  return `sha256:${createHash('sha256').update(body).digest('hex')}`;
}

/** The keys the scheme makes, for tests and for reading stored keys. */
export const NOTIFICATION_KEY_PATTERN = /^(event:.+|[A-Za-z0-9_.-]+:[^:]+:[^:]*|sha256:[0-9a-f]{64})$/;
