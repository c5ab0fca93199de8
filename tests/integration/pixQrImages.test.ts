import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { CreateTransactionRequest, GetTransactionRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { PaymentMethod } from '../../gen/ts-proto/gateway/v1/types.js';
import { pixQrImage } from '../../server/lib/pixQrCode.js';
import { connectDriver, type Driver } from '../support/clients.js';
import { startTestStack, TEST_TOKEN, type TestStack } from '../support/gateway.js';

/**
 * Issue 31 §2, QR images off the hot path: a PIX charge's row keeps the copy-and-paste code, not the image; the image
 * is drawn from the code when an answer carries the charge (the same picture every time), and not at all for a caller
 * that asks for none (`omit_pix_qr_image`), on both transports.
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
  accountId = (await stack.client.call('accounts', 'createProviderAccount', { provider: 'SANDBOX', name: 'qr', publicKey: 'pk', secretKey: 'sk' }))
    .providerAccount.id;
}, 60_000);

afterAll(async () => {
  await db?.end();
  connect?.close();
  await stack?.close();
});

const TRANSPORTS = ['gRPC', 'Connect'] as const;
const over = (transport: (typeof TRANSPORTS)[number]): Driver => (transport === 'gRPC' ? stack.client : connect);

const pix = (omitPixQrImage: boolean) =>
  CreateTransactionRequest.fromPartial({
    providerAccountId: accountId,
    omitPixQrImage,
    transaction: { amount: 2500, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX },
  });

describe.each(TRANSPORTS)('a PIX charge over %s', (transport) => {
  it('is stored with its code and no image, and answered with the image drawn from the code', async () => {
    const { transaction } = await over(transport).call('gateway', 'createTransaction', pix(false));
    expect(transaction.pixCode).toMatch(/^000201/);
    expect(transaction.pixQrCode).toBe(pixQrImage(transaction.pixCode));
    const { rows } = await db.query<{ pix_code: string; pix_qr_code: string | null }>('select pix_code, pix_qr_code from transactions where id = $1', [
      transaction.id,
    ]);
    expect(rows).toEqual([{ pix_code: transaction.pixCode, pix_qr_code: null }]);
    const read = await over(transport).call('gateway', 'getTransaction', GetTransactionRequest.fromPartial({ id: transaction.id }));
    expect(read.transaction.pixQrCode).toBe(transaction.pixQrCode);
  });

  it('has no image in any answer for a caller that asks for none, and keeps its code', async () => {
    const { transaction } = await over(transport).call('gateway', 'createTransaction', pix(true));
    expect([transaction.pixCode.length > 0, transaction.pixQrCode]).toEqual([true, '']);
    const read = await over(transport).call('gateway', 'getTransaction', GetTransactionRequest.fromPartial({ id: transaction.id, omitPixQrImage: true }));
    expect([read.transaction.pixCode, read.transaction.pixQrCode]).toEqual([transaction.pixCode, '']);
  });
});

describe('a row stored with an image (before images stopped being stored)', () => {
  it('answers its own image', async () => {
    const { transaction } = await stack.client.call('gateway', 'createTransaction', pix(true));
    await db.query(`update transactions set pix_qr_code = 'data:image/png;base64,b2xk' where id = $1`, [transaction.id]);
    const read = await stack.client.call('gateway', 'getTransaction', GetTransactionRequest.fromPartial({ id: transaction.id }));
    expect(read.transaction.pixQrCode).toBe('data:image/png;base64,b2xk');
  });
});
