import { describe, expect, it } from '@jest/globals';
import type { AdapterRuntime } from '../../server/providers/kit/declaration.js';
import { LordsPayAdapter } from '../../server/providers/families/transactionsApi/platforms/lordspay.js';
import { LORDSCASH } from '../../server/providers/members/lordscash.js';
import { statusOf, transactionsApiConformance } from './conformance/transactionsApi.suite.js';

const create = (runtime: AdapterRuntime) => new LordsPayAdapter(LORDSCASH, runtime);
transactionsApiConformance(LORDSCASH, { keys: { publicKey: 'pk_lc', secretKey: 'sk_lc' }, authHeaders: { authorization: 'Bearer sk_lc' }, create });

describe('LORDSCASH (spec doc 3, group 4)', () => {
  it('maps paid and approved APPROVED; failed, expired, cancelled REJECTED; refunded REFUNDED; chargeback CHARGEBACK; unknown PENDING (§4)', () => {
    const of = (...statuses: string[]) => statuses.map((status) => statusOf(LORDSCASH, status));
    expect(of('paid', 'approved', 'failed', 'expired', 'cancelled', 'refunded', 'chargeback', 'waiting_payment')).toEqual([
      ...['APPROVED', 'APPROVED', 'REJECTED', 'REJECTED', 'REJECTED', 'REFUNDED', 'CHARGEBACK', 'PENDING'],
    ]);
  });

  it("words every failure 'Erro na LordsPay: …' (§8) and carries reais (§9)", () => {
    expect(LORDSCASH.failurePrefixes).toEqual({ createTransaction: 'LORDSPAY', getTransaction: 'LORDSPAY', refoundTransaction: 'LORDSPAY' });
    expect(LORDSCASH.money).toBe('reais');
  });
});
