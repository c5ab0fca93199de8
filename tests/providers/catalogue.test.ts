import { describe, expect, it } from '@jest/globals';
import { OPERATIONS, type Operation, type TransactionStatus } from '../../server/domain/types.js';
import { lookupStatus } from '../../server/lib/statusTable.js';
import { ProviderAdapter, SPEC_GROUPS, operationsOf, type AdapterContext } from '../../server/providers/adapter.js';
import { createRegistry, providerModuleNames } from '../../server/providers/catalog.js';
import { DeclaredAdapter } from '../../server/providers/kit/declaredAdapter.js';

/**
 * What the specification says about each registered provider's statuses
 * (doc 2 §4, doc 3 §4): the statuses it names and what they map to, and the
 * "unknown" rule. A provider added to the catalogue fails here until its line
 * is written from the spec.
 */
const COMMON_PATTERN = { waiting: 'PENDING', processing: 'PENDING', authorized: 'PENDING', paid: 'APPROVED' } as const;
/** Document 3 §4's common pattern: waiting, processing, created, pending PENDING; paid, approved, completed, authorized, confirmed APPROVED; refunded REFUNDED; chargeback and its kin CHARGEBACK; unknown REJECTED. */
const DOC3: { named: Record<string, TransactionStatus>; unknown: TransactionStatus } = {
  named: {
    ...{ waiting: 'PENDING', processing: 'PENDING', created: 'PENDING', pending: 'PENDING' },
    ...{ paid: 'APPROVED', approved: 'APPROVED', completed: 'APPROVED', authorized: 'APPROVED', confirmed: 'APPROVED' },
    ...{
      refunded: 'REFUNDED',
      chargeback: 'CHARGEBACK',
      chargedback: 'CHARGEBACK',
      in_protest: 'CHARGEBACK',
      in_dispute: 'CHARGEBACK',
      retained: 'CHARGEBACK',
    },
  },
  unknown: 'REJECTED',
};

const SPEC_STATUSES: Record<string, { named: Record<string, TransactionStatus>; unknown: TransactionStatus }> = {
  PAGUESAFE: { named: COMMON_PATTERN, unknown: 'REJECTED' },
  PIXIUM: { named: COMMON_PATTERN, unknown: 'REJECTED' },
  PAGARMEBAAS: { named: COMMON_PATTERN, unknown: 'REJECTED' },
  PAGARME: { named: COMMON_PATTERN, unknown: 'REJECTED' },
  VOLUTI: { named: { ATIVA: 'PENDING', REMOVIDA_PELO_PSP: 'PENDING', LIQUIDATED: 'APPROVED', CONCLUIDA: 'APPROVED' }, unknown: 'REJECTED' },
  TREEAL: { named: { ATIVA: 'PENDING', REMOVIDA_PELO_PSP: 'PENDING', LIQUIDATED: 'APPROVED', CONCLUIDA: 'APPROVED' }, unknown: 'REJECTED' },
  BMB: { named: { Paid: 'APPROVED' }, unknown: 'PENDING' },
  HORIZONBANK: { named: COMMON_PATTERN, unknown: 'REJECTED' },
  TRANSAC: { named: COMMON_PATTERN, unknown: 'REJECTED' },
  UNICOPAY: { named: COMMON_PATTERN, unknown: 'REJECTED' },
  FAIRPAY: { named: COMMON_PATTERN, unknown: 'REJECTED' },
  VENIT: { named: COMMON_PATTERN, unknown: 'REJECTED' },
  VENITIP: {
    named: {
      paid: 'APPROVED',
      received: 'APPROVED',
      confirmed: 'APPROVED',
      refused: 'REJECTED',
      refunded: 'REJECTED',
      infraction: 'REJECTED',
      waiting: 'PENDING',
    },
    unknown: 'PENDING',
  },
  NEWLEVEL: { named: COMMON_PATTERN, unknown: 'REJECTED' },
  GATYWAY: { named: COMMON_PATTERN, unknown: 'REJECTED' },
  ROYALTY: { named: COMMON_PATTERN, unknown: 'REJECTED' },
  MEDIUS: { named: COMMON_PATTERN, unknown: 'REJECTED' },
  LYNXPAY: { named: COMMON_PATTERN, unknown: 'REJECTED' },
  AXISBANK: { named: COMMON_PATTERN, unknown: 'REJECTED' },
  VILLET: { named: COMMON_PATTERN, unknown: 'REJECTED' },
  NEXTPAY: { named: COMMON_PATTERN, unknown: 'REJECTED' },
  // The common pattern's only word in Cel_Cash's own vocabulary (research: SDK Pyxlab/celcash) is `authorized`.
  CELCOIN: { named: { authorized: COMMON_PATTERN.authorized }, unknown: 'REJECTED' },
  // Doc 2 §4's row "infraction is CHARGEBACK in PRONTTUS and CASHTIME, but APPROVED in REFLOWPAY" (docs/decisions.md).
  CASHTIME: { named: { ...COMMON_PATTERN, infraction: 'CHARGEBACK' }, unknown: 'REJECTED' },
  REFLOWPAY: { named: { ...COMMON_PATTERN, infraction: 'APPROVED' }, unknown: 'REJECTED' },
  // The table's reading of doc 2 §4, not the notes' "APPROVED for PAID or INFRACTION" (docs/decisions.md).
  PRONTTUS: { named: { ...COMMON_PATTERN, PAID: 'APPROVED', INFRACTION: 'CHARGEBACK' }, unknown: 'REJECTED' },
  IUGUBAAS: { named: COMMON_PATTERN, unknown: 'REJECTED' },
  IUGU: { named: COMMON_PATTERN, unknown: 'REJECTED' },
  ABMEXSPLIT: { named: COMMON_PATTERN, unknown: 'REJECTED' },
  CRMCOIN: { named: { '0': 'PENDING', '1': 'PENDING', '2': 'APPROVED', '3': 'CHARGEBACK' }, unknown: 'REJECTED' },
  ZENDRY: { named: { ...COMMON_PATTERN, canceled: 'PENDING', error: 'CHARGEBACK' }, unknown: 'REJECTED' },
  // Doc 2 group 1 without public material: document 1 §4's common table through the transactions API family.
  ...Object.fromEntries(
    [
      'ABMEX',
      'ABMEXPAY',
      'SAQPAY',
      'PAGO',
      'ULTRAGATE',
      'SPACEFY',
      'WALLETZ',
      'SIMPAY',
      'MEXPAG',
      'AMEII',
      'PAYUP',
      'AKTAPAY',
      'VIATECH',
      'OWENPAY',
      'ZENET',
    ].map((id) => [id, { named: COMMON_PATTERN, unknown: 'REJECTED' as const }]),
  ),
  TRANSFEERA: { named: { ATIVA: 'PENDING', CONCLUIDA: 'APPROVED', REMOVIDA_PELO_PSP: 'PENDING' }, unknown: 'REJECTED' },
  NOXPAY: { named: { PAID: 'APPROVED', WAITING_PAYMENT: 'PENDING', REFUNDED: 'REFUNDED', CHARGEBACK: 'CHARGEBACK', EXPIRED: 'REJECTED' }, unknown: 'REJECTED' },
  ASAAS: {
    named: { PENDING: 'PENDING', CONFIRMED: 'APPROVED', RECEIVED: 'APPROVED', REFUNDED: 'REFUNDED', CHARGEBACK_REQUESTED: 'CHARGEBACK', OVERDUE: 'REJECTED' },
    unknown: 'REJECTED',
  },
  // EzzeBank's webhook statusIds (an integration's mapping: 2 paid, 3 and 9999 cancelled) and its detail's APPROVED, with document 1 §4's words.
  EZZEBANK: {
    named: { '2': 'APPROVED', '3': 'CANCELED', '9999': 'CANCELED', APPROVED: 'APPROVED', pending: 'PENDING', expired: 'REJECTED' },
    unknown: 'REJECTED',
  },
  // The Avista platform's three transaction statuses (its public OpenAPI file), with document 1 §4's words.
  FIREBANK: { named: { PENDING: 'PENDING', CONFIRMED: 'APPROVED', ERROR: 'REJECTED', paid: 'APPROVED', refunded: 'REFUNDED' }, unknown: 'REJECTED' },
  // Pagstar names no status: its checks answer 200 (paid) or an error, its callback carries none; an unknown word would be REJECTED (group 1).
  PAGSTAR: { named: {}, unknown: 'REJECTED' },
  // Arkama's order statuses (stored public code) by document 1 §4.
  ARKAMA: {
    named: {
      PAID: 'APPROVED',
      PENDING: 'PENDING',
      PROCESSING: 'PENDING',
      REFUNDED: 'REFUNDED',
      CHARGEDBACK: 'CHARGEBACK',
      IN_DISPUTE: 'CHARGEBACK',
      REFUSED: 'REJECTED',
    },
    unknown: 'REJECTED',
  },
  MERCADOPAGO: {
    named: { pending: 'PENDING', in_process: 'PENDING', approved: 'APPROVED', refunded: 'REFUNDED', charged_back: 'CHARGEBACK', rejected: 'REJECTED' },
    unknown: 'REJECTED',
  },
  // SuitPay's documented statuses (research) with document 1 §4's words.
  SUITPAY: { named: { PAID_OUT: 'APPROVED', CHARGEBACK: 'CHARGEBACK', CANCELED: 'CANCELED', WAITING_FOR_APPROVAL: 'PENDING' }, unknown: 'REJECTED' },
  // Doc 2 group 1: document 1's common pattern (the PrimePag family's table, canceled a charge never paid).
  PRIMEPAG: { named: { ...COMMON_PATTERN, canceled: 'CANCELED' }, unknown: 'REJECTED' },
  // Doc 3's common pattern with the unknown rule of §4's PENDING list.
  LORDSPAY: { ...DOC3, unknown: 'PENDING' },
  PAYSHARKGATEWAY: { ...DOC3, unknown: 'PENDING' },
  // Doc 3 §4: the common pattern, unknown PENDING (MakeYourBank is in its PENDING list).
  MAKEYOURBANK: { ...DOC3, unknown: 'PENDING' },
  LORDSCASH: {
    named: {
      paid: 'APPROVED',
      approved: 'APPROVED',
      failed: 'REJECTED',
      expired: 'REJECTED',
      cancelled: 'REJECTED',
      refunded: 'REFUNDED',
      chargeback: 'CHARGEBACK',
    },
    unknown: 'PENDING',
  },
  // Doc 3 §4's common pattern, stated once above, for the doc-3 members that follow it.
  ...Object.fromEntries(
    [
      'HAWKPAY',
      'LUMION',
      'PAGNET',
      'PAGOUAI',
      'ORBITA',
      'KUBERFINANCE',
      'ROYALPAY',
      'OWEMPAY',
      'SYNCPAY',
      'WITETEC',
      'PAYROYAL',
      'PAYBER',
      'PLUGGO',
      'XITBANK',
      'PLUGGOU',
      'RAPDYN',
    ].map((id) => [id, DOC3]),
  ),
  PODPAY: { named: { ATIVA: 'PENDING', REMOVIDA_PELO_PSP: 'PENDING', LIQUIDATED: 'APPROVED', CONCLUIDA: 'APPROVED' }, unknown: 'REJECTED' },
  ONZ: { named: { ATIVA: 'PENDING', REMOVIDA_PELO_PSP: 'PENDING', LIQUIDATED: 'APPROVED', CONCLUIDA: 'APPROVED' }, unknown: 'REJECTED' },
  VELTRAX: { named: { PENDING: 'PENDING', PROCESSING: 'PENDING', COMPLETED: 'APPROVED', RETIDO: 'CHARGEBACK' }, unknown: 'REJECTED' },
  // Doc 3 §4: "Flow2Pay webhook: PixIn APPROVED; PixInReversal CHARGEBACK; otherwise PENDING".
  FLOW2PAY: { named: { PixIn: 'APPROVED', PixInReversal: 'CHARGEBACK' }, unknown: 'PENDING' },
  // Doc 3 §4: "Reflow2 webhook: created PENDING; paid and infraction APPROVED; refund CHARGEBACK; failed and canceled REJECTED"; unknown PENDING (most of group 4).
  REFLOW2: {
    named: { created: 'PENDING', paid: 'APPROVED', infraction: 'APPROVED', refund: 'CHARGEBACK', failed: 'REJECTED', canceled: 'REJECTED' },
    unknown: 'PENDING',
  },
  // PIX payouts only (its withdraw table, §4, is tested in lexxen.test.ts): no charge statuses, the common unknown rule.
  LEXXEN: { named: {}, unknown: 'REJECTED' },
  // Doc 3 §4: "waiting_payment PENDING; paid APPROVED; refunded and chargedback CHARGEBACK; anything else REJECTED".
  BRPIXDIGITAL: {
    named: { waiting_payment: 'PENDING', paid: 'APPROVED', refunded: 'CHARGEBACK', chargedback: 'CHARGEBACK', pending: 'REJECTED' },
    unknown: 'REJECTED',
  },
  // Doc 3 §4; "refunded, chargeback, refused, cancelled … grouped with REJECTED (the exact split … is not shown)": the split is docs/decisions.md's.
  PODPAY2: {
    named: {
      waiting_payment: 'PENDING',
      pending: 'PENDING',
      in_protest: 'PENDING',
      approved: 'APPROVED',
      paid: 'APPROVED',
      refused: 'REJECTED',
      cancelled: 'REJECTED',
      refunded: 'REFUNDED',
      chargeback: 'CHARGEBACK',
    },
    unknown: 'PENDING',
  },
  // Doc 3 §4: "paid, approved, captured APPROVED; refused, failed, declined REJECTED; refunded, cancelled, voided REFUNDED"; unknown PENDING.
  FASTSOFT: {
    named: {
      ...{ paid: 'APPROVED', approved: 'APPROVED', captured: 'APPROVED', refused: 'REJECTED', failed: 'REJECTED', declined: 'REJECTED' },
      ...{ refunded: 'REFUNDED', cancelled: 'REFUNDED', voided: 'REFUNDED' },
    },
    unknown: 'PENDING',
  },
  // Doc 3 §4 gives ByNet FastSoft's line.
  BYNET: {
    named: {
      ...{ paid: 'APPROVED', approved: 'APPROVED', captured: 'APPROVED', refused: 'REJECTED', failed: 'REJECTED', declined: 'REJECTED' },
      ...{ refunded: 'REFUNDED', cancelled: 'REFUNDED', voided: 'REFUNDED' },
    },
    unknown: 'PENDING',
  },
  // Doc 3 §4's common pattern with the unknown rule of §4's PENDING list; the rejected and canceled events' words REJECTED (docs/decisions.md).
  BRAVIVE: { named: { ...DOC3.named, rejected: 'REJECTED', canceled: 'REJECTED' }, unknown: 'PENDING' },
  // Doc 3 §4: "APPROVED and PAID APPROVED; DECLINED, CANCELLED, FAILED REJECTED"; unknown PENDING (most of group 4).
  LUMINA: { named: { APPROVED: 'APPROVED', PAID: 'APPROVED', DECLINED: 'REJECTED', CANCELLED: 'REJECTED', FAILED: 'REJECTED' }, unknown: 'PENDING' },
  // Doc 3 §4's common pattern; "Unknown in Hunter returns no status": PENDING, the status nothing moves to (docs/decisions.md).
  HUNTERPAY: {
    named: {
      ...{ waiting: 'PENDING', processing: 'PENDING', created: 'PENDING', pending: 'PENDING', paid: 'APPROVED', approved: 'APPROVED' },
      ...{ completed: 'APPROVED', authorized: 'APPROVED', confirmed: 'APPROVED', refunded: 'REFUNDED', chargeback: 'CHARGEBACK' },
      ...{ chargedback: 'CHARGEBACK', in_protest: 'CHARGEBACK', in_dispute: 'CHARGEBACK', retained: 'CHARGEBACK' },
    },
    unknown: 'PENDING',
  },
};

/** Doc 3 §8's own texts for an operation a provider does not offer; every other such operation is 'Method not implemented.'. */
const OWN_NOT_OFFERED_TEXTS: Record<string, Partial<Record<Operation, string>>> = {
  PAYBER: { withdraw: 'Withdraw method not implemented' },
};

const registry = await createRegistry({ sandboxUrl: 'http://127.0.0.1:1' });
const adapters = registry.list();
const ctx: AdapterContext = { accountId: 'acc', publicKey: 'pk', secretKey: 'sk', baseUrl: 'http://127.0.0.1:1', notificationUrl: 'http://127.0.0.1:1/w' };

describe('the provider catalogue', () => {
  it('registers one adapter per module of server/providers/members', () => {
    expect(adapters).toHaveLength(providerModuleNames().length);
  });

  it('has unique upper-case ids without spaces, aliases that reach the same adapter, and a typed spec group', () => {
    const keys = adapters.flatMap((adapter) => [adapter.identity.id, ...adapter.identity.aliases]);
    expect(new Set(keys).size).toBe(keys.length);
    for (const adapter of adapters) {
      expect(adapter.identity.id).toMatch(/^[A-Z0-9_]+$/);
      for (const alias of adapter.identity.aliases) expect(registry.find(alias)).toBe(adapter);
      expect(Object.values(SPEC_GROUPS)).toContain(adapter.identity.specGroup);
    }
  });

  describe.each(adapters.map((adapter) => [adapter.identity.id, adapter] as const))('%s', (id, adapter) => {
    it('is built on the kit, and implements every operation its capabilities declare', () => {
      expect(adapter).toBeInstanceOf(DeclaredAdapter);
      expect(adapter.operations).toEqual(operationsOf(adapter.capabilities));
      for (const operation of adapter.operations) expect(adapter[operation]).not.toBe(ProviderAdapter.prototype[operation]);
    });

    it("rejects every operation it does not offer with the spec's text, as a promise, never a synchronous throw", async () => {
      for (const operation of OPERATIONS.filter((op) => !adapter.supports(op))) {
        let pending: Promise<unknown> | undefined;
        expect(() => (pending = (adapter[operation] as (...args: unknown[]) => Promise<unknown>).call(adapter, ctx, {}, 0))).not.toThrow();
        const message = OWN_NOT_OFFERED_TEXTS[id]?.[operation] ?? 'Method not implemented.';
        await expect(pending).rejects.toMatchObject({ code: 'UNIMPLEMENTED', message });
      }
    });

    const spec = SPEC_STATUSES[id];
    if (adapter.identity.specGroup === SPEC_GROUPS.GATEWAY) return;
    it('maps every status the spec names for it as the spec says, and unknown statuses to its "unknown" rule', () => {
      expect(spec).toBeDefined();
      const table = (adapter as DeclaredAdapter).transactionStatuses;
      for (const [status, expected] of Object.entries(spec!.named)) expect([status, lookupStatus(table, status)]).toEqual([status, expected]);
      expect(table.unknown).toBe(spec!.unknown);
    });
  });
});
