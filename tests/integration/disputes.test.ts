import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CreateTransactionRequest, RefoundTransactionRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { SimulatePaymentRequest } from '../../gen/ts-proto/gateway/v1/sandbox_service.js';
import { ListAuditEventsRequest } from '../../gen/ts-proto/gateway/v1/access_service.js';
import {
  CloseDisputeRequest,
  DisputeKind,
  DisputeStatus,
  ListDisputesRequest,
  OpenDisputeRequest,
  UpdateDisputeRequest,
  type Dispute,
} from '../../gen/ts-proto/gateway/v1/dispute_service.js';
import { PaymentMethod, TransactionStatus, WebhookOutcome } from '../../gen/ts-proto/gateway/v1/types.js';
import { UploadPurpose } from '../../gen/ts-proto/gateway/v1/upload_service.js';
import { connectDriver, errorDetailsOf, failureOf, type Driver } from '../support/clients.js';
import { eventually } from '../support/eventually.js';
import { startFakeProvider, type FakeProvider } from '../support/fakeProvider.js';
import { startTestStack, TEST_TOKEN, type TestStack } from '../support/gateway.js';
import { sandboxCardId } from '../support/sandboxCard.js';
import { processedNotifications } from '../support/webhookNotifications.js';
import { uploadEvidence, uploadLink } from '../support/uploads.js';

/**
 * DisputeService (issue 33 §3) over gRPC and Connect: a dispute opened by the gateway when a charge moves to
 * CHARGEBACK (a PAGUESAFE stand-in's postback, confirmed by its read), and by an operator; evidence uploaded to the
 * embedded store; the defence recorded (no provider here takes one through its API); the outcome; the audit trail.
 */
let stack: TestStack;
let connect: Driver;
let fake: FakeProvider;
let sandbox: string;
const DAY_MS = 24 * 60 * 60 * 1000;
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

beforeAll(async () => {
  stack = await startTestStack();
  fake = await startFakeProvider();
  connect = connectDriver(stack.gateway.httpUrl!, TEST_TOKEN);
  sandbox = (await stack.client.call('accounts', 'createProviderAccount', { provider: 'SANDBOX', name: 'disputes', publicKey: 'pk', secretKey: 'sk-disputes' }))
    .providerAccount.id;
});
afterAll(async () => {
  connect?.close();
  await fake?.close();
  await stack?.close();
});

async function paidCharge(paymentMethod: PaymentMethod, amount: number, account = sandbox): Promise<string> {
  const cardId = paymentMethod === PaymentMethod.PAYMENT_METHOD_CREDIT_CARD ? await sandboxCardId(stack.client, account) : undefined;
  const { transaction } = await stack.client.call(
    'gateway',
    'createTransaction',
    CreateTransactionRequest.fromPartial({
      providerAccountId: account,
      transaction: { amount, paymentMethod, cardId, customer: { name: 'Ana Souza', document: '39053344705', email: 'ana@example.com', phone: '11987654321' } },
    }),
  );
  if (transaction.status !== TransactionStatus.TRANSACTION_STATUS_APPROVED)
    await stack.client.call('sandbox', 'simulatePayment', SimulatePaymentRequest.fromPartial({ id: transaction.id }));
  return transaction.id;
}

const uploaded = (driver: Driver, fileName: string): Promise<string> => uploadEvidence(driver, fileName, PDF);

const open = (driver: Driver, request: Partial<OpenDisputeRequest>): Promise<{ dispute: Dispute }> =>
  driver.call('disputes', 'openDispute', OpenDisputeRequest.fromPartial(request));

describe('a charge moving to CHARGEBACK', () => {
  it('opens one dispute, by the gateway, with the amount at stake and the default deadline, however often the provider says so', async () => {
    const { providerAccount: account } = await stack.client.call('accounts', 'createProviderAccount', {
      provider: 'paguesafe',
      name: 'PagueSafe disputes',
      publicKey: 'pk',
      secretKey: 'sk_disputes',
      baseUrl: fake.url,
    });
    const pix = (status: string) => ({
      id: 'ps_cb1',
      status,
      amount: 2500,
      paymentMethod: 'pix',
      pix: { qrcode: '000201', expirationDate: '2030-01-02T00:00:00.000Z' },
    });
    fake.expect({ method: 'POST', path: '/transactions', reply: { status: 200, body: pix('waiting_payment') } });
    const { transaction } = await stack.client.call(
      'gateway',
      'createTransaction',
      CreateTransactionRequest.fromPartial({ providerAccountId: account.id, transaction: { amount: 2500, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX } }),
    );
    const postback = async (status: string, id: string, read = true) => {
      // Unsigned postbacks: the gateway reads the charge before moving it (a duplicate is not read again).
      if (read) fake.expect({ method: 'GET', path: '/transactions/ps_cb1', reply: { body: pix(status) } });
      const body = { id, type: 'transaction', objectId: 'ps_cb1', data: pix(status) };
      expect(
        (await fetch(account.notificationUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).status,
      ).toBe(200);
    };
    const status = async () => (await stack.client.call('gateway', 'getTransaction', { id: transaction.id })).transaction.status;
    await postback('paid', 'pb_paid');
    await eventually(async () => (await status()) === TransactionStatus.TRANSACTION_STATUS_APPROVED);
    const before = Date.now();
    await postback('chargedback', 'pb_cb1');
    await eventually(async () => (await status()) === TransactionStatus.TRANSACTION_STATUS_CHARGEBACK);
    await postback('chargedback', 'pb_cb2', false);

    const list = async () =>
      (await connect.call('disputes', 'listDisputes', ListDisputesRequest.fromPartial({ transactionId: transaction.id }))).disputes as Dispute[];
    const outcomes = (await processedNotifications(stack.client, transaction.id, 3)).map((notification) => notification.outcome);
    expect(outcomes).toEqual([WebhookOutcome.WEBHOOK_OUTCOME_APPLIED, WebhookOutcome.WEBHOOK_OUTCOME_APPLIED, WebhookOutcome.WEBHOOK_OUTCOME_DUPLICATE]);
    const disputes = await list();
    expect(disputes).toHaveLength(1);
    // A PIX payment charged back is the payer's bank contesting it: an infraction (MED).
    expect(disputes[0]).toMatchObject({
      transactionId: transaction.id,
      providerAccountId: account.id,
      provider: 'PAGUESAFE',
      kind: DisputeKind.DISPUTE_KIND_PIX_INFRACTION,
      status: DisputeStatus.DISPUTE_STATUS_OPEN,
      amount: 2500,
      openedBy: 'gateway',
      sentToProvider: false,
      providerTakesDefense: false,
    });
    expect(disputes[0].deadline!.getTime()).toBeGreaterThanOrEqual(before + 7 * DAY_MS - 1000);
    expect(disputes[0].deadline!.getTime()).toBeLessThanOrEqual(Date.now() + 7 * DAY_MS);
  });
});

describe.each([
  ['gRPC', () => stack.client],
  ['Connect', () => connect],
] as [string, () => Driver][])('over %s', (_name, driver) => {
  it('an operator opens a dispute, adds evidence, submits the defence (recorded: the provider takes none) and closes it', async () => {
    const charge = await paidCharge(PaymentMethod.PAYMENT_METHOD_CREDIT_CARD, 9900);
    const deadline = new Date(Date.now() + 3 * DAY_MS);
    const { dispute } = await open(driver(), {
      transactionId: charge,
      kind: DisputeKind.DISPUTE_KIND_CHARGEBACK,
      reasonCode: '4837',
      reason: 'Portador não reconhece a compra',
      amount: 5000,
      deadline,
    });
    expect(dispute).toMatchObject({
      status: DisputeStatus.DISPUTE_STATUS_OPEN,
      amount: 5000,
      deadline,
      reasonCode: '4837',
      openedBy: expect.any(String),
      evidence: [],
    });
    expect(await failureOf(open(driver(), { transactionId: charge, kind: DisputeKind.DISPUTE_KIND_CHARGEBACK, reason: 'again' }))).toMatchObject({
      code: 'ALREADY_EXISTS',
    });

    const noEvidence = driver().call('disputes', 'submitDisputeDefense', { disputeId: dispute.id });
    expect(await failureOf(noEvidence)).toMatchObject({ code: 'FAILED_PRECONDITION', message: expect.stringContaining('no evidence') });

    const url = await uploaded(driver(), 'nota fiscal.pdf');
    const withEvidence = (
      await driver().call('disputes', 'addDisputeEvidence', { disputeId: dispute.id, documentUrl: url, description: 'Nota fiscal e entrega' })
    ).dispute as Dispute;
    expect(withEvidence.evidence).toEqual([
      expect.objectContaining({
        documentUrl: url,
        fileName: 'nota fiscal.pdf',
        description: 'Nota fiscal e entrega',
        readUrl: expect.stringContaining('X-Amz-Signature'),
      }),
    ]);
    const read = await fetch(withEvidence.evidence[0].readUrl);
    expect(Buffer.from(await read.arrayBuffer())).toEqual(PDF);

    const { dispute: submitted } = await driver().call('disputes', 'submitDisputeDefense', { disputeId: dispute.id });
    expect(submitted).toMatchObject({ status: DisputeStatus.DISPUTE_STATUS_EVIDENCE_SUBMITTED, sentToProvider: false, providerTakesDefense: false });
    expect(submitted.submittedAt).toBeInstanceOf(Date);
    // Recorded only, nothing reached a provider: no document is marked sent, and the defence may be recorded again.
    expect(submitted.evidence[0].sentAt).toBeUndefined();
    const { dispute: recordedAgain } = await driver().call('disputes', 'submitDisputeDefense', { disputeId: dispute.id });
    expect(recordedAgain).toMatchObject({ status: DisputeStatus.DISPUTE_STATUS_EVIDENCE_SUBMITTED, sentToProvider: false });
    expect(recordedAgain.evidence[0].sentAt).toBeUndefined();

    const { dispute: closed } = await driver().call(
      'disputes',
      'closeDispute',
      CloseDisputeRequest.fromPartial({ disputeId: dispute.id, outcome: DisputeStatus.DISPUTE_STATUS_WON, note: 'Bandeira aceitou a defesa' }),
    );
    expect(closed).toMatchObject({ status: DisputeStatus.DISPUTE_STATUS_WON, outcomeNote: 'Bandeira aceitou a defesa' });
    const late = driver().call('disputes', 'addDisputeEvidence', { disputeId: dispute.id, documentUrl: url });
    expect(await failureOf(late)).toMatchObject({
      code: 'FAILED_PRECONDITION',
      message: `dispute ${dispute.id} is closed: it takes no more evidence or changes`,
    });
    const again = driver().call(
      'disputes',
      'closeDispute',
      CloseDisputeRequest.fromPartial({ disputeId: dispute.id, outcome: DisputeStatus.DISPUTE_STATUS_LOST }),
    );
    expect(await failureOf(again)).toMatchObject({ code: 'FAILED_PRECONDITION' });
    // Closed, a new dispute of the kind may be opened for the charge.
    await open(driver(), { transactionId: charge, kind: DisputeKind.DISPUTE_KIND_CHARGEBACK, reason: 'second cycle' });

    const { events } = await stack.client.call('access', 'listAuditEvents', ListAuditEventsRequest.fromPartial({ resource: dispute.id, pageSize: 50 }));
    expect(events.map((event: { action: string; outcome: string }) => `${event.action} ${event.outcome}`).sort()).toEqual([
      'gateway.v1.DisputeService/AddDisputeEvidence FAILED_PRECONDITION',
      'gateway.v1.DisputeService/AddDisputeEvidence OK',
      'gateway.v1.DisputeService/CloseDispute FAILED_PRECONDITION',
      'gateway.v1.DisputeService/CloseDispute OK',
      'gateway.v1.DisputeService/OpenDispute OK',
      'gateway.v1.DisputeService/SubmitDisputeDefense FAILED_PRECONDITION',
      'gateway.v1.DisputeService/SubmitDisputeDefense OK',
      'gateway.v1.DisputeService/SubmitDisputeDefense OK',
    ]);
  });

  it('refuses bad input naming the field, unknown ids, a kind the charge cannot have, a charge not paid', async () => {
    const pix = await paidCharge(PaymentMethod.PAYMENT_METHOD_PIX, 3000);
    const refusal = async (request: Partial<OpenDisputeRequest>) => {
      const call = open(driver(), { transactionId: pix, kind: DisputeKind.DISPUTE_KIND_PIX_INFRACTION, reason: 'Golpe', ...request });
      const { fields, fieldReasons } = await errorDetailsOf(call);
      return { ...(await failureOf(call)), fields, fieldReasons };
    };
    expect(await refusal({ reason: ' ' })).toMatchObject({ code: 'INVALID_ARGUMENT', fields: ['reason'] });
    expect(await refusal({ kind: DisputeKind.DISPUTE_KIND_UNSPECIFIED })).toMatchObject({ code: 'INVALID_ARGUMENT', fields: ['kind'] });
    expect(await refusal({ kind: DisputeKind.DISPUTE_KIND_CHARGEBACK })).toMatchObject({ code: 'INVALID_ARGUMENT', fields: ['kind'] });
    expect(await refusal({ amount: 3001 })).toMatchObject({ code: 'INVALID_ARGUMENT', fields: ['amount'], fieldReasons: ['AMOUNT_ABOVE_CHARGE'] });
    expect(await refusal({ deadline: new Date('2020-01-01T00:00:00Z') })).toMatchObject({
      code: 'INVALID_ARGUMENT',
      fields: ['deadline'],
      fieldReasons: ['DEADLINE_BEFORE_CHARGE'],
    });
    expect(await refusal({ transactionId: '00000000-0000-4000-8000-000000000000' })).toMatchObject({ code: 'NOT_FOUND' });
    const { transaction: pending } = await stack.client.call(
      'gateway',
      'createTransaction',
      CreateTransactionRequest.fromPartial({ providerAccountId: sandbox, transaction: { amount: 100, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX } }),
    );
    expect(await refusal({ transactionId: pending.id })).toMatchObject({ code: 'FAILED_PRECONDITION' });
    expect(await failureOf(driver().call('disputes', 'getDispute', { id: '00000000-0000-4000-8000-000000000000' }))).toMatchObject({ code: 'NOT_FOUND' });

    // MED: amount 0 is the whole charge, the deadline 7 days.
    const { dispute } = await open(driver(), { transactionId: pix, kind: DisputeKind.DISPUTE_KIND_PIX_INFRACTION, reason: 'Golpe' });
    expect(dispute).toMatchObject({ amount: 3000, kind: DisputeKind.DISPUTE_KIND_PIX_INFRACTION });
    expect(dispute.deadline!.getTime()).toBeGreaterThan(Date.now() + 7 * DAY_MS - 60_000);
    const foreign = driver().call('disputes', 'addDisputeEvidence', { disputeId: dispute.id, documentUrl: 'https://example.com/evidence.pdf' });
    expect((await errorDetailsOf(foreign)).fields).toEqual(['document_url']);
  });
});

describe('evidence, private whatever UPLOADS_PRIVATE says (this stack keeps uploads public-read)', () => {
  it('is stored under its own prefix, unreadable at its plain address, read through GetDispute’s link; a public upload is refused as evidence', async () => {
    const charge = await paidCharge(PaymentMethod.PAYMENT_METHOD_PIX, 4200);
    const { dispute } = await open(stack.client, { transactionId: charge, kind: DisputeKind.DISPUTE_KIND_PIX_INFRACTION, reason: 'Golpe' });
    const plain = async (url: string, method = 'GET') => (await fetch(url, { method })).status;

    // A receiver's document on this stack is public-read: readable by anyone, so never evidence.
    const receiverDocument = await uploadLink(stack.client, 'contrato.pdf', PDF);
    expect(receiverDocument.publicRead).toBe(true);
    expect(await plain(receiverDocument.publicUrl)).toBe(200);
    const publicOne = stack.client.call('disputes', 'addDisputeEvidence', { disputeId: dispute.id, documentUrl: receiverDocument.publicUrl });
    expect(await failureOf(publicOne)).toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect((await errorDetailsOf(publicOne)).fields).toEqual(['document_url']);

    const evidence = await uploadLink(stack.client, 'comprovante.pdf', PDF, { purpose: UploadPurpose.UPLOAD_PURPOSE_DISPUTE_EVIDENCE });
    expect(evidence).toMatchObject({ publicRead: false, objectKey: expect.stringMatching(/^uploads\/dispute-evidence\/[0-9a-f-]{36}\/comprovante\.pdf$/) });
    expect(evidence.headers).not.toHaveProperty('x-amz-acl');
    expect(evidence.headers['cache-control']).toBe('private, no-store');
    expect([await plain(evidence.publicUrl), await plain(evidence.publicUrl, 'HEAD')]).toEqual([403, 403]);

    await stack.client.call('disputes', 'addDisputeEvidence', { disputeId: dispute.id, documentUrl: evidence.publicUrl, description: 'Comprovante' });
    const { dispute: read } = await connect.call('disputes', 'getDispute', { id: dispute.id });
    expect(read.evidence).toEqual([expect.objectContaining({ documentUrl: evidence.publicUrl, fileName: 'comprovante.pdf' })]);
    const link = await fetch(read.evidence[0].readUrl);
    expect(link.status).toBe(200);
    expect(Buffer.from(await link.arrayBuffer())).toEqual(PDF);
    // Added, the document is as private as before: the link is the only way in.
    expect(await plain(evidence.publicUrl)).toBe(403);
  });
});

describe('the list', () => {
  it('puts the nearest deadline first and filters by status, kind and account', async () => {
    const soon = await paidCharge(PaymentMethod.PAYMENT_METHOD_PIX, 1000);
    const later = await paidCharge(PaymentMethod.PAYMENT_METHOD_PIX, 1000);
    const { dispute: laterDispute } = await open(stack.client, {
      transactionId: later,
      kind: DisputeKind.DISPUTE_KIND_PIX_INFRACTION,
      reason: 'later',
      deadline: new Date(Date.now() + 2 * DAY_MS),
    });
    const { dispute: soonDispute } = await open(stack.client, {
      transactionId: soon,
      kind: DisputeKind.DISPUTE_KIND_PIX_INFRACTION,
      reason: 'soon',
      deadline: new Date(Date.now() + DAY_MS),
    });
    const ids = async (request: Partial<ListDisputesRequest>) =>
      ((await connect.call('disputes', 'listDisputes', ListDisputesRequest.fromPartial(request))).disputes as Dispute[]).map((dispute) => dispute.id);
    const open_ = await ids({ providerAccountId: sandbox, kind: DisputeKind.DISPUTE_KIND_PIX_INFRACTION, status: DisputeStatus.DISPUTE_STATUS_OPEN });
    expect(open_.indexOf(soonDispute.id)).toBeLessThan(open_.indexOf(laterDispute.id));
    expect(open_.indexOf(soonDispute.id)).toBeGreaterThanOrEqual(0);
    const all = await ids({});
    const deadlines = ((await connect.call('disputes', 'listDisputes', ListDisputesRequest.fromPartial({}))).disputes as Dispute[]).map((dispute) =>
      dispute.deadline!.getTime(),
    );
    expect(deadlines).toEqual([...deadlines].sort((a, b) => a - b));
    expect(all).toContain(soonDispute.id);
    expect(await ids({ kind: DisputeKind.DISPUTE_KIND_CHARGEBACK })).not.toContain(soonDispute.id);
    expect(await ids({ status: DisputeStatus.DISPUTE_STATUS_WON })).not.toContain(soonDispute.id);
  });
});

describe.each([
  ['gRPC', () => stack.client],
  ['Connect', () => connect],
] as [string, () => Driver][])('the list over %s, a page at a time', (name, driver) => {
  it('answers every dispute once, deadline first, ties in a fixed order, whatever opens meanwhile', async () => {
    const { providerAccount: account } = await stack.client.call('accounts', 'createProviderAccount', {
      provider: 'SANDBOX',
      name: `disputes paged ${name}`,
      publicKey: 'pk',
      secretKey: `sk-paged-${name}`,
    });
    const base = Date.now() + 10 * DAY_MS;
    // Three share one deadline: only the id orders them, and a page boundary falls among them.
    const deadlines = [base + 3 * DAY_MS, base, base, base, base + DAY_MS, base + 2 * DAY_MS, base + 4 * DAY_MS];
    const opened: string[] = [];
    for (const [index, deadline] of deadlines.entries()) {
      const charge = await paidCharge(PaymentMethod.PAYMENT_METHOD_PIX, 1000, account.id);
      const { dispute } = await open(stack.client, {
        transactionId: charge,
        kind: DisputeKind.DISPUTE_KIND_PIX_INFRACTION,
        reason: `paged ${index}`,
        deadline: new Date(deadline),
      });
      opened.push(dispute.id);
    }
    const page = (pageToken = '') =>
      driver().call('disputes', 'listDisputes', ListDisputesRequest.fromPartial({ providerAccountId: account.id, pageSize: 2, pageToken })) as Promise<{
        disputes: Dispute[];
        nextPageToken: string;
      }>;
    const seen: Dispute[] = [];
    let token = '';
    let pages = 0;
    do {
      const answer = await page(token);
      expect(answer.disputes.length).toBeLessThanOrEqual(2);
      seen.push(...answer.disputes);
      token = answer.nextPageToken;
      pages += 1;
      // Opened between two pages, ahead of every deadline read so far: it shifts none of the pages after.
      if (pages === 1) {
        const charge = await paidCharge(PaymentMethod.PAYMENT_METHOD_PIX, 1000, account.id);
        await open(stack.client, {
          transactionId: charge,
          kind: DisputeKind.DISPUTE_KIND_PIX_INFRACTION,
          reason: 'meanwhile',
          deadline: new Date(base - DAY_MS),
        });
      }
    } while (token && pages < 10);
    expect(pages).toBe(4);
    const ids = seen.map((dispute) => dispute.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual([...opened].sort());
    const order = (d: Dispute) => [d.deadline!.getTime(), d.id] as const;
    const sorted = [...seen].sort((a, b) => order(a)[0] - order(b)[0] || (order(a)[1] < order(b)[1] ? -1 : 1));
    expect(ids).toEqual(sorted.map((dispute) => dispute.id));

    const whole = (await driver().call('disputes', 'listDisputes', ListDisputesRequest.fromPartial({ providerAccountId: account.id }))) as {
      disputes: Dispute[];
      nextPageToken: string;
    };
    expect(whole.nextPageToken).toBe('');
    expect(whole.disputes.map((dispute) => dispute.id).slice(1)).toEqual(ids);

    const refused = driver().call('disputes', 'listDisputes', ListDisputesRequest.fromPartial({ pageToken: 'not-a-token' }));
    expect(await errorDetailsOf(refused)).toMatchObject({ fields: ['page_token'] });
  });
});

describe.each([
  ['gRPC', () => stack.client],
  ['Connect', () => connect],
] as [string, () => Driver][])('an operator correcting a dispute over %s', (name, driver) => {
  const update = (request: Partial<UpdateDisputeRequest>) =>
    driver().call('disputes', 'updateDispute', UpdateDisputeRequest.fromPartial(request)) as Promise<{ dispute: Dispute; deadlinePassed: boolean }>;
  const refusal = async (request: Partial<UpdateDisputeRequest>) => {
    const call = update(request);
    return { ...(await failureOf(call)), ...(await errorDetailsOf(call)) };
  };

  it('changes only the fields given, within the charge left after refunds, audited with before and after', async () => {
    const charge = await paidCharge(PaymentMethod.PAYMENT_METHOD_CREDIT_CARD, 8000);
    await stack.client.call('gateway', 'refoundTransaction', RefoundTransactionRequest.fromPartial({ providerAccountId: sandbox, id: charge, amount: 3000 }));
    const deadline = new Date(Date.now() + 5 * DAY_MS);
    const { dispute } = await open(driver(), {
      transactionId: charge,
      kind: DisputeKind.DISPUTE_KIND_CHARGEBACK,
      reason: 'chargeback',
      amount: 5000,
      deadline,
    });

    const { dispute: reasoned, deadlinePassed } = await update({ disputeId: dispute.id, reason: 'Fraude: cartão clonado', note: 'Painel do adquirente' });
    expect(deadlinePassed).toBe(false);
    expect(reasoned).toMatchObject({
      reason: 'Fraude: cartão clonado',
      amount: 5000,
      deadline,
      providerDisputeId: '',
      status: DisputeStatus.DISPUTE_STATUS_OPEN,
    });
    expect(reasoned.updatedAt!.getTime()).toBeGreaterThan(dispute.updatedAt!.getTime());

    // 8000 charged, 3000 refunded: at most 5000 at stake.
    expect(await refusal({ disputeId: dispute.id, amount: 5001, note: 'n' })).toMatchObject({ code: 'INVALID_ARGUMENT', fields: ['amount'] });
    expect(await refusal({ disputeId: dispute.id, amount: 0, note: 'n' })).toMatchObject({ code: 'INVALID_ARGUMENT', fields: ['amount'] });
    expect(await refusal({ disputeId: dispute.id, reason: '  ', note: 'n' })).toMatchObject({ code: 'INVALID_ARGUMENT', fields: ['reason'] });
    expect(await refusal({ disputeId: dispute.id, reason: 'x'.repeat(1001), note: 'n' })).toMatchObject({ code: 'INVALID_ARGUMENT', fields: ['reason'] });
    expect(await refusal({ disputeId: dispute.id, amount: 100 })).toMatchObject({ code: 'INVALID_ARGUMENT', fields: ['note'] });
    expect(await refusal({ disputeId: dispute.id, note: 'nada' })).toMatchObject({ code: 'INVALID_ARGUMENT', reason: 'NOTHING_TO_CHANGE', fields: [] });
    expect(await refusal({ disputeId: dispute.id, deadline: new Date('2020-01-01T00:00:00Z'), note: 'n' })).toMatchObject({
      code: 'INVALID_ARGUMENT',
      fields: ['deadline'],
    });
    expect(await refusal({ disputeId: '00000000-0000-4000-8000-000000000000', amount: 100, note: 'n' })).toMatchObject({ code: 'NOT_FOUND' });

    // A deadline already past (yet after the charge) is taken, and said to be.
    const { transaction } = await stack.client.call('gateway', 'getTransaction', { id: charge });
    const past = new Date(transaction.createdAt.getTime() + 1);
    const corrected = await update({ disputeId: dispute.id, deadline: past, amount: 4200, providerDisputeId: `cb-${name}`, note: 'Carta da bandeira' });
    expect(corrected.deadlinePassed).toBe(true);
    expect(corrected.dispute).toMatchObject({ reason: 'Fraude: cartão clonado', amount: 4200, deadline: past, providerDisputeId: `cb-${name}` });
    expect(await refusal({ disputeId: dispute.id, providerDisputeId: 'another', note: 'n' })).toMatchObject({
      code: 'FAILED_PRECONDITION',
      reason: 'PROVIDER_DISPUTE_ID_SET',
    });

    await driver().call('disputes', 'closeDispute', CloseDisputeRequest.fromPartial({ disputeId: dispute.id, outcome: DisputeStatus.DISPUTE_STATUS_LOST }));
    expect(await refusal({ disputeId: dispute.id, reason: 'late', note: 'n' })).toMatchObject({ code: 'FAILED_PRECONDITION', reason: 'DISPUTE_CLOSED' });

    const { events } = await stack.client.call(
      'access',
      'listAuditEvents',
      ListAuditEventsRequest.fromPartial({ resource: dispute.id, action: 'gateway.v1.DisputeService/UpdateDispute', pageSize: 50 }),
    );
    const ok = (events as { outcome: string; detail: string }[]).filter((event) => event.outcome === 'OK').map((event) => JSON.parse(event.detail));
    expect(ok).toHaveLength(2);
    expect(ok).toContainEqual({ note: 'Painel do adquirente', reason: { before: 'chargeback', after: 'Fraude: cartão clonado' } });
    const [second] = ok.filter((detail) => detail.note === 'Carta da bandeira');
    expect(second).toMatchObject({ amount: { before: 5000, after: 4200 }, provider_dispute_id: { before: '', after: `cb-${name}` } });
    expect(new Date(second.deadline.before).getTime()).toBe(deadline.getTime());
    expect(new Date(second.deadline.after).getTime()).toBe(past.getTime());
    expect(Object.keys(second).sort()).toEqual(['amount', 'deadline', 'note', 'provider_dispute_id']);
    // Refusals are audited too (the over-long reason, refused by the contract's limits before the request is read, names no dispute).
    expect(new Set(events.map((event: { outcome: string }) => event.outcome))).toEqual(new Set(['OK', 'INVALID_ARGUMENT', 'FAILED_PRECONDITION']));
  });

  it('a corrected deadline moves the dispute in the deadline-first list', async () => {
    const { providerAccount: account } = await stack.client.call('accounts', 'createProviderAccount', {
      provider: 'SANDBOX',
      name: `disputes corrected ${name}`,
      publicKey: 'pk',
      secretKey: `sk-corrected-${name}`,
    });
    const opened: string[] = [];
    for (const days of [2, 4]) {
      const charge = await paidCharge(PaymentMethod.PAYMENT_METHOD_PIX, 1000, account.id);
      const { dispute } = await open(stack.client, {
        transactionId: charge,
        kind: DisputeKind.DISPUTE_KIND_PIX_INFRACTION,
        reason: 'MED',
        deadline: new Date(Date.now() + days * DAY_MS),
      });
      opened.push(dispute.id);
    }
    const order = async () =>
      ((await driver().call('disputes', 'listDisputes', ListDisputesRequest.fromPartial({ providerAccountId: account.id }))).disputes as Dispute[]).map(
        (dispute) => dispute.id,
      );
    expect(await order()).toEqual(opened);
    await update({ disputeId: opened[1], deadline: new Date(Date.now() + DAY_MS), note: 'Prazo do relato no DICT' });
    expect(await order()).toEqual([opened[1], opened[0]]);
  });
});
