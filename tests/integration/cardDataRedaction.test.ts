import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { CreateTransactionRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { PaymentMethod } from '../../gen/ts-proto/gateway/v1/types.js';
import { GatewayError } from '../../server/lib/errors.js';
import type { AdapterContext, NotificationVerdict } from '../../server/providers/adapter.js';
import { SandboxAdapter } from '../../server/providers/sandbox/adapter.js';
import type { TransactionInput, TransactionResult, WebhookResult } from '../../server/domain/types.js';
import { FlowMismatchesRepository } from '../../server/db/flowMismatchesRepository.js';
import { connectDriver, failureOf, type Driver } from '../support/clients.js';
import { eventually } from '../support/eventually.js';
import { startFakeProvider, type FakeProvider } from '../support/fakeProvider.js';
import { startTestStack, TEST_TOKEN, type TestStack } from '../support/gateway.js';
import { capturedLogger } from '../support/logCapture.js';

/**
 * Issue 28 §4: a provider's refusal text that echoes the card number and the CVV next to its word never reaches the
 * caller's answer (gRPC and Connect), the log, or any table — the append-only audit trail above all, which can never
 * be cleaned afterwards.
 */
const PAN = '4111111111111111';
const CVV = '9731';
const REFUSAL = `Cartão 4111 1111 1111 1111 recusado: CVV ${CVV} inválido (card.cvv=${CVV}, pan ${PAN})`;
const SHOWN = 'Erro ao criar transação: Cartão [redacted] recusado: CVV [redacted] inválido (card.cvv=[redacted], pan [redacted])';

/**
 * An adapter that quotes its provider's refusal verbatim instead of going through the common reader (providerError),
 * as a bespoke adapter may: what the gateway answers, logs and stores must be clean all the same.
 */
class VerbatimSandbox extends SandboxAdapter {
  constructor() {
    super('http://127.0.0.1:1');
    Object.assign(this.identity, { id: 'VERBATIM_SANDBOX' });
  }

  override async createTransaction(_ctx: AdapterContext, input: TransactionInput): Promise<TransactionResult> {
    const unknown = input.idempotencyKey?.startsWith('unknown');
    throw new GatewayError(unknown ? 'UNAVAILABLE' : 'INVALID_ARGUMENT', `Erro ao criar transação: ${REFUSAL}`, { outcome: unknown ? 'unknown' : 'failed' });
  }

  override verifyNotification(): NotificationVerdict {
    return 'unsigned';
  }

  /** Confirming the notification with the provider failed, and the adapter quotes the provider's answer. */
  override async processWebhook(): Promise<WebhookResult | undefined> {
    throw new GatewayError('INVALID_ARGUMENT', `Erro ao consultar transação: ${REFUSAL}`, { outcome: 'failed' });
  }
}

const log = capturedLogger('debug');

/** SANDBOX's own adapter, logging into the test's log (the catalogue's adapters log into the process's), so its provider exchanges can be read. */
class LoggedSandbox extends SandboxAdapter {
  constructor() {
    super('http://127.0.0.1:1', { logger: log.logger });
    Object.assign(this.identity, { id: 'LOGGED_SANDBOX' });
  }
}
let stack: TestStack;
let fake: FakeProvider;
let connect: Driver;
let db: pg.Client;
let sandboxAccount: string;
let verbatimAccount: { id: string; notificationUrl: string };

beforeAll(async () => {
  stack = await startTestStack({
    logger: log.logger,
    // No automatic check of an unknown outcome during the test: the fake answers only what each test declares.
    env: { UNKNOWN_CHECK_SCHEDULE_MS: '3600000', RECONCILE_AFTER_MS: '3600000' },
    extraProviders: [new LoggedSandbox(), new VerbatimSandbox()],
  });
  fake = await startFakeProvider();
  connect = connectDriver(stack.gateway.httpUrl!, TEST_TOKEN);
  db = new pg.Client({ connectionString: stack.database.url });
  await db.connect();
  const account = async (provider: string) =>
    (await stack.client.call('accounts', 'createProviderAccount', { provider, name: provider, publicKey: 'pk', secretKey: 'sk', baseUrl: fake.url }))
      .providerAccount;
  sandboxAccount = (await account('LOGGED_SANDBOX')).id;
  verbatimAccount = await account('VERBATIM_SANDBOX');
});

afterAll(async () => {
  connect?.close();
  await db?.end();
  await fake?.close();
  await stack?.close();
});

const cardCharge = (driver: Driver, providerAccountId: string, idempotencyKey: string) =>
  failureOf(
    driver.call(
      'gateway',
      'createTransaction',
      CreateTransactionRequest.fromPartial({
        providerAccountId,
        idempotencyKey,
        transaction: { amount: 1990, paymentMethod: PaymentMethod.PAYMENT_METHOD_CREDIT_CARD, cardId: 'card_redaction', installments: 1 },
      }),
    ),
  );

/** Whether a text holds the card number (plain or grouped) or the CVV's digits. */
function leaks(text: string): string[] {
  // Ids and hashes are hex: a run of four digits may occur in one by chance, and says nothing of the CVV.
  const withoutHex = text.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{16,}/gi, '');
  // Nor does one inside a longer run of digits (a log line's epoch milliseconds, a port): the CVV leaks as a number of its own.
  return [PAN, '4111 1111', CVV].filter((secret) => new RegExp(`(?<!\\d)${secret}(?!\\d)`).test(withoutHex));
}

/** Every row of every table of the gateway's database, as text: what a dump would hold. */
async function databaseDump(): Promise<string> {
  const { rows: tables } = await db.query<{ name: string }>(
    `select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`,
  );
  const parts: string[] = [];
  for (const { name } of tables) {
    const { rows } = await db.query<{ row: string }>(`select t::text as row from "${name}" t`);
    parts.push(`${name}: ${rows.map((r) => r.row).join('\n')}`);
  }
  return parts.join('\n');
}

describe('a card refusal that echoes the card number and the CVV next to its word', () => {
  it('is answered without them over gRPC and Connect, through the common path (the fake provider answers 402)', async () => {
    fake.expect({ method: 'POST', path: '/v1/charges', times: 2, reply: { status: 402, body: { message: REFUSAL } } });
    for (const [driver, key] of [
      [stack.client, 'refused-grpc'],
      [connect, 'refused-connect'],
    ] as const) {
      const failure = await cardCharge(driver, sandboxAccount, key);
      expect(failure).toEqual({ code: 'INVALID_ARGUMENT', message: SHOWN });
    }
    fake.assertAllDone();
  });

  it('an outcome left unknown (503) keeps the text for operators without them', async () => {
    fake.expect({ method: 'POST', path: '/v1/charges', reply: { status: 503, body: { message: REFUSAL } } });
    const failure = await cardCharge(stack.client, sandboxAccount, 'unknown-common');
    expect(failure).toEqual({ code: 'UNAVAILABLE', message: SHOWN });
    const { requests } = await stack.client.call('gateway', 'listUnconfirmedRequests', { providerAccountId: sandboxAccount });
    expect(requests).toEqual([expect.objectContaining({ idempotencyKey: 'unknown-common', failure: expect.stringContaining('CVV [redacted] inválido') })]);
    fake.assertAllDone();
  });

  it('is answered and stored without them when an adapter quotes its provider verbatim', async () => {
    for (const [driver, key] of [
      [stack.client, 'verbatim-grpc'],
      [connect, 'verbatim-connect'],
    ] as const) {
      const failure = await cardCharge(driver, verbatimAccount.id, key);
      expect(failure).toEqual({ code: 'INVALID_ARGUMENT', message: SHOWN });
    }
    const unknown = await cardCharge(stack.client, verbatimAccount.id, 'unknown-verbatim');
    expect(unknown).toEqual({ code: 'UNAVAILABLE', message: SHOWN });
    const { requests } = await stack.client.call('gateway', 'listUnconfirmedRequests', { providerAccountId: verbatimAccount.id });
    expect(requests).toEqual([expect.objectContaining({ idempotencyKey: 'unknown-verbatim', failure: expect.stringContaining('CVV [redacted] inválido') })]);
  });

  it("a notification whose confirmation failed keeps the adapter's text as its outcome without them", async () => {
    const body = JSON.stringify({ id: 'evt_refused', type: 'charge.refused' });
    const answer = await fetch(verbatimAccount.notificationUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(answer.status).toBe(200);
    const [failed] = await eventually(async () => {
      const { notifications } = await stack.client.call('webhooks', 'listWebhookNotifications', {
        providerAccountId: verbatimAccount.id,
        subjectId: '',
        provider: '',
        outcome: 0,
        pageSize: 10,
        pageToken: '',
      });
      return notifications.length > 0 && notifications[0].outcomeReason && notifications;
    });
    expect(failed.outcomeReason).toBe('Erro ao consultar transação: Cartão [redacted] recusado: CVV [redacted] inválido (card.cvv=[redacted], pan [redacted])');
  });

  it('a flow mismatch is appended without them', async () => {
    const mismatch = await new FlowMismatchesRepository().record(stack.gateway.db!.em(), {
      provider: 'VERBATIM_SANDBOX',
      providerAccountId: verbatimAccount.id,
      subjectKind: 'transaction',
      subjectId: '00000000-0000-4000-8000-000000000001',
      source: 'poll',
      claimedStatus: 'APPROVED',
      expectedAmount: 1990,
      reportedAmount: 1,
      expectedProviderId: 'ch_expected',
      reportedProviderId: 'ch_reported',
      reason: `the provider answered APPROVED for 1 cents, the transaction is 1990 cents: ${REFUSAL}`,
    });
    expect(mismatch.reason).toBe(
      'the provider answered APPROVED for 1 cents, the transaction is 1990 cents: Cartão [redacted] recusado: CVV [redacted] inválido (card.cvv=[redacted], pan [redacted])',
    );
  });

  it('leaves no trace of them in the log or in any table, the audit trail included', async () => {
    // The calls above were logged (their provider exchange at debug level, the unavailable ones as failures) and audited.
    const output = log.lines.join('\n');
    expect(output).toContain('/v1/charges');
    expect(output).toContain('CVV [redacted] inválido');
    expect(leaks(output)).toEqual([]);

    const { rows: audit } = await db.query<{ detail: string; outcome: string }>(
      `select detail, outcome from audit_events where action = 'gateway.v1.PaymentGatewayService/CreateTransaction' order by at`,
    );
    expect(audit).toHaveLength(6);
    for (const row of audit) expect(row.detail).toContain('CVV [redacted] inválido');
    const { rows: keys } = await db.query<{ key: string; state: string; failure: string }>(`select key, state, failure from idempotency_keys order by key`);
    expect(keys.map((row) => [row.key, row.state])).toEqual([
      ['refused-connect', 'FAILED'],
      ['refused-grpc', 'FAILED'],
      ['unknown-common', 'UNKNOWN'],
      ['unknown-verbatim', 'UNKNOWN'],
      ['verbatim-connect', 'FAILED'],
      ['verbatim-grpc', 'FAILED'],
    ]);
    for (const row of keys) expect(row.failure).toContain('CVV [redacted] inválido');
    expect(leaks(await databaseDump())).toEqual([]);
  });
});
