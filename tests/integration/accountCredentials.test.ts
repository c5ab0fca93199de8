import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { failureOf } from '../support/clients.js';
import { startTestStack, type TestStack } from '../support/gateway.js';

/** Credential rules are checked when an account is created or changed: the spec's text as INVALID_ARGUMENT at the door, not at the first payment. */
let stack: TestStack;

beforeAll(async () => {
  stack = await startTestStack();
});

afterAll(async () => {
  await stack?.close();
});

const account = (extra: Record<string, unknown>) => ({ name: 'checked', publicKey: 'client|chave', secretKey: 'secret', ...extra });

describe('CreateProviderAccount and UpdateProviderAccount check what the provider needs', () => {
  it("refuses a BACEN API Pix account without the platform's certificate URLs with the spec's 'Unauthorized.'", async () => {
    expect(await failureOf(stack.client.call('accounts', 'createProviderAccount', account({ provider: 'VOLUTI' })))).toEqual({
      code: 'INVALID_ARGUMENT',
      message: 'Unauthorized.',
    });
    const withCashIn = account({ provider: 'TREEAL', certCashInUrl: 'https://certs.example/in.pem' });
    expect(await failureOf(stack.client.call('accounts', 'createProviderAccount', withCashIn))).toEqual({ code: 'INVALID_ARGUMENT', message: 'Unauthorized.' });
  });

  it('accepts the account once the certificates are named, and refuses a change that removes one', async () => {
    const certificates = { certCashInUrl: 'https://certs.example/in.pem', certCashOutUrl: 'https://certs.example/out.pem' };
    const { providerAccount } = await stack.client.call('accounts', 'createProviderAccount', account({ provider: 'VOLUTI', ...certificates }));
    expect(providerAccount.provider).toBe('VOLUTI');
    const update = { id: providerAccount.id, certCashOutUrl: '' };
    expect(await failureOf(stack.client.call('accounts', 'updateProviderAccount', update))).toEqual({ code: 'INVALID_ARGUMENT', message: 'Unauthorized.' });
  });

  it('refuses a packed key of the wrong shape, naming the shape', async () => {
    const packed = account({
      provider: 'VOLUTI',
      publicKey: 'client|chave|extra',
      certCashInUrl: 'https://c.example/a',
      certCashOutUrl: 'https://c.example/b',
    });
    expect(await failureOf(stack.client.call('accounts', 'createProviderAccount', packed))).toEqual({
      code: 'INVALID_ARGUMENT',
      message: 'Formato de credenciais inválido. Use: clientId|chave',
    });
  });

  it('refuses a provider account without the key its provider requires', async () => {
    expect(await failureOf(stack.client.call('accounts', 'createProviderAccount', account({ provider: 'VENIT', publicKey: '' })))).toEqual({
      code: 'INVALID_ARGUMENT',
      message: 'publicKey is required',
    });
  });
});

describe('ListProviders names the credentials each provider declares', () => {
  const keysOf = async (id: string) => {
    const { providers } = await stack.client.call('gateway', 'listProviders', {});
    return providers.find((provider: { id: string }) => provider.id === id).credentialKeys;
  };

  it('gives the parts packed in a key by their names, optional ones marked', async () => {
    await expect(keysOf('VOLUTI')).resolves.toEqual([
      {
        field: 'public_key',
        required: true,
        parts: [
          { name: 'clientId', optional: false },
          { name: 'chave', optional: true },
        ],
      },
      {
        field: 'secret_key',
        required: true,
        parts: [
          { name: 'clientSecret', optional: false },
          { name: 'certificatePassphrase', optional: true },
        ],
      },
    ]);
    await expect(keysOf('OWEMPAY')).resolves.toEqual([
      { field: 'public_key', required: false, parts: [] },
      {
        field: 'secret_key',
        required: true,
        parts: [
          { name: 'apiKey', optional: false },
          { name: 'secret', optional: false },
          { name: 'accountId', optional: false },
        ],
      },
    ]);
  });

  it('names the client certificates a provider reads, required or only for some dialects, and none for the others', async () => {
    const { providers } = await stack.client.call('gateway', 'listProviders', {});
    const certificatesOf = (id: string) => providers.find((provider: { id: string }) => provider.id === id).certificateFields;
    const both = [
      { field: 'cert_cash_in_url', required: true },
      { field: 'cert_cash_out_url', required: true },
    ];
    for (const id of ['VOLUTI', 'TREEAL', 'PODPAY', 'ONZ']) expect(certificatesOf(id)).toEqual(both);
    expect(certificatesOf('FIREBANK')).toEqual([{ field: 'cert_cash_in_url', required: true }]);
    // Only PAGSTAR's public dialect (the BACEN API Pix) presents them.
    expect(certificatesOf('PAGSTAR')).toEqual(both.map((field) => ({ ...field, required: false })));
    const declaring = providers
      .filter((provider: { certificateFields: unknown[] }) => provider.certificateFields.length)
      .map((provider: { id: string }) => provider.id);
    expect(declaring.sort()).toEqual(['FIREBANK', 'ONZ', 'PAGSTAR', 'PODPAY', 'TREEAL', 'VOLUTI']);
  });

  it('says which whole keys are needed where nothing is packed', async () => {
    await expect(keysOf('VENIT')).resolves.toEqual([
      { field: 'public_key', required: true, parts: [] },
      { field: 'secret_key', required: true, parts: [] },
    ]);
  });
});
