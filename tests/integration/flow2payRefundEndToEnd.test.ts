import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { CreateTransactionRequest, GetTransactionRequest, RefoundTransactionRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { PaymentMethod, TransactionStatus } from '../../gen/ts-proto/gateway/v1/types.js';
import { eventually } from '../support/eventually.js';
import { startFakeProvider, type FakeProvider } from '../support/fakeProvider.js';
import { startTestStack, type TestStack } from '../support/gateway.js';

/**
 * Issue 33 §1 through the gateway: FLOW2PAY's refund (POST /pix/v1/transferir-reverso {endToEnd, valor}, doc 3 §7)
 * names the PIX received by the end-to-end id its PixIn notification stated and the gateway stored; a charge whose
 * id was never stated still sends the charge's id, as before. Notification names as the adapter reads them
 * (`{evento, txid, endToEndId, token}`, the gateway's decision: no public source shows Flow2Pay's).
 */

const EMV = '00020126580014br.gov.bcb.pix0136flow2pay-qr-id5204000053039865406019.905802BR5907FLOW2PAY6009SAO PAULO62070503***6304ABCD';
const TOKEN = 'f2p-hook-token';
const END_TO_END_ID = 'E18236120202611291015a1b2c3d4e5f';

let stack: TestStack;
let fake: FakeProvider;
let account: { id: string; notificationUrl: string };

beforeAll(async () => {
  fake = await startFakeProvider();
  stack = await startTestStack({ env: { RECONCILE_AFTER_MS: '3600000' } });
  account = (
    await stack.client.call('accounts', 'createProviderAccount', {
      provider: 'FLOW2PAY',
      name: 'flow2pay refunds',
      publicKey: 'f2p-client',
      secretKey: 'f2p-secret',
      webhookSecret: TOKEN,
      baseUrl: fake.url,
    })
  ).providerAccount;
  fake.expect({ method: 'POST', path: '/no-auth/autenticacao/v1/api/login', times: Infinity, reply: { body: { sucesso: true, accessToken: 'f2p-token' } } });
});
afterAll(async () => {
  await stack?.close();
  await fake?.close();
});

async function paidCharge(txid: string, endToEndId?: string) {
  fake.expect({ method: 'POST', path: '/qrcode/v2/gerar', reply: { body: { sucesso: true, txId: txid, qrcode: { imagem: '', emv: EMV } } } });
  const { transaction } = await stack.client.call(
    'gateway',
    'createTransaction',
    CreateTransactionRequest.fromPartial({ providerAccountId: account.id, transaction: { amount: 1990, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX } }),
  );
  const pixIn = { evento: 'PixIn', txid, valor: 1990, token: TOKEN, ...(endToEndId ? { endToEndId } : {}) };
  const delivered = await fetch(account.notificationUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(pixIn) });
  expect(delivered.status).toBeLessThan(300);
  return eventually(
    async () => {
      const current = (await stack.client.call('gateway', 'getTransaction', GetTransactionRequest.fromPartial({ id: transaction.id }))).transaction;
      return current.status === TransactionStatus.TRANSACTION_STATUS_APPROVED && current;
    },
    15_000,
    `charge ${txid} paid`,
  );
}

const refund = (id: string, idempotencyKey: string) =>
  stack.client.call(
    'gateway',
    'refoundTransaction',
    RefoundTransactionRequest.fromPartial({ providerAccountId: account.id, id, amount: 1990, idempotencyKey }),
  );

it('refunds a PIX by the end-to-end id its PixIn stated, the one the charge answers', async () => {
  const paid = await paidCharge('f2p-tx-1', END_TO_END_ID);
  expect(paid.pixEndToEndId).toBe(END_TO_END_ID);
  const sent = fake.expect({
    method: 'POST',
    path: '/pix/v1/transferir-reverso',
    body: { endToEnd: END_TO_END_ID, valor: 1990 },
    reply: { body: { sucesso: true, idEnvio: 'dev-1' } },
  });
  const { refund: result, transaction } = await refund(paid.id, 'f2p-refund-1');
  expect(result).toMatchObject({ refundId: 'dev-1', status: true });
  expect(transaction.status).toBe(TransactionStatus.TRANSACTION_STATUS_REFUNDED);
  expect(sent.calls).toHaveLength(1);
});

it("a charge whose PixIn stated no end-to-end id is refunded by the charge's id, as before it was kept", async () => {
  const paid = await paidCharge('f2p-tx-2');
  expect(paid.pixEndToEndId).toBe('');
  const sent = fake.expect({
    method: 'POST',
    path: '/pix/v1/transferir-reverso',
    body: { endToEnd: 'f2p-tx-2', valor: 1990 },
    reply: { body: { sucesso: true } },
  });
  await refund(paid.id, 'f2p-refund-2');
  expect(sent.calls).toHaveLength(1);
  fake.assertAllDone();
});
