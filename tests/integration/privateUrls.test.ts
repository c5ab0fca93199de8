import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CreateReceiverRequest, CreateTransactionRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { PaymentMethod } from '../../gen/ts-proto/gateway/v1/types.js';
import { TestProviderAccountRequest } from '../../gen/ts-proto/gateway/v1/provider_account_service.js';
import { connectDriver, failureOf, type Driver } from '../support/clients.js';
import { startTestStack, TEST_TOKEN, type TestStack } from '../support/gateway.js';

/**
 * Provider settings cannot reach inside (issue "Operators and access", point 5):
 * without ALLOW_PRIVATE_PROVIDER_URLS / ALLOW_PRIVATE_WEBHOOK_URLS, an account's
 * base_url and certificate URLs and a charge's webhook_url are refused for
 * loopback, private, link-local and metadata addresses, over gRPC and Connect.
 */
let stack: TestStack;
let connect: Driver;
let sandboxAccountId: string;

beforeAll(async () => {
  stack = await startTestStack({ env: { ALLOW_PRIVATE_PROVIDER_URLS: 'false', ALLOW_PRIVATE_WEBHOOK_URLS: 'false' } });
  connect = connectDriver(stack.gateway.httpUrl!, TEST_TOKEN);
  ({
    providerAccount: { id: sandboxAccountId },
  } = await stack.client.call('accounts', 'createProviderAccount', { provider: 'SANDBOX', name: 'sandbox', publicKey: 'pk', secretKey: 'sk' }));
});
afterAll(async () => {
  connect?.close();
  await stack?.close();
});

const drivers = () =>
  [
    ['gRPC', stack.client],
    ['Connect', connect],
  ] as const;

describe('an account pointed inside', () => {
  it.each([
    ['base_url', { baseUrl: 'http://127.0.0.1:5432' }],
    ['base_url', { baseUrl: 'http://169.254.169.254/latest/meta-data/' }],
    ['base_url', { baseUrl: 'http://localhost:6379' }],
    ['cert_cash_in_url', { certCashInUrl: 'http://10.0.0.8/cert.pem' }],
    ['cert_cash_out_url', { certCashOutUrl: 'http://[::1]:9000/cert.pem' }],
    ['base_url', { baseUrl: 'http://[::127.0.0.1]/' }],
    ['base_url', { baseUrl: 'http://[2002:7f00:1::]/' }],
  ])('is refused naming %s, over both transports', async (field, urls) => {
    for (const [, driver] of drivers()) {
      const failure = await failureOf(
        driver.call('accounts', 'createProviderAccount', { provider: 'PAGARMEBAAS', name: 'inside', publicKey: 'pk', secretKey: 'sk', ...urls }),
      );
      expect(failure).toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining(`${field} must not point at a loopback`) });
      expect(failure.message).toContain('ALLOW_PRIVATE_PROVIDER_URLS');
    }
  });

  it('cannot be tested inside before saving either (Testar conexão of a candidate)', async () => {
    const failure = await failureOf(
      stack.client.call(
        'accounts',
        'testProviderAccount',
        TestProviderAccountRequest.fromPartial({ candidate: { provider: 'PAGARMEBAAS', publicKey: 'pk', secretKey: 'sk', baseUrl: 'http://127.0.0.1:5432' } }),
      ),
    );
    expect(failure).toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('base_url must not point at a loopback') });
    expect(failure.message).toContain('ALLOW_PRIVATE_PROVIDER_URLS');
  });

  it('cannot be repointed inside by an update either; a public address is taken', async () => {
    const { providerAccount } = await stack.client.call('accounts', 'createProviderAccount', {
      provider: 'PAGARMEBAAS',
      name: 'outside',
      publicKey: 'pk',
      secretKey: 'sk',
      baseUrl: 'https://203.0.113.10/core/v5',
    });
    const failure = await failureOf(stack.client.call('accounts', 'updateProviderAccount', { id: providerAccount.id, baseUrl: 'http://192.168.0.10/' }));
    expect(failure).toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('base_url must not point at a loopback') });
    const { providerAccount: unchanged } = await stack.client.call('accounts', 'getProviderAccount', { id: providerAccount.id });
    expect(unchanged.baseUrl).toBe('https://203.0.113.10/core/v5');
  });
});

describe('verification documents read from inside', () => {
  it('are refused before the provider is asked, naming the document', async () => {
    const { providerAccount } = await stack.client.call('accounts', 'createProviderAccount', {
      provider: 'IUGU',
      name: 'iugu',
      publicKey: 'A083919DEE244A0FA2705E309B378CD0',
      secretKey: 'sk',
      baseUrl: 'https://203.0.113.10/v1',
    });
    const request = CreateReceiverRequest.fromPartial({
      providerAccountId: providerAccount.id,
      receiver: { name: 'Ana', document: '12345678909', email: 'a@example.com', documents: { addressProofUrl: 'http://169.254.169.254/latest/user-data' } },
    });
    for (const [, driver] of drivers())
      expect(await failureOf(driver.call('gateway', 'createReceiver', request))).toMatchObject({
        code: 'INVALID_ARGUMENT',
        message: expect.stringContaining('receiver.documents.address_proof_url must not point at a loopback'),
      });
  });
});

describe("a charge's webhook_url pointed inside", () => {
  it('is refused over both transports, naming the field', async () => {
    const request = CreateTransactionRequest.fromPartial({
      providerAccountId: sandboxAccountId,
      transaction: { amount: 1000, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX, webhookUrl: 'http://127.0.0.1:9200/_bulk' },
    });
    for (const [, driver] of drivers()) {
      const failure = await failureOf(driver.call('gateway', 'createTransaction', request));
      expect(failure).toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('transaction.webhook_url must not point at a loopback') });
      expect(failure.message).toContain('ALLOW_PRIVATE_WEBHOOK_URLS');
    }
  });
});
