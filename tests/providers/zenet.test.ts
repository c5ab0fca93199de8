import { describe, expect, it } from '@jest/globals';
import { TransactionsApiAdapter } from '../../server/providers/families/transactionsApi/index.js';
import { ZENET } from '../../server/providers/members/zenet.js';
import { doc1CommonConformance } from './conformance/doc1Common.suite.js';
import { failure, providerHarness } from './conformance/harness.js';

doc1CommonConformance(ZENET);

describe("ZENET: document 1 §8's PIX withdrawal failures, only logged, then 'Method not implemented.'", () => {
  const h = providerHarness({ create: (runtime) => new TransactionsApiAdapter(ZENET, runtime), account: () => ({ publicKey: 'pk', secretKey: 'sk_zenet' }) });
  const payout = { paymentMethod: 'PIX' as const, amount: 2500, pixKey: '123.456.789-09', pixType: 'CPF' as const };

  it.each([
    [400, { message: 'Chave PIX inválida' }, 'INVALID_ARGUMENT'],
    [503, { message: 'manutenção' }, 'UNAVAILABLE'],
  ])("a payout answered %s is 'Method not implemented.' with the failure's own code; the provider's words are logged", async (status, body, code) => {
    h.fake.expect({ method: 'POST', path: '/withdrawals', reply: { status, body } });
    expect(await failure(h.adapter.withdraw(h.ctx, payout))).toEqual({ code, message: 'Method not implemented.' });
    expect(h.warn).toHaveBeenCalledWith(
      expect.objectContaining({ provider: 'ZENET', operation: 'withdraw', failure: `Erro ao realizar saque: ${body.message}` }),
      'withdraw failed',
    );
  });
});
