import { describe, expect, it } from '@jest/globals';
import type { AdapterRuntime } from '../../server/providers/kit/declaration.js';
import { VILLET, VilletAdapter } from '../../server/providers/members/villet.js';
import { BODIES_WITHOUT_RESOURCE } from '../support/fakeProvider.js';
import { failure, providerHarness } from './conformance/harness.js';
import { transactionsApiConformance } from './conformance/transactionsApi.suite.js';

const AUTH = { authorization: `Basic ${Buffer.from('sk_vl:x').toString('base64')}` };
const create = (runtime: AdapterRuntime) => new VilletAdapter(VILLET, runtime);
transactionsApiConformance(VILLET, { keys: { publicKey: 'pk_vl', secretKey: 'sk_vl' }, authHeaders: AUTH, create });

describe('VILLET recipients and transfers (spec doc 2 §4, §7)', () => {
  const h = providerHarness({ create, account: () => ({ publicKey: 'pk_vl', secretKey: 'sk_vl' }) });
  const recipient = { id: 're_1', name: 'Loja Ana', email: 'ana@loja.example', document: '12345678909' };

  it('creates a recipient by POST /recipients: PENDING until the provider gives a creation timestamp', async () => {
    h.fake.expect({
      method: 'POST',
      path: '/recipients',
      headers: AUTH,
      body: { name: 'Loja Ana', email: 'ana@loja.example', document: '12345678909', documentType: 'CPF' },
      reply: { body: recipient },
    });
    expect(await h.adapter.createReceiver(h.ctx, { name: 'Loja Ana', email: 'ana@loja.example', document: '123.456.789-09' })).toEqual({
      ...{ receiverId: 're_1', receiverProvider: 'VILLET', name: 'Loja Ana', document: '12345678909', documentType: 'CPF', email: 'ana@loja.example' },
      ...{ status: 'PENDING', balance: 0 },
    });
  });

  it('reads a recipient by GET /recipients/{id} and its balance by GET balance/available?recipientId: ACTIVE with a creation timestamp', async () => {
    h.fake.expect({ method: 'GET', path: '/recipients/re_1', headers: AUTH, reply: { body: { ...recipient, createdAt: '2026-11-01T10:00:00Z' } } });
    h.fake.expect({ method: 'GET', path: '/balance/available', query: { recipientId: 're_1' }, reply: { body: { available: 15_990 } } });
    expect(await h.adapter.getReceiver(h.ctx, 're_1')).toMatchObject({ receiverId: 're_1', status: 'ACTIVE', balance: 15_990 });
  });

  it.each(BODIES_WITHOUT_RESOURCE)('a recipient or balance answered with %s is UNAVAILABLE, never a receiver', async (_label, body) => {
    h.fake.expect({ method: 'GET', path: '/recipients/re_1', reply: { body: recipient } });
    h.fake.expect({ method: 'GET', path: '/balance/available', reply: { body } });
    expect((await failure(h.adapter.getReceiver(h.ctx, 're_1'))).code).toBe('UNAVAILABLE');
  });

  it('transfers to a recipient by POST /transfers {amount, recipientId}, and needs the recipient', async () => {
    h.fake.expect({
      method: 'POST',
      path: '/transfers',
      headers: AUTH,
      body: { amount: 5000, recipientId: 're_1' },
      reply: { body: { id: 'tr_1', status: 'pending', amount: 5000 } },
    });
    expect(await h.adapter.withdraw(h.ctx, { paymentMethod: 'RECEIVER', amount: 5000, receiverId: 're_1' })).toEqual({
      withdrawId: 'tr_1',
      amount: 5000,
      status: 'PENDING',
    });
    expect((await failure(h.adapter.withdraw(h.ctx, { paymentMethod: 'RECEIVER', amount: 5000 }))).code).toBe('INVALID_ARGUMENT');
  });
});
