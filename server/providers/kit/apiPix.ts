import type { TransactionStatus } from '../../domain/types.js';
import { statusTable } from '../../lib/statusTable.js';

/**
 * What adapters speaking the Banco Central's API Pix share, whatever their
 * family: the BACEN API Pix family (VOLUTI, TREEAL, Podpay, Onz) and bespoke
 * adapters whose PSP reports its charges in the cob's words (TRANSFEERA).
 */

/**
 * The cob's status (the API Pix's `CobrancaStatus`: ATIVA, CONCLUIDA,
 * REMOVIDA_PELO_USUARIO_RECEBEDOR, REMOVIDA_PELO_PSP) as document 1 §4 and
 * the members' rules (doc 2 §4, doc 3 §4) map it: ATIVA and REMOVIDA_PELO_PSP
 * PENDING, CONCLUIDA and the PSPs' LIQUIDATED APPROVED.
 * REMOVIDA_PELO_USUARIO_RECEBEDOR (not named by the spec) is REJECTED, the
 * spec's rule for statuses it does not list; so is any unknown status (doc 1
 * §4: these providers are not in the PENDING minority).
 */
export const COB_STATUSES = statusTable<TransactionStatus>(
  {
    ATIVA: 'PENDING',
    REMOVIDA_PELO_PSP: 'PENDING',
    CONCLUIDA: 'APPROVED',
    LIQUIDATED: 'APPROVED',
    REMOVIDA_PELO_USUARIO_RECEBEDOR: 'REJECTED',
  },
  'REJECTED',
);
