import { describe, expect, it } from '@jest/globals';
import type { TransactionsApiMember } from '../../../server/providers/families/transactionsApi/index.js';
import { DOC1_COMMON_GATEWAY } from '../../../server/providers/families/transactionsApi/platforms/doc1Common.js';
import { statusOf, transactionsApiConformance, type TransactionsApiFixtures } from './transactionsApi.suite.js';

/**
 * A group-1 provider without public material (`platforms/doc1Common.ts`): the
 * transactions API conformance suite with the family's Basic secret key and
 * 'x', plus what document 1 fixes for it (§7's shapes, §4's common table,
 * §9's validity: `pixSeconds` where it is not the default day).
 */
export function doc1CommonConformance(
  member: TransactionsApiMember,
  options: { pixSeconds?: number; fixtures?: Pick<TransactionsApiFixtures, 'create' | 'ownNotifications'> } = {},
): void {
  const { pixSeconds } = options;
  const secretKey = `sk_${member.identity.id.toLowerCase()}`;
  transactionsApiConformance(member, {
    keys: { publicKey: 'pk', secretKey },
    authHeaders: { authorization: `Basic ${Buffer.from(`${secretKey}:x`).toString('base64')}` },
    ...options.fixtures,
  });

  describe(`${member.identity.id} (spec doc 2, group 1; no public material)`, () => {
    it("creates, reads and refunds on document 1 §7's transactions paths and pays out by POST /withdrawals; boleto 3 days (§9)", () => {
      expect(member.identity.specGroup).toBe('document 2 (group 1)');
      expect({ paths: member.paths, capabilities: member.capabilities, auth: member.auth }).toEqual({
        paths: { withdraw: '/withdrawals' },
        capabilities: { paymentMethods: ['PIX', 'CREDIT_CARD', 'BILLET'], withdrawMethods: ['PIX'], refunds: true, webhooks: true },
        auth: DOC1_COMMON_GATEWAY.auth,
      });
      expect(member.expiry).toEqual(pixSeconds === undefined ? undefined : { pixSeconds });
    });

    it("reads document 1 §4's common table, unknown REJECTED", () => {
      const statuses = ['paid', 'waiting', 'refunded', 'chargedback', 'refused', 'mystery'].map((status) => statusOf(member, status));
      expect(statuses).toEqual(['APPROVED', 'PENDING', 'REFUNDED', 'CHARGEBACK', 'REJECTED', 'REJECTED']);
    });
  });
}
