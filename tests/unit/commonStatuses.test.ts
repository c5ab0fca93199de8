import { describe, expect, it } from '@jest/globals';
import { lookupStatus } from '../../server/lib/statusTable.js';
import { createRegistry } from '../../server/providers/catalog.js';
import { TRANSACTIONS_API_STATUSES } from '../../server/providers/families/transactionsApi/statuses.js';
import { DOC3_COMMON_STATUSES } from '../../server/providers/kit/commonStatuses.js';
import { DeclaredAdapter } from '../../server/providers/kit/declaredAdapter.js';

/**
 * Document 1 §4, the common payment status table: "refunded, canceled, voided | REFUNDED in some
 * providers; CHARGEBACK for refunded in others". A voided charge gave the money back: it is never
 * the unknown rule's REJECTED.
 */
describe("the common tables read `voided` as document 1 §4's table says", () => {
  it.each([
    ['document 1 §4 (the transactions API family)', TRANSACTIONS_API_STATUSES],
    ["document 3 §4's common pattern (kit)", DOC3_COMMON_STATUSES],
  ])('%s: voided is REFUNDED, like refunded', (_name, table) => {
    for (const status of ['voided', 'VOIDED', ' Voided ']) expect(lookupStatus(table, status)).toBe('REFUNDED');
    expect(lookupStatus(table, 'refunded')).toBe('REFUNDED');
  });

  it('reaches the members built on them (a transactions API member, doc 3 bespoke adapters)', async () => {
    const registry = await createRegistry({ sandboxUrl: 'http://127.0.0.1:1' });
    for (const id of ['PAGUESAFE', 'HAWKPAY', 'WITETEC', 'SYNCPAY', 'PLUGGOU', 'OWEMPAY']) {
      const adapter = registry.find(id) as DeclaredAdapter;
      expect([id, lookupStatus(adapter.transactionStatuses, 'voided')]).toEqual([id, 'REFUNDED']);
    }
  });
});
