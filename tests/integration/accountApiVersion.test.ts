import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createStaticPix, hasError } from 'pix-utils';
import { CreateTransactionRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { PaymentMethod } from '../../gen/ts-proto/gateway/v1/types.js';
import type { TransactionInput, TransactionResult } from '../../server/domain/types.js';
import { statusTable } from '../../server/lib/statusTable.js';
import { SPEC_GROUPS, type AdapterContext } from '../../server/providers/adapter.js';
import { DeclaredAdapter } from '../../server/providers/kit/declaredAdapter.js';
import { failureOf } from '../support/clients.js';
import { startTestStack, type TestStack } from '../support/gateway.js';

/** A provider whose specification and public API disagree: two dialects, the specification's the default. */
class TwoDialects extends DeclaredAdapter {
  readonly dialectsSeen: Array<string | undefined> = [];

  constructor() {
    super(
      {
        identity: { id: 'TWO_DIALECTS', specGroup: SPEC_GROUPS.GATEWAY, defaultBaseUrl: 'http://127.0.0.1:1' },
        capabilities: { paymentMethods: ['PIX'] },
        auth: { type: 'none' },
        money: 'cents',
        sources: 'a test provider',
        apiVersions: ['spec', 'public'],
      },
      {},
      { transactionStatuses: statusTable({}, 'PENDING') },
    );
  }

  override async createTransaction(ctx: AdapterContext, input: TransactionInput): Promise<TransactionResult> {
    this.dialectsSeen.push(this.apiVersion(ctx));
    const pix = createStaticPix({ merchantName: 'Loja', merchantCity: 'Sao Paulo', pixKey: 'loja@example.com', infoAdicional: 'x', transactionAmount: 19.9 });
    if (hasError(pix)) throw new Error('no BR Code');
    return { paymentMethod: 'PIX', transactionId: `td-${this.dialectsSeen.length}`, status: 'PENDING', amount: input.amount, pixCode: pix.toBRCode() };
  }
}

const provider = new TwoDialects();
let stack: TestStack;

beforeAll(async () => {
  stack = await startTestStack({ extraProviders: [provider] });
});
afterAll(() => stack?.close());

const charge = (providerAccountId: string) =>
  stack.client.call(
    'gateway',
    'createTransaction',
    CreateTransactionRequest.fromPartial({ providerAccountId, transaction: { amount: 1990, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX } }),
  );

describe("an account's api_version: the provider's public dialect where it and the specification disagree", () => {
  it('is listed per provider, the default first; providers of one dialect list none', async () => {
    const { providers } = await stack.client.call('gateway', 'listProviders', {});
    const apiVersionsOf = (id: string) => providers.find((p: { id: string }) => p.id === id)?.apiVersions;
    expect(apiVersionsOf('TWO_DIALECTS')).toEqual(['spec', 'public']);
    expect(apiVersionsOf('SANDBOX')).toEqual([]);
  });

  it('defaults to the specification, is chosen at creation, changed, and cleared back to the default; the adapter speaks it', async () => {
    const base = { provider: 'TWO_DIALECTS', name: 'Two dialects', publicKey: 'pk', secretKey: 'sk' };
    const { providerAccount: plain } = await stack.client.call('accounts', 'createProviderAccount', base);
    expect(plain.apiVersion).toBeUndefined();
    await charge(plain.id);
    expect(provider.dialectsSeen.at(-1)).toBe('spec');

    const { providerAccount: chosen } = await stack.client.call('accounts', 'createProviderAccount', { ...base, apiVersion: 'public' });
    expect(chosen.apiVersion).toBe('public');
    await charge(chosen.id);
    expect(provider.dialectsSeen.at(-1)).toBe('public');

    const { providerAccount: cleared } = await stack.client.call('accounts', 'updateProviderAccount', { id: chosen.id, apiVersion: '' });
    expect(cleared.apiVersion).toBeUndefined();
    await charge(chosen.id);
    expect(provider.dialectsSeen.at(-1)).toBe('spec');
  });

  it('refuses a dialect the provider does not speak, and any on a provider of one dialect, naming the field', async () => {
    const base = { provider: 'TWO_DIALECTS', name: 'Two dialects', publicKey: 'pk', secretKey: 'sk' };
    expect(await failureOf(stack.client.call('accounts', 'createProviderAccount', { ...base, apiVersion: 'v9' }))).toEqual({
      code: 'INVALID_ARGUMENT',
      message: 'api_version must be one of spec, public for TWO_DIALECTS',
    });
    const { providerAccount } = await stack.client.call('accounts', 'createProviderAccount', base);
    expect(await failureOf(stack.client.call('accounts', 'updateProviderAccount', { id: providerAccount.id, apiVersion: 'v9' }))).toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    expect(
      await failureOf(
        stack.client.call('accounts', 'createProviderAccount', { provider: 'SANDBOX', name: 'S', publicKey: 'p', secretKey: 's', apiVersion: 'public' }),
      ),
    ).toEqual({ code: 'INVALID_ARGUMENT', message: 'SANDBOX speaks one API dialect: api_version is not taken' });
  });
});
