import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Operation, TransactionStatus, WithdrawInput, WithdrawResult, WithdrawStatus } from '../../domain/types.js';
import { providerPixKey, type PixKeyStyle } from '../../lib/pixKey.js';
import { statusTable } from '../../lib/statusTable.js';
import { defaultWithdrawDescription } from '../../lib/withdrawDescription.js';
import { SPEC_GROUPS, type AdapterContext } from '../adapter.js';
import { absentable, parseAnswer, wireAmount, wireId, wireStatus, unwrappedAnswer } from '../kit/answers.js';
import { fillPath, type AdapterRuntime, type ProviderDeclaration } from '../kit/declaration.js';
import { LoginTokenAdapter, type LoginStyle } from '../kit/loginSession.js';

/**
 * LEXXEN (spec doc 3, group 3): a bespoke dialect, PIX payouts only. What the
 * spec says: POST /auth {cnpj, public_key}, POST /transaction/pix-out, GET
 * /transaction/identifier/{id} (§7); "CREATED and PROCESSING PENDING; COMPLETED
 * APPROVED; else REJECTED" (§4); phone keys "strips non-digits and prefixes
 * +55 unless already starting with 55", RANDOM becomes EVP (§5); 'Failed to
 * process the withdraw request.' (§8). No public material on Lexxen's API was
 * found (provider research, groups 3–4), so everything else is the gateway's
 * decision, recorded in docs/decisions.md:
 *
 * - credentials: publicKey = the CNPJ, secretKey = Lexxen's `public_key` (the
 *   login's key, kept out of logs like any secret); the login's token is sent
 *   as Bearer (kit/loginSession.ts);
 * - `POST /transaction/pix-out {amount (reais), pix_key, pix_key_type,
 *   identifier, description}`, answered `{identifier, status, amount}` (bare or
 *   under `data` / `transaction`); the payout's id is its identifier, the key
 *   GET /transaction/identifier/{id} reads it by;
 * - no charges, refunds or notifications (the spec gives no path or shape).
 *
 * Read top to bottom: declaration → wire (zod schemas) → request mapper → status
 * table → response mapper → the operations.
 */

// ---------------------------------------------------------------- declaration

/** publicKey: the company's CNPJ; secretKey: Lexxen's public_key. Both required. */
export const LEXXEN_CREDENTIALS = { publicKey: ['cnpj'], secretKey: ['lexxenKey'] } as const;

export type LexxenDeclaration = ProviderDeclaration & { credentials: typeof LEXXEN_CREDENTIALS };

export const LEXXEN: LexxenDeclaration = {
  // The host is a placeholder (no public material names one): an account sets its base_url.
  identity: { id: 'LEXXEN', specGroup: SPEC_GROUPS.DOC3_GROUP3, defaultBaseUrl: 'https://api.lexxen.com.br' },
  capabilities: { paymentMethods: [], withdrawMethods: ['PIX'], withdrawalLookup: true },
  // The bearer token comes from POST /auth (kit/loginSession.ts), not from a declared style.
  auth: { type: 'none' },
  credentials: LEXXEN_CREDENTIALS,
  money: 'reais',
  // Its payout body's own default ('Saque solicitado', doc 1 §9), also what the gateway fills in for a caller who gives none.
  payouts: { description: 'requested' },
  failures: { withdraw: 'LEXXEN_WITHDRAW_FAILED' },
  evidence: { level: 'specification-only' },
  sources:
    "paths, login body, withdraw statuses, phone and EVP key rules, 'Failed to process the withdraw request.': spec (doc 3 §4/§5/§7/§8); pix-out body and answer (reais, `identifier`), Bearer login token, no charges or notifications: gateway's decision (no public API material found); host: placeholder",
};

export const LEXXEN_PATHS = {
  login: '/auth',
  pixOut: '/transaction/pix-out',
  byIdentifier: '/transaction/identifier/{id}',
} as const;

/** §5: phone keys digits with +55 unless they start with 55; RANDOM is EVP. */
export const LEXXEN_PIX_KEYS: PixKeyStyle = { phonePrefix: 'lexxen', randomAs: 'EVP' };

// ---------------------------------------------------------------- wire

/** POST /transaction/pix-out's body (reais). */
export const LEXXEN_PIX_OUT_REQUEST = z.object({
  amount: z.number().positive(),
  pix_key: z.string().min(1),
  pix_key_type: z.string().min(1),
  identifier: z.string().min(1),
  description: z.string(),
});
export type PixOutRequest = z.infer<typeof LEXXEN_PIX_OUT_REQUEST>;

const LEXXEN_PAYOUT_OBJECT = z.object({
  identifier: absentable(wireId),
  status: wireStatus,
  amount: absentable(wireAmount),
});

/** A pix-out or identifier answer: the payout, bare or under `data` / `transaction`; its status is required. */
export const LEXXEN_PAYOUT_ANSWER = unwrappedAnswer(LEXXEN_PAYOUT_OBJECT, ['data', 'transaction']);
export type PixOutAnswer = z.output<typeof LEXXEN_PAYOUT_ANSWER>;

// ---------------------------------------------------------------- request mapper

export function toPixOut(
  input: WithdrawInput & { pixKey: string; pixType: NonNullable<WithdrawInput['pixType']> },
  terms: { amount: number; identifier: string },
): PixOutRequest {
  const { key, type } = providerPixKey(input.pixKey, input.pixType, LEXXEN_PIX_KEYS);
  return {
    amount: terms.amount,
    pix_key: key,
    pix_key_type: type,
    identifier: terms.identifier,
    description: input.description?.trim() || defaultWithdrawDescription(input.amount, 'requested'),
  };
}

// ---------------------------------------------------------------- status tables

/** §4: CREATED and PROCESSING PENDING; COMPLETED APPROVED; else REJECTED. */
export const LEXXEN_WITHDRAWAL_STATUSES = statusTable<WithdrawStatus>({ CREATED: 'PENDING', PROCESSING: 'PENDING', COMPLETED: 'APPROVED' }, 'REJECTED');

/** No charges: an empty table with the spec's common default (doc 3 §4: Lexxen is not among the PENDING minority). */
export const LEXXEN_STATUSES = statusTable<TransactionStatus>({}, 'REJECTED');

// ---------------------------------------------------------------- operations

export class LexxenAdapter extends LoginTokenAdapter<LexxenDeclaration> {
  constructor(declaration: LexxenDeclaration = LEXXEN, runtime: AdapterRuntime = {}) {
    super(declaration, runtime, { family: 'bespoke', transactionStatuses: LEXXEN_STATUSES, withdrawalStatuses: LEXXEN_WITHDRAWAL_STATUSES });
  }

  /** POST /auth {cnpj, public_key} (§7). */
  protected readonly loginPath = LEXXEN_PATHS.login;

  protected override login(ctx: AdapterContext): LoginStyle {
    const { cnpj, lexxenKey } = this.credentials(ctx);
    return { path: this.loginPath, body: { cnpj, public_key: lexxenKey } };
  }

  /** The payout of an answer, read by the schema (a mismatch is the kit's bad answer, under the operation's texts). */
  private payout(operation: Operation, answer: unknown, fallback: { id: string; amount?: number }): WithdrawResult {
    return this.mapped(operation, this.prefixFor(operation), () => {
      const payout = parseAnswer(LEXXEN_PAYOUT_ANSWER, answer);
      const withdrawId = payout.identifier ?? fallback.id;
      return { withdrawId, status: this.withdrawalStatus(payout.status), amount: this.amountOr(payout.amount, fallback.amount, 'valor do saque') };
    });
  }

  override async withdraw(ctx: AdapterContext, input: WithdrawInput): Promise<WithdrawResult> {
    const payout = this.pixPayout(input);
    const identifier = input.withdrawReference?.trim() || input.idempotencyKey || randomUUID();
    const body = toPixOut(payout, { amount: this.toProviderAmount(input.amount), identifier });
    const answer = await this.loginCall(ctx, 'withdraw', (http) => http.post<unknown>(LEXXEN_PATHS.pixOut, body));
    return this.payout('withdraw', answer, { id: identifier, amount: input.amount });
  }

  override async getWithdraw(ctx: AdapterContext, withdrawId: string): Promise<WithdrawResult> {
    const answer = await this.loginCall(ctx, 'getWithdraw', (http) => http.get<unknown>(fillPath(LEXXEN_PATHS.byIdentifier, { id: withdrawId })));
    // The id asked for stays the id, whatever the answer echoes.
    return { ...this.payout('getWithdraw', answer, { id: withdrawId }), withdrawId };
  }
}
