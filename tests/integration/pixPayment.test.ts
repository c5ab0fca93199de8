import { afterAll, beforeAll, expect, it } from '@jest/globals';
import pg from 'pg';
import { CreateTransactionRequest, GetTransactionRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { SimulatePaymentRequest } from '../../gen/ts-proto/gateway/v1/sandbox_service.js';
import { PaymentMethod, TransactionStatus, type Transaction } from '../../gen/ts-proto/gateway/v1/types.js';
import { connectDriver, type Driver } from '../support/clients.js';
import { startTestStack, TEST_TOKEN, type TestStack } from '../support/gateway.js';

/**
 * Issue 33 §1, "PIX end-to-end id and payer": a SANDBOX PIX charge paid answers, over gRPC and Connect, the Banco
 * Central's end-to-end id of the payment and its payer, as the sandbox PSP's signed notification stated them; a
 * later answer completes what is missing and never replaces what is known.
 */

let stack: TestStack;
let connect: Driver;
let db: pg.Client;
let accountId: string;

beforeAll(async () => {
  stack = await startTestStack();
  connect = connectDriver(stack.gateway.httpUrl!, TEST_TOKEN);
  db = new pg.Client({ connectionString: stack.database.url });
  await db.connect();
  const { providerAccount } = await stack.client.call('accounts', 'createProviderAccount', {
    provider: 'SANDBOX',
    name: 'pix payer',
    publicKey: 'pk',
    secretKey: 'sk-pix-payer',
    webhookSecret: 'whsec-pix-payer',
  });
  accountId = providerAccount.id;
});
afterAll(async () => {
  await db?.end();
  connect?.close();
  await stack?.close();
});

const CUSTOMER = { name: 'João da Silva', email: 'joao@example.com', document: '529.982.247-25', phone: '11987654321' };
/** "E", the payer's bank's ISPB, yyyyMMddHHmm and 11 alphanumerics (the sandbox's bank is 99999999). */
const END_TO_END_ID = /^E99999999(\d{12})[a-zA-Z0-9]{11}$/;

async function pixCharge(): Promise<Transaction> {
  const { transaction } = await stack.client.call(
    'gateway',
    'createTransaction',
    CreateTransactionRequest.fromPartial({
      providerAccountId: accountId,
      transaction: { amount: 4590, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX, customer: CUSTOMER },
    }),
  );
  return transaction;
}

const read = async (driver: Driver, id: string, refresh = false): Promise<Transaction> =>
  (await driver.call('gateway', 'getTransaction', GetTransactionRequest.fromPartial({ id, refresh, omitPixQrImage: true }))).transaction;

it('a PIX charge paid answers its end-to-end id and payer over gRPC and Connect; a pending one neither', async () => {
  const made = await pixCharge();
  for (const driver of [stack.client, connect]) expect(await read(driver, made.id)).toMatchObject({ pixEndToEndId: '', pixPayer: undefined });

  const before = new Date();
  const { transaction: paid } = await stack.client.call('sandbox', 'simulatePayment', SimulatePaymentRequest.fromPartial({ id: made.id }));
  expect(paid.status).toBe(TransactionStatus.TRANSACTION_STATUS_APPROVED);

  for (const driver of [stack.client, connect]) {
    const charge = await read(driver, made.id);
    expect(charge.pixEndToEndId).toMatch(END_TO_END_ID);
    // The minute of the payment, in UTC, as the Banco Central's format has it.
    const minute = END_TO_END_ID.exec(charge.pixEndToEndId)![1]!;
    const stamped = Date.UTC(+minute.slice(0, 4), +minute.slice(4, 6) - 1, +minute.slice(6, 8), +minute.slice(8, 10), +minute.slice(10, 12));
    expect(stamped).toBeGreaterThanOrEqual(before.getTime() - 60_000);
    expect(stamped).toBeLessThanOrEqual(Date.now());
    expect(charge.pixPayer).toEqual({ name: 'João da Silva', document: '52998224725', bankIspb: '99999999', bankName: 'Banco Sandbox' });
  }
});

it('a read completes what is missing and never replaces what is known, for a charge already paid', async () => {
  const made = await pixCharge();
  await stack.client.call('sandbox', 'simulatePayment', SimulatePaymentRequest.fromPartial({ id: made.id }));
  const paid = await read(stack.client, made.id);
  expect(paid.pixEndToEndId).toMatch(END_TO_END_ID);

  // As if the notification had stated only part of it: another end-to-end id, no payer's name nor bank.
  const other = 'E12345678202601011200abcdefghijk';
  await db.query(`update transactions set pix_end_to_end_id = $1, pix_payer_name = null, pix_payer_bank_name = null where id = $2`, [other, made.id]);
  expect(await read(stack.client, made.id)).toMatchObject({ pixEndToEndId: other, pixPayer: { name: '', bankName: '', document: '52998224725' } });

  // The provider's read states all of it: the missing facts are filled in, the known id stays, the status too.
  const refreshed = await read(connect, made.id, true);
  expect(refreshed.status).toBe(TransactionStatus.TRANSACTION_STATUS_APPROVED);
  expect(refreshed.pixEndToEndId).toBe(other);
  expect(refreshed.pixPayer).toEqual({ name: 'João da Silva', document: '52998224725', bankIspb: '99999999', bankName: 'Banco Sandbox' });
});
