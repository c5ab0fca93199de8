import { describe, expect, it } from '@jest/globals';
import type { AdapterRuntime } from '../../server/providers/kit/declaration.js';
import { LordsPayAdapter } from '../../server/providers/families/transactionsApi/platforms/lordspay.js';
import { LORDSPAY } from '../../server/providers/members/lordspay.js';
import { failure, providerHarness } from './conformance/harness.js';
import { transactionsApiConformance } from './conformance/transactionsApi.suite.js';

const create = (runtime: AdapterRuntime) => new LordsPayAdapter(LORDSPAY, runtime);
transactionsApiConformance(LORDSPAY, { keys: { publicKey: 'pk_lp', secretKey: 'sk_lp' }, authHeaders: { authorization: 'Bearer sk_lp' }, create });

describe('LORDSPAY (spec doc 3, group 3)', () => {
  const h = providerHarness({ create, account: () => ({ publicKey: 'pk_lp', secretKey: 'sk_lp' }) });

  it('refunds by POST /payments/refund naming the transaction, the amount in reais and the postback URL', async () => {
    h.fake.expect({
      method: 'POST',
      path: '/payments/refund',
      body: { transaction_id: 'lp_1', amount: 19.9, postback_url: h.ctx.notificationUrl },
      reply: { body: { id: 'lp_1', status: 'refunded' } },
    });
    expect(await h.adapter.refoundTransaction(h.ctx, 'lp_1', 1990)).toEqual({ refundId: 'lp_1', status: true });
  });

  it("words its failures 'Erro na LordsPay', 'Erro ao consultar transação', 'Erro ao reembolsar transação' (§8)", async () => {
    h.fake.expect({ method: 'GET', path: '/payments/lp_9', reply: { status: 404, body: { message: 'não encontrada' } } });
    expect((await failure(h.adapter.getTransaction(h.ctx, 'lp_9'))).message).toBe('Erro ao consultar transação: não encontrada');
    expect(LORDSPAY.failurePrefixes).toEqual({
      createTransaction: 'LORDSPAY',
      getTransaction: 'QUERY_TRANSACTION',
      refoundTransaction: 'REFUND_TRANSACTION_LORDSPAY',
    });
  });
});
