import { randomUUID } from 'node:crypto';
import { GatewayError, invalidArgument, notFound, outcomeOf } from '../lib/errors.js';
import { cancellableRead } from '../lib/callScope.js';
import { catalogueError } from '../lib/providerMessages.js';
import type {
  Actor,
  CardInput,
  Customer,
  Operation,
  PaymentMethod,
  Receiver,
  ReceiverDetails,
  ReceiverDocuments,
  ReceiverInput,
  ReceiverResult,
  RefundResult,
  StatusSource,
  Transaction,
  TransactionInput,
  Withdrawal,
  WithdrawMethod,
} from '../domain/types.js';
import type { CertificateField, CredentialKey, ProviderAdapter, ProviderEvidence } from '../providers/adapter.js';
import { resolveAccount, type GatewayDeps, type ResolvedAccount } from './context.js';
import { optionalUrl, requirePositiveCents, requireText } from './validation.js';
import { resendWindowMs, runIdempotent } from './idempotency.js';
import { cardTokenNotAccepted, chargesGatewayCardTokens, checkCardToken, issueCardToken, usesGatewayCardTokens } from './cardTokens.js';
import { isGatewayCardToken } from '../lib/gatewayCardToken.js';
import { isSavedCardId } from '../lib/savedCard.js';
import { checkSavedCard, revokeSavedCard, saveCard } from './savedCards.js';
import { openCallAudit } from './callAudit.js';
import { recordCreatedTransaction, recordRefund, releaseRefund, type PendingRecord } from './recording.js';
import { assertPublicUrl } from '../lib/http/addressPolicy.js';
import { refusedAnswer } from './flowIntegrity.js';
import { answersInstallments, checkedCardBin, quoteInstallments, takesInstallmentPlan, type QuotedInstallment } from './installmentPlans.js';
import { documentKey, emailKey } from '../domain/searchKeys.js';
import { refundedCharge } from '../domain/pixPayments.js';
import { cardSummary } from '../lib/cardBrand.js';
import { withDeclaredFee, type RoutingRecord } from '../domain/routing.js';
import type { RoutesService } from './routes.js';
import { runRoutedCharge } from './routedCharges.js';
import { moveSubjectAsAnswered, TRANSACTIONS, WITHDRAWALS, type SubjectKind, type Tracked } from './subjects.js';

/** A card's brand and last 4 as the charge's record keeps them (nothing when the number is too short to be a card's). */
function cardFacts(cardNumber: string): { cardBrand?: string; cardLast4?: string } {
  const summary = cardSummary(cardNumber);
  return summary ? { cardLast4: summary.last4, ...(summary.brand ? { cardBrand: summary.brand } : {}) } : {};
}

export type CreateTransactionCommand = {
  /** The account, or '' when `route` chooses it. */
  providerAccountId: string;
  /** A route's name or id (routes.ts), instead of an account. */
  route?: string;
  /** For a route's card rules only: the card's first digits and its brand, as the caller knows them. */
  cardBin?: string;
  cardBrand?: string;
  idempotencyKey?: string;
  transaction: Omit<TransactionInput, 'paymentMethod' | 'installments' | 'currency'> & {
    paymentMethod?: PaymentMethod;
    installments?: number;
    currency?: string;
  };
};

export interface ProviderSummary {
  id: string;
  aliases: readonly string[];
  specGroup: string;
  paymentMethods: readonly PaymentMethod[];
  withdrawMethods: readonly WithdrawMethod[];
  operations: Operation[];
  family: string;
  evidence: ProviderEvidence;
  apiVersions: readonly string[];
  /** Whether its accounts take an installment plan (it takes cards and quotes no installments itself). */
  takesInstallmentPlan: boolean;
  /** The account keys it reads, by its own names; empty when it declares none. */
  credentialKeys: readonly CredentialKey[];
  /** The client certificates it reads, by the account field holding each one's address; empty when it uses none. */
  certificateFields: readonly CertificateField[];
}

/** Each document URL as the gateway can read it (a presigned link for one of its own uploads), for the provider. */
async function readableDocuments(documents: ReceiverDocuments, uploads: NonNullable<GatewayDeps['ownUploads']>): Promise<ReceiverDocuments> {
  const entries = await Promise.all(Object.entries(documents).map(async ([field, url]) => [field, url ? await uploads.readableUrl(url) : url] as const));
  return Object.fromEntries(entries) as ReceiverDocuments;
}

/**
 * The adapter's operations, with what the gateway answers itself: CreateCardToken where its own card token charges
 * the provider (in the default dialect), CalculateInstallments where the account's plan quotes installments.
 */
function listedOperations(adapter: ProviderAdapter): Operation[] {
  const operations = [...adapter.operations];
  if (chargesGatewayCardTokens(adapter) && !operations.includes('createCardToken')) operations.unshift('createCardToken');
  if (answersInstallments(adapter) && !operations.includes('calculateInstallments')) operations.push('calculateInstallments');
  return operations;
}

function requireOperation(adapter: ProviderAdapter, operation: Operation): void {
  if (!adapter.supports(operation)) throw adapter.notOffered(operation);
}

/** The payment use cases: validate, call the account's adapter, store, publish. */
export class PaymentsService {
  constructor(
    private readonly deps: GatewayDeps,
    private readonly routes?: RoutesService,
  ) {}

  /** The catalogue as declared: the same for the process's life, so read once (reading builds the adapters not used yet). */
  private providers?: ProviderSummary[];

  listProviders(): ProviderSummary[] {
    return (this.providers ??= this.deps.registry.survey((adapter) => ({
      id: adapter.identity.id,
      aliases: adapter.identity.aliases,
      specGroup: adapter.identity.specGroup,
      paymentMethods: adapter.capabilities.paymentMethods,
      withdrawMethods: adapter.capabilities.withdrawMethods,
      operations: listedOperations(adapter),
      family: adapter.family,
      evidence: adapter.evidence,
      apiVersions: adapter.apiVersions,
      takesInstallmentPlan: takesInstallmentPlan(adapter),
      credentialKeys: adapter.credentialKeys,
      certificateFields: adapter.certificateFields,
    })));
  }

  private async resolve(providerAccountId: string, operation: Operation): Promise<ResolvedAccount> {
    const resolved = await resolveAccount(this.deps, providerAccountId);
    requireOperation(resolved.adapter, operation);
    return resolved;
  }

  /** The provider's own token where it tokenises cards; the gateway's where it takes cards but tokenises nothing (cardTokens.ts). */
  async createCardToken(providerAccountId: string, card: CardInput | undefined): Promise<string> {
    if (!card) throw invalidArgument('card', 'card is required', 'REQUIRED');
    const { account, adapter, ctx } = await resolveAccount(this.deps, providerAccountId);
    if (usesGatewayCardTokens(adapter)) {
      // A token the provider could never be charged with is refused now, not at the charge.
      if (!chargesGatewayCardTokens(adapter, ctx)) throw cardTokenNotAccepted(adapter.identity.id);
      return issueCardToken(this.deps, account.id, card);
    }
    requireOperation(adapter, 'createCardToken');
    return adapter.createCardToken(ctx, card);
  }

  /** The provider's saved card; where the provider takes the gateway's card token, the gateway's own (savedCards.ts). */
  async createCardId(providerAccountId: string, input: { cardToken?: string; card?: CardInput; customer?: Customer }): Promise<string> {
    if (!input.cardToken && !input.card) throw invalidArgument('card_token', 'card_token or card is required', 'REQUIRED');
    const resolved = await resolveAccount(this.deps, providerAccountId);
    if (usesGatewayCardTokens(resolved.adapter)) return saveCard(this.deps, { adapter: resolved.adapter, ctx: resolved.ctx, ...input });
    requireOperation(resolved.adapter, 'createCardId');
    return resolved.adapter.createCardId(resolved.ctx, input);
  }

  /** Revokes a card the gateway saved for the account: later charges with it are refused, nothing sent. */
  async revokeSavedCard(providerAccountId: string, cardId: string): Promise<Date> {
    const { account } = await resolveAccount(this.deps, requireText('provider_account_id', providerAccountId));
    return revokeSavedCard(this.deps, account.id, requireText('card_id', cardId));
  }

  async createTransaction(command: CreateTransactionCommand): Promise<Transaction> {
    const input = command.transaction;
    const amount = requirePositiveCents('transaction.amount', input.amount);
    if (!input.paymentMethod) throw catalogueError('INVALID_PAYMENT_METHOD', { field: 'transaction.payment_method' });
    const installments = input.installments || 1;
    if (!Number.isInteger(installments) || installments < 1)
      throw invalidArgument('transaction.installments', 'transaction.installments must be a positive integer', 'INVALID_VALUE');
    if (command.route && command.providerAccountId)
      throw invalidArgument('route', 'set either provider_account_id or route, not both: a route chooses the account', 'NOT_ALLOWED');
    if (!command.route && !command.providerAccountId) throw invalidArgument('provider_account_id', 'provider_account_id or route is required', 'REQUIRED');
    const webhookUrl = optionalUrl('transaction.webhook_url', input.webhookUrl);
    await assertPublicUrl('transaction.webhook_url', webhookUrl, {
      allowInternal: this.deps.urlPolicy.privateWebhookUrls,
      setting: 'ALLOW_PRIVATE_WEBHOOK_URLS',
    });
    const full: TransactionInput = { ...input, amount, paymentMethod: input.paymentMethod, installments, currency: input.currency || 'BRL', webhookUrl };
    const idempotencyKey = command.idempotencyKey || undefined;
    if (command.route) return this.createRoutedTransaction({ ...command, route: command.route, idempotencyKey }, full);
    return this.chargeAt(command.providerAccountId, full, idempotencyKey);
  }

  /** A charge that names a route: the route's decision, then its targets in order (routedCharges.ts). */
  private async createRoutedTransaction(command: CreateTransactionCommand & { route: string }, full: TransactionInput): Promise<Transaction> {
    const routes = this.routes;
    if (!routes) throw new GatewayError('FAILED_PRECONDITION', 'routes are not served by this gateway', { field: 'route', reason: 'ROUTES_NOT_SERVED' });
    const cardBin = command.cardBin || undefined;
    if (cardBin !== undefined && !/^\d{6,8}$/.test(cardBin))
      throw invalidArgument('card_bin', "card_bin must be the card's first 6 to 8 digits", 'INVALID_VALUE');
    const route = await routes.forCharge(command.route);
    const charge = { ...full, cardBin, cardBrand: command.cardBrand || undefined };
    const key = command.idempotencyKey;
    const decision = await routes.decisionFor(
      route,
      charge,
      key,
      `charge (${full.paymentMethod}, ${full.amount} cents ${full.currency}, ${full.installments} installment(s))`,
    );
    const em = () => this.deps.db.em();
    return runRoutedCharge(this.deps, {
      route,
      decision,
      callerKey: key,
      request: { route: route.id, transaction: full, cardBin, cardBrand: charge.cardBrand },
      // Health is recorded at the provider call itself (chargeAt), for routed and direct charges alike.
      charge: (target, attemptKey, routing) =>
        this.chargeAt(target.providerAccountId, full, attemptKey, withDeclaredFee(routing, route, target.providerAccountId, full)),
      providerOf: async (id) => (await this.deps.accounts.getWithSecrets(em(), id, { includeDeleted: true }))?.provider,
      replay: async (id) => (await this.deps.transactions.findTransaction(em(), id, 'primary'))!,
    });
  }

  /** The charge at one account, at most once per idempotency key there; `routing` is what its route decided. */
  private async chargeAt(providerAccountId: string, full: TransactionInput, idempotencyKey: string | undefined, routing?: RoutingRecord): Promise<Transaction> {
    const { account, adapter, ctx } = await this.resolve(providerAccountId, 'createTransaction');
    adapter.assertPaymentMethod(full.paymentMethod);
    // In the provider's words where its spec has them (PODPAY2's 'Dados do cartão são obrigatórios…').
    // And what the provider requires beside a card's own fields (ASAAS's card holder), before a card token is used.
    adapter.assertCardReference(full, ctx);
    // The gateway's card token: authenticated now; its date and use checked, and the card opened, only in the call.
    const cardToken =
      full.paymentMethod === 'CREDIT_CARD' && isGatewayCardToken(full.cardId) ? checkCardToken(this.deps, { adapter, ctx, token: full.cardId }) : undefined;
    // A card the gateway saved: this account's, checked now; opened (unless revoked since) only in the call.
    const savedCard =
      full.paymentMethod === 'CREDIT_CARD' && usesGatewayCardTokens(adapter) && isSavedCardId(full.cardId)
        ? await checkSavedCard(this.deps, { adapter, ctx, cardId: full.cardId })
        : undefined;
    const pending: PendingRecord = {
      kind: 'transaction',
      provider: account.provider,
      installments: full.installments,
      currency: full.currency,
      orderId: full.orderId,
      customerDocument: documentKey(full.customer?.document),
      customerEmail: emailKey(full.customer?.email),
      customerName: full.customer?.name.trim() || undefined,
      description: full.description?.trim() || undefined,
      items: full.items.length ? full.items : undefined,
      webhookUrl: full.webhookUrl,
      amount: full.amount,
      ...(routing ? { routing } : {}),
    };
    // The provider's reason for a decline, answered with the charge for routes' soft declines (not stored: a replay has none).
    let declineReason: string | undefined;
    let declineMessage: string | undefined;
    const transaction = await runIdempotent(this.deps, {
      providerAccountId: account.id,
      operation: 'createTransaction',
      key: idempotencyKey,
      request: full,
      pending,
      resendWithinMs: resendWindowMs(adapter),
      // The key travels to providers that accept one, so that they too recognise a retry.
      callProvider: async () => {
        const card = cardToken ? await cardToken.use(idempotencyKey) : await savedCard?.open();
        // All that is kept of the card: read here, where the card is opened, and stored with the charge.
        if (card) Object.assign(pending, cardFacts(card.cardNumber));
        const call = () => adapter.createTransaction(ctx, { ...full, idempotencyKey, ...(card ? { card } : {}) });
        const result = await (this.routes ? this.routes.health.timed(account.id, 'charge', call) : call());
        declineReason = result.declineReason;
        declineMessage = result.declineMessage;
        return result;
      },
      store: async (result, keyClaimId) => {
        const { transaction, keyCompleted } = await recordCreatedTransaction(
          this.deps,
          account.id,
          pending,
          result,
          idempotencyKey,
          keyClaimId,
          openCallAudit(),
        );
        return { subjectId: transaction.id, value: transaction, keyCompleted };
      },
      replay: async (id) => (await this.deps.transactions.findTransaction(this.deps.db.em(), id, 'primary'))!,
    });
    if (!declineReason || transaction.status !== 'REJECTED') return transaction;
    return { ...transaction, declineReason, ...(declineMessage ? { declineMessage } : {}) };
  }

  /** The charge with its refunds' records (only here: the other reads of a charge do not need them). */
  async getTransaction(id: string, refresh = false): Promise<Transaction> {
    // A refresh asks the provider and applies its answer first; the record is then read from the primary.
    if (refresh) await this.read(TRANSACTIONS, id, true);
    const transaction = await cancellableRead(() => this.deps.transactions.findTransactionWithRefunds(this.deps.db.em(), id, refresh ? 'primary' : 'replica'));
    if (!transaction) throw notFound(`${TRANSACTIONS.name} ${id} not found`);
    return transaction;
  }

  /** A stored transaction or withdrawal; with refresh, its provider is asked first and the answer applied (source poll). */
  private async read<S extends string, T extends Tracked<S>>(kind: SubjectKind<S, T>, id: string, refresh: boolean): Promise<T> {
    // Until the provider is asked, only reads: they stop with the caller (a refresh's status move always finishes).
    const subject = await cancellableRead(() => kind.find(this.deps, id));
    if (!subject) throw notFound(`${kind.name} ${id} not found`);
    // A payout held for approval (or being sent on it) has no provider id yet: there is nothing to ask about.
    if (!refresh || !kind.providerId(subject)) return subject;
    const { adapter, ctx } = await resolveAccount(this.deps, subject.providerAccountId, { includeDeleted: true });
    requireOperation(adapter, kind.lookup);
    const current = await kind.askProvider(adapter, ctx, kind.providerId(subject), subject);
    // An answer about another amount or id moves nothing: it is kept for operators and the record is answered as it is.
    if (!(await refusedAnswer(this.deps, kind, subject, current, 'poll'))) await moveSubjectAsAnswered(this.deps, kind, id, current, 'poll');
    return (await kind.find(this.deps, id, 'primary'))!;
  }

  async refoundTransaction(command: {
    providerAccountId: string;
    id: string;
    amount?: number;
    idempotencyKey?: string;
    /** Who asked, kept on the refund's record. */
    requestedBy?: Actor;
  }): Promise<{ refund: RefundResult; transaction: Transaction }> {
    const transaction = await this.deps.transactions.findTransaction(this.deps.db.em(), command.id, 'primary');
    if (!transaction || transaction.providerAccountId !== command.providerAccountId) {
      throw notFound(`transaction ${command.id} not found for provider account ${command.providerAccountId}`);
    }
    // No amount (0) asks for whatever is left of the charge, resolved when its cents are reserved (never before: a
    // partial refund may have taken some meanwhile).
    const asked = command.amount ? requirePositiveCents('amount', command.amount) : 'rest';
    if (asked !== 'rest' && asked > transaction.amount)
      throw invalidArgument('amount', `amount ${asked} is more than the transaction's ${transaction.amount}`, 'AMOUNT_ABOVE_CHARGE');
    const { adapter, ctx } = await this.resolve(command.providerAccountId, 'refoundTransaction');
    const current = () => this.deps.transactions.findTransaction(this.deps.db.em(), transaction.id, 'primary') as Promise<Transaction>;
    // Without the caller's key the gateway uses one of its own: a refund whose outcome is unknown then keeps its
    // reservation under a key an operator can see and settle (ListUnconfirmedRequests), never reserved for good.
    const key = command.idempotencyKey || `gateway-${randomUUID()}`;
    // What recording (or settling an unknown outcome) needs: the cents reserved, known once they are.
    const refundPending = {
      kind: 'refund',
      transactionId: transaction.id,
      amount: asked === 'rest' ? 0 : asked,
      key,
      ...(command.requestedBy ? { requestedBy: command.requestedBy } : {}),
    } satisfies PendingRecord;
    return runIdempotent(this.deps, {
      providerAccountId: command.providerAccountId,
      operation: 'refoundTransaction',
      key,
      // The request as asked: a retry of "the rest" is the same request, whatever is left by then.
      request: { id: transaction.id, amount: asked === 'rest' ? 0 : asked },
      pending: refundPending,
      pendingKeptByCall: true,
      callProvider: async (keyClaimId) => {
        const reservation = await this.deps.transactions.reserveRefund(
          this.deps.db.em(),
          transaction.id,
          asked,
          keyClaimId ? { id: keyClaimId, pending: refundPending } : undefined,
        );
        if (!reservation.reserved) {
          if (reservation.status !== 'APPROVED')
            throw new GatewayError('FAILED_PRECONDITION', `only an APPROVED transaction can be refunded; ${transaction.id} is ${reservation.status}`, {
              reason: 'CHARGE_NOT_REFUNDABLE',
            });
          throw new GatewayError(
            'FAILED_PRECONDITION',
            asked === 'rest'
              ? `nothing of transaction ${transaction.id} is left to refund (counting refunds in progress)`
              : `only ${reservation.refundable} cents of transaction ${transaction.id} can still be refunded (counting refunds in progress); ${asked} asked`,
            {
              reason: 'REFUND_EXCEEDS_CHARGE',
              field: 'amount',
              values: { refundableCents: String(reservation.refundable), currency: transaction.currency },
            },
          );
        }
        refundPending.amount = reservation.amount;
        try {
          // The key goes with the refund to providers that take one, so a retried refund is the same refund there too.
          return await adapter.refoundTransaction(ctx, transaction.transactionId, reservation.amount, key, refundedCharge(transaction));
        } catch (error) {
          // Refused or never sent: the cents are free again. Unknown: they stay reserved until the outcome is settled.
          if (outcomeOf(error) === 'failed') await releaseRefund(this.deps, refundPending);
          throw error;
        }
      },
      store: async (refund) => ({
        subjectId: transaction.id,
        response: refund,
        value: { refund, transaction: await recordRefund(this.deps, refundPending, refund) },
      }),
      replay: async (_id, response) => ({ refund: response as RefundResult, transaction: await current() }),
    });
  }

  getWithdraw(id: string, refresh = false): Promise<Withdrawal> {
    return this.read(WITHDRAWALS, id, refresh);
  }

  async createReceiver(
    providerAccountId: string,
    asked: (Omit<ReceiverInput, 'paymentMethod'> & { paymentMethod?: WithdrawMethod }) | undefined,
  ): Promise<Receiver> {
    if (!asked) throw invalidArgument('receiver', 'receiver is required', 'REQUIRED');
    requireText('receiver.name', asked.name);
    requireText('receiver.document', asked.document);
    const { paymentMethod } = asked;
    if (paymentMethod === 'RECEIVER')
      throw invalidArgument(
        'receiver.payment_method',
        'receiver.payment_method must be PIX or BANK_ACCOUNT (a receiver is not paid to a receiver)',
        'UNKNOWN_VALUE',
      );
    const input: ReceiverInput = { ...asked, paymentMethod };
    // The gateway reads these and hands their bytes to the provider: never from inside its own network, unless the
    // gateway's own store holds them (the back-office uploads there; the embedded store listens on loopback).
    for (const [name, url] of Object.entries(input.documents ?? {}))
      await assertPublicUrl(`receiver.documents.${name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)}`, url, {
        allowInternal: this.deps.urlPolicy.privateProviderUrls || Boolean(url && this.deps.ownUploads?.isOwnObject(url)),
        setting: 'ALLOW_PRIVATE_PROVIDER_URLS',
      });
    const { account, adapter, ctx } = await this.resolve(providerAccountId, 'createReceiver');
    // The provider is handed links it can read the gateway's own uploads from (private ones have no other way in); the
    // receiver keeps the documents' own addresses.
    const readable = input.documents && this.deps.ownUploads && (await readableDocuments(input.documents, this.deps.ownUploads));
    const result = await adapter.createReceiver(ctx, readable ? { ...input, documents: readable } : input);
    const { description, userId, bankAccount, address, monthlyRevenue, documents } = input;
    // How the receiver is paid: as the provider reports it, else as asked (kept with what it was created with).
    const method = result.paymentMethod ?? input.paymentMethod;
    return this.storeReceiver(account.id, result, 'api', {
      description,
      userId,
      bankAccount,
      address,
      monthlyRevenue,
      documents,
      ...(method ? { paymentMethod: method } : {}),
    });
  }

  async getReceiver(providerAccountId: string, receiverId: string): Promise<Receiver> {
    requireText('receiver_id', receiverId);
    const { account, adapter, ctx } = await this.resolve(providerAccountId, 'getReceiver');
    const secret = await this.deps.receivers.secretOf(this.deps.db.em(), account.id, receiverId);
    const result = await adapter.getReceiver(ctx, receiverId, { secret });
    return this.storeReceiver(account.id, result, 'poll');
  }

  /** Keeps the provider's answer about a receiver and tells the watchers when it is new or its status moved. */
  private async storeReceiver(providerAccountId: string, result: ReceiverResult, source: StatusSource, details?: ReceiverDetails): Promise<Receiver> {
    const { receiver, event } = await this.deps.receivers.upsert(this.deps.db.em(), providerAccountId, result, source, details);
    if (event) this.deps.events.published(event);
    return receiver;
  }

  /**
   * Answered at every provider that takes cards: by the provider where it quotes itself (with the card's BIN where its
   * quote needs one), else from the account's plan. A malformed BIN is refused before anything is sent.
   */
  async calculateInstallments(providerAccountId: string, amount: number, cardBin?: string): Promise<QuotedInstallment[]> {
    requirePositiveCents('amount', amount);
    const bin = checkedCardBin(cardBin);
    const { account, adapter, ctx } = await resolveAccount(this.deps, providerAccountId);
    if (!answersInstallments(adapter)) throw adapter.notOffered('calculateInstallments');
    return quoteInstallments(adapter, ctx, account, amount, bin === undefined ? {} : { bin });
  }
}
