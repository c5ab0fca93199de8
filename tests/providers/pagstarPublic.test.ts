import { describe, expect, it } from '@jest/globals';
import type { AdapterContext } from '../../server/providers/adapter.js';
import { PAGSTAR, PAGSTAR_PUBLIC, PagstarAdapter, pagstarPublicBaseUrl } from '../../server/providers/pagstar/adapter.js';
import { notification } from './conformance/harness.js';

/**
 * PAGSTAR's api_version 'public' (Pagstar's documented API, docs.pagstar.com)
 * beside the specification's default: which dialect an account speaks, its
 * host and keys, and Pagstar's transfer webhook. End to end against the
 * stand-in: tests/standins/pagstar.test.ts.
 */

const ctx = (extra: Partial<AdapterContext> = {}): AdapterContext => ({
  accountId: 'acc-pagstar',
  publicKey: 'tenant-42',
  secretKey: 'pagstar-access-token',
  baseUrl: PAGSTAR.identity.defaultBaseUrl,
  notificationUrl: 'http://127.0.0.1:8081/webhooks/PAGSTAR/acc-pagstar',
  ...extra,
});

const PUBLIC_KEYS = {
  publicKey: 'pagstar-client|2f6c1a9e-7b3d-4c85-a0e4-9d12c3b4f5a6',
  secretKey: 'pagstar-secret',
  certCashInUrl: 'https://certs.example/pagstar.pem',
  certCashOutUrl: 'https://certs.example/pagstar.pem',
  apiVersion: 'public',
};

const transfer = (status: string) =>
  notification({
    data: {
      id: 77,
      idempotencyKey: 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f',
      endToEndId: 'E99999999202601011200abcdefghijk',
      pixKey: '+5511987654321',
      transactionType: 'PIX',
      status,
      errorCode: status === 'CANCELED' ? 'AB03' : null,
      payment: { currency: 'BRL', amount: 10.5 },
      refunds: [],
    },
    type: 'TRANSFER',
  });

describe("PAGSTAR's dialects: the specification's by default, Pagstar's documented API on api_version 'public'", () => {
  const adapter = new PagstarAdapter();

  it("a public account without a base_url of its own calls Pagstar's documented host, not the legacy one", () => {
    expect(pagstarPublicBaseUrl(PAGSTAR.identity.defaultBaseUrl)).toBe('https://api.pix.pagstar.com');
    expect(pagstarPublicBaseUrl(undefined)).toBe('https://api.pix.pagstar.com');
    expect(pagstarPublicBaseUrl('https://pix.sandbox.example')).toBe('https://pix.sandbox.example');
    expect(PAGSTAR_PUBLIC.identity.defaultBaseUrl).toBe('https://api.pix.pagstar.com');
  });

  it("checks a public account's keys as the documented API needs them: 'clientId|chave', the secret, Pagstar's certificates", () => {
    expect(() => adapter.checkAccount(PUBLIC_KEYS)).not.toThrow();
    expect(() => adapter.checkAccount({ ...PUBLIC_KEYS, certCashInUrl: undefined })).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    expect(() => adapter.checkAccount({ ...PUBLIC_KEYS, certCashOutUrl: undefined })).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    expect(() => adapter.checkAccount({ ...PUBLIC_KEYS, secretKey: '' })).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    // The specification's dialect keeps its own layout and needs no certificate.
    expect(() => adapter.checkAccount({ publicKey: 'tenant-42', secretKey: 'token' })).not.toThrow();
  });

  it("reads Pagstar's transfer webhook on a public account: the payout its idempotencyKey names, LIQUIDATED approved, CANCELED cancelled", async () => {
    const documented = ctx(PUBLIC_KEYS);
    expect(await adapter.processWebhook(documented, transfer('LIQUIDATED'))).toEqual({
      type: 'WITHDRAW',
      transactionId: 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f',
      status: 'APPROVED',
    });
    expect(await adapter.processWebhook(documented, transfer('CANCELED'))).toMatchObject({ type: 'WITHDRAW', status: 'CANCELED' });
    expect(await adapter.processWebhook(documented, transfer('PROCESSING'))).toMatchObject({ status: 'PENDING' });
    expect(adapter.notificationKey(documented, transfer('LIQUIDATED'))).not.toBe(adapter.notificationKey(documented, transfer('CANCELED')));
  });

  it("keeps the specification's callback on the default dialect: the transfer webhook is not one", async () => {
    expect(await adapter.processWebhook(ctx(), transfer('LIQUIDATED'))).toBeUndefined();
    expect(await adapter.processWebhook(ctx(), notification({ external_reference: 'ps-ref-1', transaction_id: 'order-1' }))).toEqual({
      type: 'TRANSACTION',
      transactionId: 'ps-ref-1',
      status: 'APPROVED',
    });
    expect(await adapter.processWebhook(ctx(PUBLIC_KEYS), notification({ external_reference: 'ps-ref-1', transaction_id: 'order-1' }))).toBeUndefined();
  });
});
