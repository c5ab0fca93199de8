import type {
  Operation,
  PaymentMethod,
  PixKeyType,
  ReceiverStatus,
  TransactionInput,
  TransactionStatus,
  WithdrawInput,
  WithdrawMethod,
  WithdrawStatus,
} from '../../domain/types.js';
import { GatewayError, invalidArgument } from '../../lib/errors.js';
import { BOLETO_DEFAULT_EXPIRY_SECONDS, PIX_DEFAULT_EXPIRY_SECONDS, expiresAfter } from '../../lib/expiry.js';
import {
  createProviderHttp,
  ProviderCallError,
  providerError,
  resolveKey,
  type ProviderHttp,
  type ProviderHttpDeclaration,
  type ProviderResponse,
} from '../../lib/http/index.js';
import { logger as defaultLogger, type Logger } from '../../lib/logger.js';
import { centsToReais, reaisToCents } from '../../lib/money.js';
import { assertPaymentMethodOffered } from '../../lib/paymentMethods.js';
import { inferPixKeyType } from '../../lib/pixKey.js';
import { defaultWithdrawDescription } from '../../lib/withdrawDescription.js';
import { CATALOGUE, catalogueError, FAILURE_PREFIXES } from '../../lib/providerMessages.js';
import { declaredStatusTable, lookupStatus, statusTable, type StatusTable } from '../../lib/statusTable.js';
import {
  capabilitiesOf,
  lockToCapabilities,
  ProviderAdapter,
  type AccountSettings,
  type AdapterContext,
  type Capabilities,
  type ProviderEvidence,
  type ProviderIdentity,
} from '../adapter.js';
import { parseAnswer, type AnswerSchema } from './answers.js';
import { credentialKeysOf, parseCredentials, type CredentialKey, type Credentials, type CredentialLayout } from './credentials.js';
import type { AdapterRuntime, ProviderDeclaration } from './declaration.js';

/** What a family (or a bespoke adapter) brings under its members' declarations. */
export interface FamilyDefaults {
  /** The family's name in the provider catalogue; 'bespoke' for an adapter of its own. */
  family?: string;
  transactionStatuses: StatusTable<TransactionStatus>;
  /** Default: no entries, unknown PENDING (a payout wrongly recorded as failed could be paid twice). */
  withdrawalStatuses?: StatusTable<WithdrawStatus>;
  /** Default: no entries, unknown PENDING (doc 1 §4's receiver rules all end in PENDING). */
  receiverStatuses?: StatusTable<ReceiverStatus>;
}

const NO_WITHDRAWAL_STATUSES = statusTable<WithdrawStatus>({}, 'PENDING');
const NO_RECEIVER_STATUSES = statusTable<ReceiverStatus>({}, 'PENDING');

/** The spec's common prefix of each operation's failure (doc 1 §8): '<prefix>: <provider message>'. */
const COMMON_PREFIXES: Record<Operation, string> = {
  createCardToken: FAILURE_PREFIXES.CREATE_CARD_TOKEN,
  createCardId: CATALOGUE.SAVE_CARD_FAILED.message,
  createTransaction: FAILURE_PREFIXES.CREATE_TRANSACTION,
  getTransaction: FAILURE_PREFIXES.GET_TRANSACTION,
  refoundTransaction: FAILURE_PREFIXES.REFUND_TRANSACTION,
  withdraw: FAILURE_PREFIXES.WITHDRAW,
  getWithdraw: FAILURE_PREFIXES.GET_WITHDRAW,
  createReceiver: FAILURE_PREFIXES.CREATE_RECEIVER,
  getReceiver: FAILURE_PREFIXES.GET_RECEIVER,
  processWebhook: FAILURE_PREFIXES.GET_TRANSACTION,
  calculateInstallments: FAILURE_PREFIXES.CALCULATE_INSTALLMENTS,
  getAccountBalance: FAILURE_PREFIXES.GET_ACCOUNT_BALANCE,
};

/**
 * The base of every adapter: reads a ProviderDeclaration once and gives the
 * operations what they share, so that no family or bespoke adapter writes it
 * again. Operations the declared capabilities do not offer reject with
 * 'Method not implemented.' on every instance, whatever the class implements.
 *
 * What a subclass gets:
 * - `http(ctx, extra?)`: the provider's HTTP client (auth, timeout, runtime knobs);
 * - `credentials(ctx)`: the account's keys parsed by the declared layout;
 * - `transactionStatus(value)` / `withdrawalStatus(value)` / `receiverStatus(value)`: the declared tables, unknown values logged with the provider's id;
 * - `toProviderAmount(cents)` / `fromProviderAmount(value)`: the declared money unit;
 * - `amountOr(value, fallback, what)`: an answer's amount in cents, else the amount asked for, else an unusable answer;
 * - `pixExpirySeconds`, `boletoExpirySeconds`, `cardReceivableSeconds`, `expiresAt(seconds)`, `now()`;
 * - `prefixFor(operation)`: the spec's prefix of the operation's failures (the declared one, else the common one);
 * - `failure(operation, prefix, error)`: the provider's failure under the spec's prefix, or the declared fixed (or not-found) text;
 * - `exchange(operation, prefix, send)`: one HTTP exchange whose failure is `failure(…)`;
 * - `mapped(operation, prefix, map)`: a mapper's refusal of an answer (not the resource) as the same failure.
 *
 * What notifications share (reading a postback as an object, keys, verdicts) is in
 * declaredAdapter.ts, the class adapters extend.
 */
export abstract class DeclaredAdapterCore<D extends ProviderDeclaration = ProviderDeclaration> extends ProviderAdapter {
  readonly identity: ProviderIdentity;
  readonly capabilities: Capabilities;
  /** Its family (or 'bespoke'), for the provider catalogue. */
  private readonly familyName: string;
  /** The declared tables (family + member), read by the catalogue test against the spec. */
  readonly transactionStatuses: StatusTable<TransactionStatus>;
  readonly withdrawalStatuses: StatusTable<WithdrawStatus>;
  readonly receiverStatuses: StatusTable<ReceiverStatus>;

  protected constructor(
    protected readonly declaration: D,
    protected readonly runtime: AdapterRuntime,
    family: FamilyDefaults,
  ) {
    super();
    this.identity = { ...declaration.identity, aliases: declaration.identity.aliases ?? [] };
    this.capabilities = capabilitiesOf(declaration.capabilities);
    this.familyName = family.family ?? 'bespoke';
    this.transactionStatuses = declaredStatusTable(family.transactionStatuses, declaration.statuses?.transaction);
    this.withdrawalStatuses = declaredStatusTable(family.withdrawalStatuses ?? NO_WITHDRAWAL_STATUSES, declaration.statuses?.withdrawal);
    this.receiverStatuses = declaredStatusTable(family.receiverStatuses ?? NO_RECEIVER_STATUSES, declaration.statuses?.receiver);
    lockToCapabilities(this);
  }

  override get family(): string {
    return this.familyName;
  }

  override get apiVersions(): readonly string[] {
    return this.declaration.apiVersions ?? [];
  }

  /** The dialect this account speaks: its api_version, else the declared default (the specification's); undefined with one dialect. */
  protected apiVersion(ctx: AdapterContext): string | undefined {
    return ctx.apiVersion ?? this.declaration.apiVersions?.[0];
  }

  override get evidence(): ProviderEvidence {
    const declared = this.declaration.evidence;
    if (!declared) return super.evidence;
    return { level: declared.level, addresses: 'addresses' in declared ? declared.addresses : [] };
  }

  /** The declared text of an operation it does not offer (`notOffered`), else 'Method not implemented.'. */
  override notOffered(operation: Operation): GatewayError {
    const own = this.declaration.notOffered?.[operation];
    return own ? catalogueError(own) : super.notOffered(operation);
  }

  override assertPaymentMethod(method: PaymentMethod): void {
    assertPaymentMethodOffered(this.capabilities.paymentMethods, method, this.identity.id, this.declaration.failures?.unsupportedPaymentMethod);
  }

  /** The declared text for a withdraw method it does not offer (`failures.unsupportedWithdrawMethod`), else the common one. */
  override assertWithdrawMethod(method: WithdrawMethod): void {
    const own = this.declaration.failures?.unsupportedWithdrawMethod;
    if (own && !this.capabilities.withdrawMethods.includes(method)) throw catalogueError(own, { field: 'withdraw.payment_method' });
    super.assertWithdrawMethod(method);
  }

  /** The declared wording (`payouts.description`), else the common 'Saque de R$ {amount}'. */
  override defaultWithdrawDescription(amountCents: number): string {
    return defaultWithdrawDescription(amountCents, this.declaration.payouts?.description ?? 'withAmount');
  }

  /** The declared rule (`payouts.withoutPixKeyType`): the key's inferred type, a fixed type, or none (refused). */
  override pixKeyTypeWithout(pixKey: string): PixKeyType | undefined {
    const rule = this.declaration.payouts?.withoutPixKeyType;
    return rule === 'inferredFromKey' ? inferPixKeyType(pixKey) : rule;
  }

  /** The caller's description, else the provider's default (for the payout body). */
  protected payoutDescription(input: WithdrawInput): string {
    return input.description?.trim() || this.defaultWithdrawDescription(input.amount);
  }

  /** A card charge without a card reference, in the declared text (`failures.missingCard`) where the spec gives one. */
  override assertCardReference(input: Pick<TransactionInput, 'paymentMethod' | 'cardId'>, _ctx?: AdapterContext): void {
    if (input.paymentMethod === 'CREDIT_CARD' && !input.cardId?.trim())
      throw catalogueError(this.declaration.failures?.missingCard ?? 'CARD_ID_REQUIRED', { field: 'transaction.card_id' });
  }

  /** The prefix of `operation`'s failures: the member's (`failurePrefixes`) where the spec gives it one, else the common one. */
  protected prefixFor(operation: Operation): string {
    const declared = this.declaration.failurePrefixes?.[operation];
    return declared ? FAILURE_PREFIXES[declared] : COMMON_PREFIXES[operation];
  }

  override get credentialKeys(): readonly CredentialKey[] {
    return this.declaration.credentials ? credentialKeysOf(this.declaration.credentials) : [];
  }

  /** The declared credential layout, checked when an account is created or changed: the same texts, as INVALID_ARGUMENT on the key at fault. */
  override checkAccount(account: AccountSettings): void {
    this.checkCredentials(this.declaration.credentials ?? {}, account);
  }

  /** `layout`'s check of the account's keys, as checkAccount answers it (an adapter with a stricter layout for some accounts, e.g. WITETEC's payout login). */
  protected checkCredentials(layout: CredentialLayout, account: AccountSettings): void {
    try {
      parseCredentials(layout, account);
    } catch (error) {
      if (error instanceof GatewayError) throw new GatewayError('INVALID_ARGUMENT', error.message, { ...error.details, reason: error.details.reason });
      throw error;
    }
  }

  protected now(): Date {
    return this.runtime.now?.() ?? new Date();
  }

  protected get log(): Logger {
    return this.runtime.logger ?? defaultLogger;
  }

  /** The account's usual client, built once per context (gateway/context.ts keeps one context per account as read). */
  private readonly clients = new WeakMap<AdapterContext, ProviderHttp>();

  /** The provider's HTTP client for this account; `extra` for a call that differs (another host, a certificate, no auth). */
  protected http(ctx: AdapterContext, extra: Partial<ProviderHttpDeclaration> = {}): ProviderHttp {
    const usual = Object.keys(extra).length === 0;
    const known = usual ? this.clients.get(ctx) : undefined;
    if (known) return known;
    const client = this.buildHttp(ctx, extra);
    if (usual) this.clients.set(ctx, client);
    return client;
  }

  private buildHttp(ctx: AdapterContext, extra: Partial<ProviderHttpDeclaration>): ProviderHttp {
    // The account's keys are checked against the declared layout before anything is sent.
    this.credentials(ctx);
    const { timeoutMs, ca, retry, breaker, logger } = this.runtime;
    const headers = Object.fromEntries(
      Object.entries(this.declaration.headers ?? {}).map(([name, value]) => [name, typeof value === 'object' ? value.fixed : resolveKey(value, ctx)]),
    );
    return createProviderHttp({
      provider: this.identity.id,
      auth: this.declaration.auth,
      timeoutMs: timeoutMs ?? this.declaration.timeoutMs,
      ...(Object.keys(headers).length ? { headers } : {}),
      ...(ca ? { ca } : {}),
      ...(retry !== undefined ? { retry } : {}),
      ...(breaker ? { breaker } : {}),
      ...(logger ? { logger } : {}),
      ...extra,
      ctx,
    });
  }

  protected credentials(ctx: AdapterContext): Credentials<NonNullable<D['credentials']> & CredentialLayout> {
    return parseCredentials(this.declaration.credentials ?? {}, ctx) as Credentials<NonNullable<D['credentials']> & CredentialLayout>;
  }

  protected transactionStatus(value: unknown): TransactionStatus {
    return lookupStatus(this.transactionStatuses, value, (providerStatus, mappedTo) =>
      this.log.warn({ provider: this.identity.id, providerStatus, mappedTo }, 'unknown provider transaction status'),
    );
  }

  protected withdrawalStatus(value: unknown): WithdrawStatus {
    return lookupStatus(this.withdrawalStatuses, value, (providerStatus, mappedTo) =>
      this.log.warn({ provider: this.identity.id, providerStatus, mappedTo }, 'unknown provider withdrawal status'),
    );
  }

  protected receiverStatus(value: unknown): ReceiverStatus {
    return lookupStatus(this.receiverStatuses, value, (providerStatus, mappedTo) =>
      this.log.warn({ provider: this.identity.id, providerStatus, mappedTo }, 'unknown provider receiver status'),
    );
  }

  /** Our integer cents → the provider's unit. */
  protected toProviderAmount(cents: number): number {
    return this.declaration.money === 'reais' ? centsToReais(cents) : cents;
  }

  /** The provider's unit → our integer cents; anything that is not an amount is a RangeError (the caller's answer is unusable). */
  protected fromProviderAmount(value: unknown): number {
    if (typeof value !== 'number' && typeof value !== 'string') throw new RangeError(`not an amount: ${JSON.stringify(value)}`);
    if (this.declaration.money === 'reais') return reaisToCents(value);
    const cents = Number(value);
    if (!Number.isSafeInteger(cents)) throw new RangeError(`not an amount in cents: ${JSON.stringify(value)}`);
    return cents;
  }

  /** The answer's amount in cents, or undefined when it is absent or not an amount: the caller falls back to what it asked for, or refuses the answer. */
  protected optionalProviderAmount(value: unknown): number | undefined {
    if (value === undefined || value === null || value === '') return undefined;
    try {
      return this.fromProviderAmount(value);
    } catch {
      return undefined;
    }
  }

  /** An answer's amount in cents: absent, `fallback` (the amount asked for); unreadable, or absent without a fallback, an unusable answer (UNAVAILABLE). */
  protected amountOr(value: unknown, fallback: number | undefined, what: string): number {
    const absent = value === undefined || value === null || value === '';
    return this.optionalProviderAmount(value) ?? (absent ? fallback : undefined) ?? unusableAnswer(what);
  }

  /** What the provider catalogue shows of the declaration. */
  get catalogue(): {
    auth: ProviderDeclaration['auth'];
    headers: string[];
    money: ProviderDeclaration['money'];
    pixSeconds: number;
    boletoSeconds: number;
    cardReceivableSeconds?: number;
    sources: string;
  } {
    return {
      auth: this.declaration.auth,
      headers: Object.keys(this.declaration.headers ?? {}),
      money: this.declaration.money,
      pixSeconds: this.pixExpirySeconds,
      boletoSeconds: this.boletoExpirySeconds,
      ...(this.cardReceivableSeconds !== undefined ? { cardReceivableSeconds: this.cardReceivableSeconds } : {}),
      sources: this.declaration.sources,
    };
  }

  protected get pixExpirySeconds(): number {
    return this.declaration.expiry?.pixSeconds ?? PIX_DEFAULT_EXPIRY_SECONDS;
  }

  protected get boletoExpirySeconds(): number {
    return this.declaration.expiry?.boletoSeconds ?? BOLETO_DEFAULT_EXPIRY_SECONDS;
  }

  /** A card charge's receivable term where the member declares one (`expiry.cardReceivableSeconds`), else undefined. */
  protected get cardReceivableSeconds(): number | undefined {
    return this.declaration.expiry?.cardReceivableSeconds;
  }

  protected expiresAt(seconds: number, from: Date = this.now()): Date {
    return expiresAfter(from, seconds);
  }

  /**
   * A failed call of `operation` as the error the caller sees: '<prefix>:
   * <provider message>' with the code and outcome of the HTTP exchange; where
   * the declaration gives the operation a fixed text (or a not-found text, for
   * a NOT_FOUND failure), that text instead, with the same code and outcome,
   * the provider's message kept in the log.
   */
  protected failure(operation: Operation | ExtraOperation, prefix: string, error: unknown): GatewayError {
    const failure = providerError(prefix, error);
    const notFound = failure.code === 'NOT_FOUND' ? this.declaration.notFound?.[operation as Operation] : undefined;
    const fixed = notFound ?? this.declaration.failures?.[operation as Operation];
    // The adapter's own errors ('Unauthorized.', a bad credential layout) are not the provider's failure: they stay as they are.
    const fromProvider = !(error instanceof GatewayError) || (error.details.reason ?? '').startsWith('PROVIDER');
    if (!fixed || !fromProvider) return failure;
    this.log.warn({ provider: this.identity.id, operation, failure: failure.message }, `${operation} failed`);
    return new GatewayError(failure.code, CATALOGUE[fixed].message, { reason: fixed, outcome: failure.details.outcome });
  }

  /**
   * One HTTP exchange of `operation`: the answer parsed by `schema` (its wire
   * section's), or the operation's failure; an answer the schema refuses is
   * PROVIDER_BAD_RESPONSE under the operation's declared texts, its outcome
   * unknown. Without a schema the body comes back unread (adapters not yet on schemas).
   */
  protected async exchange<T>(
    operation: Operation | ExtraOperation,
    prefix: string,
    send: () => Promise<ProviderResponse<unknown>>,
    schema: AnswerSchema<T>,
  ): Promise<T>;
  protected async exchange<T>(operation: Operation | ExtraOperation, prefix: string, send: () => Promise<ProviderResponse<T>>): Promise<T>;
  protected async exchange<T>(
    operation: Operation | ExtraOperation,
    prefix: string,
    send: () => Promise<ProviderResponse<unknown>>,
    schema?: AnswerSchema<T>,
  ): Promise<T> {
    try {
      const { data } = await send();
      return schema ? parseAnswer(schema, data) : (data as T);
    } catch (error) {
      throw this.failure(operation, prefix, error);
    }
  }

  /** A mapper that refuses an answer (a ProviderCallError: not the resource) fails as the operation does. */
  protected mapped<T>(operation: Operation | ExtraOperation, prefix: string, map: () => T): T {
    try {
      return map();
    } catch (error) {
      throw this.failure(operation, prefix, error);
    }
  }

  /**
   * A PIX payout's input, checked before anything is sent: a method the
   * provider offers, a key, and its type: the caller's, else the provider's
   * declared rule where the specification gives one; never guessed otherwise
   * (an 11-digit key read as a CPF when it is a phone could pay someone else).
   */
  protected pixPayout(input: WithdrawInput): WithdrawInput & { pixKey: string; pixType: PixKeyType } {
    this.assertWithdrawMethod(input.paymentMethod);
    if (input.paymentMethod !== 'PIX') throw catalogueError('WITHDRAW_METHOD_NAO_IMPLEMENTADO', { field: 'withdraw.payment_method' });
    const pixKey = input.pixKey?.trim();
    if (!pixKey) throw invalidArgument('withdraw.pix_key', 'withdraw.pix_key is required for PIX withdrawals', 'REQUIRED');
    const pixType = input.pixType ?? this.pixKeyTypeWithout(pixKey);
    if (!pixType) throw invalidArgument('withdraw.pix_type', 'withdraw.pix_type is required for PIX withdrawals', 'REQUIRED');
    return { ...input, pixKey, pixType };
  }
}

/** Calls an adapter makes beyond the contract's operations (capabilities such as reference lookups and simulated payments). */
export type ExtraOperation = 'findByReference' | 'simulatePayment' | 'submitDisputeDefense';

/** A 2xx answer that is not the resource (no id, no status, no PIX code): UNAVAILABLE, its outcome unknown, never a status. */
export function unusableAnswer(what: string): never {
  throw new ProviderCallError('UNAVAILABLE', 'PROVIDER_BAD_RESPONSE', `resposta do provedor sem ${what}`);
}
