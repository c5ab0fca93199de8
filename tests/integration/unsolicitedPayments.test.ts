import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { GetTransactionRequest, WatchEventsRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { PaymentMethod, StatusSource, TransactionOrigin, TransactionStatus, WebhookOutcome, WebhookResultType } from '../../gen/ts-proto/gateway/v1/types.js';
import { TransactionEntity } from '../../server/db/entities.js';
import type { TransactionResult, WebhookResult } from '../../server/domain/types.js';
import { reaisToCents } from '../../server/lib/money.js';
import { safeEqualHex } from '../../server/lib/hmacSignature.js';
import { notFound } from '../../server/lib/errors.js';
import {
  ProviderAdapter,
  type AdapterContext,
  type IncomingNotification,
  type NotificationVerdict,
  type ProviderIdentity,
  capabilitiesOf,
  SPEC_GROUPS,
} from '../../server/providers/adapter.js';
import { startTestStack, type TestStack } from '../support/gateway.js';
import { eventually } from '../support/eventually.js';

/**
 * A provider that exists only in this test, with BMB's rule (spec doc 2 §4):
 * "Paid is APPROVED, anything else PENDING; a static QR webhook is always
 * APPROVED". A dynamic QR belongs to a charge the gateway created; a static QR
 * is paid without one, so its notification reports a payment the gateway has
 * never seen. Bodies: {"qrType":"STATIC"|"DYNAMIC","txid","status","valor" (reais),"eventId"}, a static QR's
 * with the PIX payment's "endToEndId" and "payerName" when given.
 */
class StaticQrWithoutLookup extends ProviderAdapter {
  readonly identity: ProviderIdentity;
  /** Webhooks only: no charges of its own, so no transaction lookup either. */
  readonly capabilities = capabilitiesOf({ paymentMethods: [], webhooks: true });

  constructor(id: string) {
    super();
    this.identity = { id, aliases: [], specGroup: SPEC_GROUPS.GATEWAY, defaultBaseUrl: 'http://127.0.0.1:1' };
  }

  override async processWebhook(_ctx: AdapterContext, notification: IncomingNotification): Promise<WebhookResult | undefined> {
    const body = JSON.parse(notification.body.toString('utf8'));
    if (body.qrType === 'STATIC')
      return {
        type: 'UNSOLICITED_PAYMENT',
        transactionId: body.txid,
        amount: reaisToCents(body.valor),
        paymentMethod: 'PIX',
        status: 'APPROVED',
        paidAt: new Date(body.paidAt),
        ...(body.endToEndId ? { pixPayment: { endToEndId: body.endToEndId, payerName: body.payerName } } : {}),
      };
    return { type: 'TRANSACTION', transactionId: body.txid, status: body.status === 'Paid' ? 'APPROVED' : 'PENDING' };
  }

  override verifyNotification(ctx: AdapterContext, notification: IncomingNotification): NotificationVerdict {
    if (!ctx.webhookSecret) return 'unsigned';
    const expected = createHmac('sha256', ctx.webhookSecret).update(notification.body).digest('hex');
    return safeEqualHex(notification.headers['x-test-signature'] ?? '', expected) ? 'valid' : 'invalid';
  }

  override notificationKey(_ctx: AdapterContext, notification: IncomingNotification): string {
    return JSON.parse(notification.body.toString('utf8')).eventId;
  }
}

/** The same provider where the gateway can ask about a payment: `ledger` is what the provider itself knows. */
class StaticQr extends StaticQrWithoutLookup {
  override readonly capabilities = capabilitiesOf({ paymentMethods: ['PIX'], webhooks: true });
  readonly ledger = new Map<string, TransactionResult>();

  override async getTransaction(_ctx: AdapterContext, transactionId: string): Promise<TransactionResult> {
    const known = this.ledger.get(transactionId);
    if (!known) throw notFound(`the provider knows no payment ${transactionId}`);
    return known;
  }
}

const WEBHOOK_SECRET = 'whsec-static-qr';
const provider = new StaticQr('STATICQR');
let stack: TestStack;
let signedAccount: { id: string; notificationUrl: string };
let unsignedAccount: { id: string; notificationUrl: string };
let noLookupAccount: { id: string; notificationUrl: string };

beforeAll(async () => {
  stack = await startTestStack({ extraProviders: [provider, new StaticQrWithoutLookup('STATICQR_NOLOOKUP')] });
  const create = async (provider: string, webhookSecret?: string) =>
    (await stack.client.call('accounts', 'createProviderAccount', { provider, name: provider, publicKey: 'pk', secretKey: 'sk', webhookSecret }))
      .providerAccount;
  signedAccount = await create('STATICQR', WEBHOOK_SECRET);
  unsignedAccount = await create('STATICQR');
  noLookupAccount = await create('STATICQR_NOLOOKUP');
});

afterAll(async () => {
  await stack?.close();
});

let sequence = 0;
function staticQrPaid(txid: string, valor = '15.90', eventId = `evt_${(sequence += 1)}`) {
  return JSON.stringify({ qrType: 'STATIC', txid, status: 'Paid', valor, paidAt: '2026-11-20T10:00:00.000Z', eventId });
}
const post = (account: { notificationUrl: string }, body: string, signed = true) =>
  fetch(account.notificationUrl, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', ...(signed ? { 'x-test-signature': createHmac('sha256', WEBHOOK_SECRET).update(body).digest('hex') } : {}) },
  });
const notificationsOf = async (providerAccountId: string) =>
  (
    await stack.client.call('webhooks', 'listWebhookNotifications', {
      providerAccountId,
      outcome: 0,
      provider: '',
      subjectId: '',
      pageSize: 100,
      pageToken: '',
    })
  ).notifications;
const processed = (providerAccountId: string, count: number) =>
  eventually(
    async () => {
      const list = await notificationsOf(providerAccountId);
      const done = list.filter((n: any) => ![WebhookOutcome.WEBHOOK_OUTCOME_RECEIVED, WebhookOutcome.WEBHOOK_OUTCOME_UNSPECIFIED].includes(n.outcome));
      return done.length >= count && done;
    },
    15_000,
    `${count} processed notifications`,
  );
const read = async (id: string) => (await stack.client.call('gateway', 'getTransaction', GetTransactionRequest.fromPartial({ id }))).transaction;
const rowsFor = (providerAccountId: string, providerTransactionId: string) =>
  stack.gateway.db!.em().count(TransactionEntity, { providerAccountId, providerTransactionId });

describe('a payment with no charge in the gateway (a static QR code paid)', () => {
  it('is recorded as a transaction of origin webhook, APPROVED, and its event is published', async () => {
    const watch = stack.client.watch(WatchEventsRequest.fromPartial({ providerAccountIds: [signedAccount.id] }));
    try {
      const paid = { ...JSON.parse(staticQrPaid('static-1', '15.90')), endToEndId: 'E18236120202611201000abcdefghijk', payerName: 'Ana Souza' };
      expect((await post(signedAccount, JSON.stringify(paid))).status).toBe(200);
      const [notification] = await processed(signedAccount.id, 1);
      expect(notification).toMatchObject({
        outcome: WebhookOutcome.WEBHOOK_OUTCOME_APPLIED,
        outcomeReason: 'recorded a payment with no charge as APPROVED',
        attempts: 1,
        result: {
          type: WebhookResultType.WEBHOOK_RESULT_TYPE_UNSOLICITED_PAYMENT,
          transactionId: 'static-1',
          status: TransactionStatus.TRANSACTION_STATUS_APPROVED,
        },
      });
      const transaction = await read(notification.subjectId);
      expect(transaction).toMatchObject({
        provider: 'STATICQR',
        providerAccountId: signedAccount.id,
        transactionId: 'static-1',
        origin: TransactionOrigin.TRANSACTION_ORIGIN_WEBHOOK,
        paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX,
        status: TransactionStatus.TRANSACTION_STATUS_APPROVED,
        amount: 1590,
        currency: 'BRL',
        createdAt: new Date('2026-11-20T10:00:00.000Z'),
        // The PIX payment as the notification stated it.
        pixEndToEndId: 'E18236120202611201000abcdefghijk',
        pixPayer: { name: 'Ana Souza', document: '', bankIspb: '', bankName: '' },
      });
      expect(transaction.statusHistory.map((c: any) => [c.status, c.source])).toEqual([
        [TransactionStatus.TRANSACTION_STATUS_APPROVED, StatusSource.STATUS_SOURCE_WEBHOOK],
      ]);
      const { event } = await watch.next();
      expect(event).toMatchObject({ subjectId: transaction.id, transactionStatus: TransactionStatus.TRANSACTION_STATUS_APPROVED });
    } finally {
      watch.close();
    }
  });

  it('re-deliveries, also as different events, record it once (concurrent copies: stateMachine.test.ts)', async () => {
    const copy = staticQrPaid('static-2', '7.00', 'evt_static_2');
    const differentEvents = Array.from({ length: 4 }, () => staticQrPaid('static-2', '7.00'));
    const bodies = [copy, copy, copy, ...differentEvents];
    const answers = await Promise.all(bodies.map((body) => post(signedAccount, body)));
    expect(answers.map((a) => a.status)).toEqual(bodies.map(() => 200));
    const done = (await processed(signedAccount.id, 1 + bodies.length)).filter((n: any) => n.result?.transactionId === 'static-2');
    expect(done).toHaveLength(bodies.length);
    expect(await rowsFor(signedAccount.id, 'static-2')).toBe(1);
    const outcomes = done.map((n: any) => n.outcome);
    expect(outcomes.filter((o: number) => o === WebhookOutcome.WEBHOOK_OUTCOME_APPLIED)).toHaveLength(1);
    expect(outcomes.filter((o: number) => o === WebhookOutcome.WEBHOOK_OUTCOME_DUPLICATE)).toHaveLength(2);
    expect(outcomes.filter((o: number) => o === WebhookOutcome.WEBHOOK_OUTCOME_UNCHANGED)).toHaveLength(4);
    // A copy found duplicate before the payment was recorded has no subject yet.
    expect(new Set(done.map((n: any) => n.subjectId).filter(Boolean)).size).toBe(1);
    expect((await read(done[0].subjectId)).statusHistory).toHaveLength(1);
  });

  it('a dynamic QR for an unknown charge is still an unknown subject (retried, not recorded)', async () => {
    const body = JSON.stringify({ qrType: 'DYNAMIC', txid: 'dynamic-unknown', status: 'Paid', eventId: 'evt_dynamic_unknown' });
    await post(signedAccount, body);
    const notification = await eventually(async () =>
      (await notificationsOf(signedAccount.id)).find(
        (n: any) => n.result?.transactionId === 'dynamic-unknown' && n.outcome === WebhookOutcome.WEBHOOK_OUTCOME_UNKNOWN_SUBJECT,
      ),
    );
    expect(notification.outcomeReason).toBe('no transaction dynamic-unknown for this account');
    expect(await rowsFor(signedAccount.id, 'dynamic-unknown')).toBe(0);
  });

  it('unsigned, it is confirmed with the provider: recorded when the provider knows the payment, with the provider’s status', async () => {
    provider.ledger.set('static-3', { paymentMethod: 'PIX', transactionId: 'static-3', status: 'APPROVED', amount: 2500 });
    provider.ledger.set('static-4', { paymentMethod: 'PIX', transactionId: 'static-4', status: 'PENDING', amount: 900 });
    await post(unsignedAccount, staticQrPaid('static-3', '25.00'), false);
    await post(unsignedAccount, staticQrPaid('static-4', '9.00'), false);
    const done = await processed(unsignedAccount.id, 2);
    const confirmed = done.find((n: any) => n.result.transactionId === 'static-3');
    expect([confirmed.outcome, confirmed.outcomeReason]).toEqual([WebhookOutcome.WEBHOOK_OUTCOME_APPLIED, 'recorded a payment with no charge as APPROVED']);
    expect((await read(confirmed.subjectId)).statusHistory.map((c: any) => c.source)).toEqual([StatusSource.STATUS_SOURCE_WEBHOOK]);
    const contradicted = done.find((n: any) => n.result.transactionId === 'static-4');
    expect([contradicted.outcome, contradicted.outcomeReason]).toEqual([
      WebhookOutcome.WEBHOOK_OUTCOME_UNCONFIRMED,
      'the provider reports PENDING, the notification claimed APPROVED; recorded a payment with no charge as PENDING',
    ]);
    expect(await read(contradicted.subjectId)).toMatchObject({
      status: TransactionStatus.TRANSACTION_STATUS_PENDING,
      origin: TransactionOrigin.TRANSACTION_ORIGIN_WEBHOOK,
    });
  });

  it("unsigned, the provider's amount is recorded where the notification claims another; an amount that is not whole cents records nothing", async () => {
    provider.ledger.set('static-6', { paymentMethod: 'PIX', transactionId: 'static-6', status: 'APPROVED', amount: 100 });
    // The read contradicted the notification: nothing of the payment it claimed is kept either.
    await post(unsignedAccount, JSON.stringify({ ...JSON.parse(staticQrPaid('static-6', '1000.00')), endToEndId: 'E1', payerName: 'Forjado' }), false);
    await post(signedAccount, staticQrPaid('static-7', '-19.90'));
    const corrected = await eventually(async () =>
      (await notificationsOf(unsignedAccount.id)).find((n: any) => n.result?.transactionId === 'static-6' && n.subjectId),
    );
    expect([corrected.outcome, corrected.outcomeReason]).toEqual([
      WebhookOutcome.WEBHOOK_OUTCOME_UNCONFIRMED,
      'the provider reports 100 cents, the notification claimed 100000 cents; recorded a payment with no charge as APPROVED',
    ]);
    expect(await read(corrected.subjectId)).toMatchObject({ amount: 100, pixEndToEndId: '', pixPayer: undefined });
    const refused = await eventually(async () =>
      (await notificationsOf(signedAccount.id)).find(
        (n: any) => n.result?.transactionId === 'static-7' && n.outcome !== WebhookOutcome.WEBHOOK_OUTCOME_RECEIVED,
      ),
    );
    expect([refused.outcome, refused.outcomeReason]).toEqual([
      WebhookOutcome.WEBHOOK_OUTCOME_MISMATCH,
      'a payment with no charge whose amount is not a whole number of cents (-1990): nothing recorded',
    ]);
    expect(await rowsFor(signedAccount.id, 'static-7')).toBe(0);
  });

  it('unsigned, at a provider the gateway cannot ask, records nothing', async () => {
    await post(noLookupAccount, staticQrPaid('static-5'), false);
    const [notification] = await processed(noLookupAccount.id, 1);
    expect([notification.outcome, notification.outcomeReason, notification.subjectId]).toEqual([
      WebhookOutcome.WEBHOOK_OUTCOME_UNCONFIRMED,
      'unsigned APPROVED cannot be confirmed: STATICQR_NOLOOKUP offers no transaction lookup; nothing recorded',
      '',
    ]);
    expect(await rowsFor(noLookupAccount.id, 'static-5')).toBe(0);
  });
});
