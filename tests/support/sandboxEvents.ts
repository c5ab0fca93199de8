import { signSandboxPayload } from '../../server/sandbox/api.js';

/** A SANDBOX event about a charge, as the sandbox posts it to an account's notification URL, signed with the account's webhook secret. */
export function postSignedSandboxEvent(
  notificationUrl: string,
  webhookSecret: string,
  event: { id: string; type: string; data: { id: string; status: string; amount: number } },
): Promise<Response> {
  const body = JSON.stringify({ id: event.id, type: event.type, createdAt: new Date().toISOString(), data: event.data });
  return fetch(notificationUrl, {
    method: 'POST',
    body,
    headers: {
      'content-type': 'application/json',
      'x-sandbox-event-id': event.id,
      'x-sandbox-signature': signSandboxPayload(webhookSecret, Math.floor(Date.now() / 1000), body),
    },
  });
}
