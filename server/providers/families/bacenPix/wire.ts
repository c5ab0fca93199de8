import { z } from 'zod';
import { reaisToCents } from '../../../lib/money.js';
import { absentable, wireAmount, wireFact, wireId, wireStatus, wireText } from '../../kit/answers.js';

/**
 * The family's shapes: provider bytes become our types here (DESIGN §3).
 * - the Banco Central's API Pix (github.com/bacen/pix-api, openapi.yaml 2.9.0):
 *   the cob (CobSolicitada, CobGerada, CobCompleta), a Pix received (Pix), the
 *   devolução (DevolucaoSolicitada, Devolucao), the webhook body {pix: [...]};
 * - the payment-initiation call these PSPs share (POST /pix/payments/dict; Onz's
 *   and its white labels' documentation, Avista's "PIX Bacen");
 * - the members' own {type, data} notifications (RECEIVE, TRANSFER, REFUND;
 *   RECEIVE's `debtorAccount` from Avista's "PIX Bacen" RECEIVE page);
 * - the specification's refund POST /sells/{id}/refund, whose answer no public
 *   material shows (read leniently).
 * Answers are parsed in `exchange`; a mismatch is PROVIDER_BAD_RESPONSE. Fields
 * the mappers do not read are left out (zod drops them).
 */

// ---------------------------------------------------------------- leniency of this dialect

/** Reais as the API Pix writes them ("19.90") or the payment-initiation API (19.9), as integer cents; anything else is a bad answer. */
export const wireReais = wireAmount.transform((value, context) => {
  try {
    return reaisToCents(value);
  } catch {
    context.addIssue({ code: 'custom', message: 'not an amount in reais' });
    return z.NEVER;
  }
});

/** Seconds as a number or its digits as text (calendario.expiracao). */
const wireSeconds = z.union([
  z.number().int().nonnegative(),
  z
    .string()
    .trim()
    .regex(/^\d+$/)
    .transform((digits) => Number(digits)),
]);

/** A text the family reads but does not require (dates, codes): absent when left out, null or empty. */
const optionalText = absentable(z.string());

// ---------------------------------------------------------------- requests

/** Bacen's limits: valor.original `\d{1,10}\.\d{2}`, chave ≤ 77, solicitacaoPagador ≤ 140, nome ≤ 200. */
const reaisText = z.string().regex(/^\d{1,10}\.\d{2}$/);

/** devedor: {cpf, nome} or {cnpj, nome} (PessoaFisica, PessoaJuridica). */
const COB_DEBTOR = z.union([z.object({ cpf: z.string(), nome: z.string().max(200) }), z.object({ cnpj: z.string(), nome: z.string().max(200) })]);
export type CobDebtor = z.input<typeof COB_DEBTOR>;

/** POST /cob: CobSolicitada, the fields sent. `chave` is left out for PSPs that fill in the account's own key. */
export const BACEN_COB_REQUEST = z.object({
  calendario: z.object({ expiracao: z.number().int().positive() }),
  devedor: COB_DEBTOR.optional(),
  valor: z.object({ original: reaisText }),
  chave: z.string().max(77).optional(),
  solicitacaoPagador: z.string().max(140).optional(),
});
export type CobRequest = z.input<typeof BACEN_COB_REQUEST>;

/** PUT /pix/{e2eid}/devolucao/{id}: DevolucaoSolicitada. */
export const BACEN_DEVOLUCAO_REQUEST = z.object({ valor: reaisText });
export type DevolucaoRequest = z.input<typeof BACEN_DEVOLUCAO_REQUEST>;

/** POST /pix/payments/dict: a payout to a PIX key, the amount in reais as a JSON number. */
export const DICT_PAYMENT_REQUEST = z.object({
  pixKey: z.string(),
  description: z.string().optional(),
  creditorDocument: z.string().optional(),
  paymentFlow: z.literal('INSTANT'),
  payment: z.object({ currency: z.literal('BRL'), amount: z.number() }),
});
export type DictPaymentRequest = z.input<typeof DICT_PAYMENT_REQUEST>;

/** POST /sells/{id}/refund (the specification's): the amount in reais. */
export const SELLS_REFUND_REQUEST = z.object({ amount: z.number() });
export type SellsRefundRequest = z.input<typeof SELLS_REFUND_REQUEST>;

// ---------------------------------------------------------------- answers

/** A devolução as a cob's Pix lists it: what the mappers read, each part optional (an odd entry is no return of money). */
const DEVOLUCAO_ENTRY = z.object({
  id: absentable(wireId),
  rtrId: absentable(wireText),
  valor: absentable(wireReais),
  status: absentable(wireStatus),
});

/** The answer of PUT and GET /pix/{e2eid}/devolucao/{id} (Devolucao): its status is required, the outcome depends on it. */
export const BACEN_DEVOLUCAO = DEVOLUCAO_ENTRY.extend({ status: wireStatus });
export type Devolucao = z.output<typeof BACEN_DEVOLUCAO>;

/**
 * A Pix received (Pix): in a cob's `pix` list and in the webhook's. The API
 * Pix's own webhook example writes `devolucoes` as one object instead of a
 * list: read as a list of one.
 */
export const BACEN_PIX_RECEIVED = z.object({
  endToEndId: absentable(wireText),
  txid: absentable(wireText),
  valor: absentable(wireReais),
  horario: optionalText,
  devolucoes: z.preprocess(
    (value) => (value !== null && typeof value === 'object' && !Array.isArray(value) ? [value] : value),
    absentable(z.array(DEVOLUCAO_ENTRY)),
  ),
});
export type PixReceived = z.output<typeof BACEN_PIX_RECEIVED>;

/** A cob (CobGerada / CobCompleta), the fields read; VOLUTI also answers the status LIQUIDATED. */
const COB = z.object({
  txid: absentable(wireText),
  status: absentable(wireStatus),
  calendario: absentable(z.object({ criacao: optionalText, expiracao: absentable(wireSeconds) })),
  valor: absentable(z.object({ original: absentable(wireReais) })),
  pixCopiaECola: optionalText,
  pix: absentable(z.array(BACEN_PIX_RECEIVED)),
});
export type Cob = z.output<typeof COB>;

/** POST /cob: the charge made, its txid and the BR Code to pay it (an answer without them is not a charge anyone can pay). TREEAL answers only these and the status. */
export const BACEN_COB_CREATED = COB.extend({ txid: wireText, pixCopiaECola: wireText });

/** GET /cob/{txid}: a status is required (an answer without one is no news, never the table's unknown rule). */
export const BACEN_COB_READ = COB.extend({ status: wireStatus });

/**
 * The answer of POST /pix/payments/dict and GET /pix/payments/{id}: the
 * payout's endToEndId (Onz also names it `e2eId`) or the PSP's numeric id,
 * its status, the amount in reais. One id at least.
 */
const DICT_PAYMENT = z.object({
  id: absentable(wireId),
  endToEndId: absentable(wireText),
  e2eId: absentable(wireText),
  status: absentable(wireStatus),
  eventDate: optionalText,
  payment: absentable(z.object({ amount: absentable(wireReais) })),
  /** Why a payout failed: the SPI's code (AB03, AC03, …), in Pagstar's transfer details (Onz's Accounts API). A fact, never a reason to refuse the answer. */
  errorCode: wireFact,
});
const identifiedPayment = <T extends { id?: string; endToEndId?: string; e2eId?: string }>(payment: T) =>
  Boolean(payment.endToEndId ?? payment.e2eId ?? payment.id);
export const DICT_PAYMENT_CREATED = DICT_PAYMENT.refine(identifiedPayment, { message: 'no endToEndId nor id', path: ['endToEndId'] });
/**
 * The POST's answer of a member whose payouts are known by the idempotency key
 * sent: nothing in it is required, and an empty body is none of it (Pagstar
 * documents only "202 Accepted"); a body that is not an object is still a bad answer.
 */
export const DICT_PAYMENT_ACCEPTED = z.preprocess((answer) => (answer === '' || answer === undefined || answer === null ? {} : answer), DICT_PAYMENT);
/** A payout read back: bare, or in `data` as Onz's Accounts API (Pagstar) answers it and as its TRANSFER notification carries it. */
const DICT_PAYMENT_WITH_STATUS = DICT_PAYMENT.extend({ status: wireStatus });
export const DICT_PAYMENT_READ = z.union([DICT_PAYMENT_WITH_STATUS, z.object({ data: DICT_PAYMENT_WITH_STATUS }).transform((answer) => answer.data)]);
export type DictPayment = z.output<typeof DICT_PAYMENT>;

/**
 * The answer of POST /sells/{id}/refund: no public material shows it, so
 * whatever names the refund is read (an id, a status, a success flag); an
 * answer with none of them says nothing about the refund.
 */
export const SELLS_REFUND = z
  .object({
    id: absentable(wireId),
    refundId: absentable(wireId),
    rtrId: absentable(wireText),
    endToEndId: absentable(wireText),
    status: absentable(wireStatus),
    success: absentable(z.boolean()),
  })
  .refine((answer) => Boolean(answer.id ?? answer.refundId ?? answer.rtrId ?? answer.endToEndId ?? answer.status) || answer.success !== undefined, {
    message: 'no refund id, status nor success flag',
    path: ['status'],
  });
export type SellsRefund = z.output<typeof SELLS_REFUND>;

// ---------------------------------------------------------------- notifications

/** The API Pix's webhook: POST {webhookUrl}/pix {pix: [Pix, …]} (several Pix may come in one call). */
export const BACEN_PIX_WEBHOOK = z.object({ pix: z.array(z.unknown()) });

/**
 * The members' own notification, {type, data} (Avista's "PIX Bacen" webhooks
 * V2; Onz's white labels' transfer webhook): RECEIVE, TRANSFER, REFUND,
 * CANCELED. TREEAL sends {data} without a type. The ids are read as text.
 */
export const PIX_EVENT = z.object({
  type: absentable(wireText),
  data: z.object({
    id: absentable(wireId).catch(undefined),
    txId: absentable(wireText).catch(undefined),
    txid: absentable(wireText).catch(undefined),
    endToEndId: absentable(wireText).catch(undefined),
    idempotencyKey: absentable(wireText).catch(undefined),
    status: absentable(wireStatus).catch(undefined),
    /** TRANSFER: why the payout failed (Pagstar's transfer webhook: `errorCode` such as AB03; Avista's: null unless ERROR). */
    errorCode: wireFact,
    /**
     * RECEIVE: who paid, as Avista's page documents it: the payer's bank's `ispb` and `name` ("Nome do banco do
     * pagador"), and the payer's CPF/CNPJ masked (`document`). Shown, never acted on: read leniently.
     */
    debtorAccount: absentable(
      z.object({ ispb: absentable(wireText).catch(undefined), name: absentable(wireText).catch(undefined), document: absentable(wireText).catch(undefined) }),
    ).catch(undefined),
  }),
});
export type PixEvent = z.output<typeof PIX_EVENT>;
