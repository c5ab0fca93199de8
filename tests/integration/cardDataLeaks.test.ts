import { afterAll, beforeAll, expect, it } from '@jest/globals';
import pg from 'pg';
import { CreateCardTokenRequest, CreateTransactionRequest, ListTransactionsRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { PaymentMethod } from '../../gen/ts-proto/gateway/v1/types.js';
import { failureOf } from '../support/clients.js';
import { startFakeProvider, type FakeProvider } from '../support/fakeProvider.js';
import { startTestStack, type TestStack } from '../support/gateway.js';
import { capturedLogger } from '../support/logCapture.js';
import { captureModuleLog, expectNoCardData as expectCardDataAbsent } from '../support/cardDataSearch.js';

/**
 * Card number and CVV are never stored, logged, answered or counted: after card charges with the gateway's card token
 * through gRPC (approved, refused by the provider, retried, reused), a text dump of every table, the debug log, every
 * answer and the metrics hold neither. The provider is sent the card (that is its job); nothing else is.
 */

const PAN = '5555555555554444';
const GROUPED_PAN = '5555 5555 5555 4444';
/** Four digits, so that it is not mistaken for a short number of something else (a duration, an amount). */
const CVV = '9173';
const CARD = { cardNumber: GROUPED_PAN, holderName: 'Bruno Lima', holderDocument: '12345678909', expMonth: '12', expYear: '31', cvv: CVV };

const log = capturedLogger('debug');
const moduleLog = captureModuleLog();
let stack: TestStack;
let fake: FakeProvider;
const answers: unknown[] = [];

beforeAll(async () => {
  stack = await startTestStack({ logger: log.logger });
  fake = await startFakeProvider();
});

afterAll(async () => {
  await fake?.close();
  await stack?.close();
  moduleLog.restore();
});

const expectNoCardData = (where: string, text: string) => expectCardDataAbsent(where, text, { pan: PAN, cvv: CVV });

async function tableDump(): Promise<string> {
  const db = new pg.Client({ connectionString: stack.database.url });
  await db.connect();
  try {
    const { rows: tables } = await db.query<{ name: string }>(
      `select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`,
    );
    expect(tables.map((table) => table.name)).toContain('card_token_uses');
    const parts: string[] = [];
    for (const { name } of tables) {
      const { rows } = await db.query<{ row: string }>(`select t::text as row from "${name.replace(/"/g, '""')}" t`);
      parts.push(`-- ${name}\n${rows.map((row) => row.row).join('\n')}`);
    }
    return parts.join('\n');
  } finally {
    await db.end();
  }
}

it('after card charges through gRPC, no table, log line, answer or metric holds the card number or the CVV', async () => {
  const call = async (method: string, request: unknown) => {
    const answer = await stack.client.call('gateway', method, request);
    answers.push(answer);
    return answer;
  };
  const { providerAccount } = await stack.client.call('accounts', 'createProviderAccount', {
    provider: 'PIXIUM',
    name: 'Pixium card leaks',
    publicKey: 'pk_leaks',
    secretKey: 'sk_leaks',
    baseUrl: fake.url,
  });
  const token = async () =>
    (await call('createCardToken', CreateCardTokenRequest.fromPartial({ providerAccountId: providerAccount.id, card: CARD }))).cardToken;
  const charge = (cardId: string, idempotencyKey: string) =>
    CreateTransactionRequest.fromPartial({
      providerAccountId: providerAccount.id,
      idempotencyKey,
      transaction: {
        amount: 2500,
        paymentMethod: PaymentMethod.PAYMENT_METHOD_CREDIT_CARD,
        customer: { name: 'Bruno Lima', document: '12345678909', email: 'bruno@example.com', phone: '11987654321' },
        cardId,
        webhookUrl: `${fake.url}/merchant-hook`,
      },
    });
  const providerCharge = (id: string, status: string) =>
    fake.expect({
      method: 'POST',
      path: '/transactions',
      body: (body) => (body as { card?: { number?: string; cvv?: string } }).card?.number === PAN && (body as { card: { cvv: string } }).card.cvv === CVV,
      reply: { status: 200, body: { id, status, amount: 2500, paymentMethod: 'credit_card' } },
    });

  for (let index = 0; index < 5; index += 1) {
    providerCharge(`px_leak_${index}`, index === 3 ? 'refused' : 'paid');
    const cardToken = await token();
    await call('createTransaction', charge(cardToken, `leak-${index}`));
    // A retry of the same charge, and another charge with the same token (refused).
    await call('createTransaction', charge(cardToken, `leak-${index}`));
    answers.push(await failureOf(stack.client.call('gateway', 'createTransaction', charge(cardToken, `leak-${index}-again`))));
  }
  // A charge the provider refuses with an error answer.
  fake.expect({ method: 'POST', path: '/transactions', reply: { status: 422, body: { message: 'Transação recusada pelo emissor' } } });
  answers.push(await failureOf(stack.client.call('gateway', 'createTransaction', charge(await token(), 'leak-refused'))));
  answers.push(await stack.client.call('gateway', 'listTransactions', ListTransactionsRequest.fromPartial({ providerAccountId: providerAccount.id })));

  // The provider was sent the card: the search below would find it, were it kept anywhere.
  expect(fake.received.filter((request) => request.path === '/transactions')).toHaveLength(6);
  expect(fake.received.some((request) => request.rawBody.includes(PAN) && request.rawBody.includes(CVV))).toBe(true);

  expectNoCardData('answers', JSON.stringify(answers));
  // The debug log has the provider exchanges (redacted) and every call.
  const lines = [...log.lines, ...moduleLog.lines];
  expect(lines.some((line) => line.includes('"provider request"') && line.includes('/transactions'))).toBe(true);
  expectNoCardData('log', lines.join('\n'));
  const dump = await tableDump();
  // The dump is of what the charges wrote: their provider ids are in it.
  expect(dump).toContain('px_leak_4');
  expectNoCardData('database', dump);
  if (stack.gateway.metricsUrl) expectNoCardData('metrics', await (await fetch(`${stack.gateway.metricsUrl}/metrics`)).text());
  // The token's use is kept by hash only.
  expect(dump).toMatch(/card_token_uses\n\([0-9a-f]{64},/);
});
