import { GatewayError, NOT_IMPLEMENTED_MESSAGE, type ErrorCode } from './errors.js';
import { redactText } from './http/redact.js';

/**
 * The error catalogue: every fixed text of spec doc 1 §8, doc 2 §5/§8 and
 * doc 3 §5/§8, copied verbatim, each with the GatewayError code it is thrown
 * with (DESIGN.md §5). Adapters throw through `catalogueError(key)` or the
 * message functions below, never with a retyped literal, so a text can only be
 * wrong in one place.
 *
 * Codes:
 * - INVALID_ARGUMENT: the caller's input is at fault, and the spec's "bad request" texts.
 * - UNIMPLEMENTED: an operation or payment/withdraw method the provider does not offer.
 * - FAILED_PRECONDITION: the platform or provider account lacks configuration
 *   ('Unauthorized.' is this: a missing platform record or certificate is set-up,
 *   not the caller's identity or rights), or the provider refused the operation.
 * - NOT_FOUND: the provider does not know the id.
 * - UNAVAILABLE: the provider (or object storage) failed; INTERNAL stays for our own bugs.
 * Where the HTTP outcome is known, an adapter may pass a different code (see
 * `catalogueError`'s `code` option and httpClient's providerError).
 */
export interface CatalogueEntry {
  readonly message: string;
  readonly code: ErrorCode;
}

const entry = (message: string, code: ErrorCode): CatalogueEntry => ({ message, code });

export const CATALOGUE = {
  // Unsupported operations (doc 1 §8, doc 2 §8, doc 3 §8).
  NOT_IMPLEMENTED: entry(NOT_IMPLEMENTED_MESSAGE, 'UNIMPLEMENTED'),
  NOT_IMPLEMENTED_YET: entry('Not implemented yet.', 'UNIMPLEMENTED'),
  WITHDRAW_METHOD_NOT_IMPLEMENTED: entry('Withdraw method not implemented', 'UNIMPLEMENTED'),

  // Payment and withdraw methods (doc 1 §8). 'Invalid payment method' and the
  // 'is invalid. Possible values' text reject input that names no known method;
  // the others reject a real method the provider does not offer.
  INVALID_PAYMENT_METHOD: entry('Invalid payment method', 'INVALID_ARGUMENT'),
  PAYMENT_METHOD_INVALID_VALUES: entry('paymentMethod is invalid. Possible values: credit_card, boleto, pix', 'INVALID_ARGUMENT'),
  UNSUPPORTED_PAYMENT_METHOD: entry('Unsupported payment method', 'UNIMPLEMENTED'),
  PAYMENT_METHOD_NOT_SUPPORTED: entry('Payment method not supported', 'UNIMPLEMENTED'),
  METODO_PAGAMENTO_NAO_SUPORTADO: entry('Método de pagamento não suportado', 'UNIMPLEMENTED'),
  METODO_PAGAMENTO_NAO_RECONHECIDO: entry('Método de pagamento não reconhecido', 'UNIMPLEMENTED'),
  PAYMENT_METHOD_NAO_SUPORTADO: entry('paymentMethod não suportado.', 'UNIMPLEMENTED'),
  BOLETO_NOT_IMPLEMENTED: entry('Boleto not implemented', 'UNIMPLEMENTED'),
  CREDIT_CARD_NOT_IMPLEMENTED: entry('Credit card not implemented', 'UNIMPLEMENTED'),
  WITHDRAW_METHOD_NAO_IMPLEMENTADO: entry('Método de saque não implementado', 'UNIMPLEMENTED'),
  SYNCPAY_PIX_ONLY: entry('Syncpay only supports PIX payment method', 'UNIMPLEMENTED'),
  VELTRAX_PIX_PAYMENTS_ONLY: entry('Veltrax suporta apenas pagamentos PIX.', 'UNIMPLEMENTED'),
  VELTRAX_PIX_WITHDRAWALS_ONLY: entry('Veltrax suporta apenas saques via PIX', 'UNIMPLEMENTED'),
  VELTRAX_NO_CREDIT_CARD: entry('Veltrax não suporta cartão de crédito. Apenas PIX.', 'UNIMPLEMENTED'),

  // Card input (doc 1 §5, doc 2 §5, doc 3 §5).
  CARD_ID_REQUIRED: entry('cardId is required for credit card transactions', 'INVALID_ARGUMENT'),
  CARD_TOKEN_REQUIRED: entry('Card token is required for credit card payments.', 'INVALID_ARGUMENT'),
  LYNXPAY_INVALID_CVV: entry('card.cvv é inválido. Precisa ter entre 3 e 4 caracteres.', 'INVALID_ARGUMENT'),
  // LYNXPAY's other card checks (doc 2 §5 lists them; only the cvv text is shown): written after it.
  LYNXPAY_CARD_REQUIRED: entry('card é obrigatório.', 'INVALID_ARGUMENT'),
  LYNXPAY_CARD_NUMBER_REQUIRED: entry('card.number é obrigatório.', 'INVALID_ARGUMENT'),
  LYNXPAY_INVALID_HOLDER_NAME: entry('card.holderName é inválido. Precisa ter nome e sobrenome.', 'INVALID_ARGUMENT'),
  LYNXPAY_INVALID_EXPIRATION_MONTH: entry('card.expirationMonth é inválido. Precisa ter no máximo 2 caracteres.', 'INVALID_ARGUMENT'),
  LYNXPAY_INVALID_EXPIRATION_YEAR: entry('card.expirationYear é inválido. Precisa ter 4 caracteres.', 'INVALID_ARGUMENT'),
  PODPAY2_CARD_DATA_REQUIRED: entry('Dados do cartão são obrigatórios para pagamento com cartão de crédito.', 'INVALID_ARGUMENT'),
  // Witetec (doc 3 §8): the card arrives encrypted by the provider's script; missing or unreadable encrypted data.
  WITETEC_CARD_DATA_UNREADABLE: entry('Erro ao processar dados do cartão', 'INVALID_ARGUMENT'),

  // RAPDYN formats (doc 2 §5). The CNPJ text is not shown in the spec; it is
  // written after its CPF sibling.
  RAPDYN_INVALID_CPF: entry('CPF inválido, deve conter 11 dígitos.', 'INVALID_ARGUMENT'),
  RAPDYN_INVALID_CNPJ: entry('CNPJ inválido, deve conter 14 dígitos.', 'INVALID_ARGUMENT'),
  RAPDYN_INVALID_PHONE: entry('Telefone inválido, número de dígitos incorreto.', 'INVALID_ARGUMENT'),

  // The spec's "bad request" texts (doc 1 §8, doc 2 §8).
  ADQUIRENTE_NAO_ACEITA_CPF: entry('Adquirente não aceita CPF', 'INVALID_ARGUMENT'),
  BANCO_NAO_SUPORTADO: entry('Banco não suportado, tente outro.', 'INVALID_ARGUMENT'),
  REFUND_APPROVAL_FAILED: entry('Erro ao aprovar o reembolso.', 'INVALID_ARGUMENT'),
  SAVE_CARD_FAILED: entry('Erro salvando cartão', 'INVALID_ARGUMENT'),

  // Platform and credentials (doc 1 §8, doc 3 §5).
  UNAUTHORIZED: entry('Unauthorized.', 'FAILED_PRECONDITION'),
  BRAVIVE_SECRET_KEY_REQUIRED: entry('Bravive secretKey is required', 'FAILED_PRECONDITION'),
  OWEMPAY_CREDENTIALS_MISSING: entry('Credenciais não configuradas', 'FAILED_PRECONDITION'),
  OWEMPAY_CREDENTIALS_FORMAT: entry('Formato de credenciais inválido. Use: apiKey|secret|accountId', 'FAILED_PRECONDITION'),
  PODPAY2_BASIC_AUTH_KEYS_REQUIRED: entry('PodPay requer tanto publicKey quanto secretKey para autenticação Basic.', 'FAILED_PRECONDITION'),
  FLOW2PAY_AUTHENTICATION_FAILED: entry('Failed to authenticate with Flow2Pay', 'FAILED_PRECONDITION'),
  VELTRAX_AUTHENTICATION_FAILED: entry('Falha na autenticação', 'FAILED_PRECONDITION'),

  // Not found (doc 1 §8, doc 3 §8).
  RECEIVER_NOT_FOUND: entry('Receiver not found.', 'NOT_FOUND'),
  RECEBEDOR_NAO_ENCONTRADO: entry('Recebedor não encontrado.', 'NOT_FOUND'),
  TRANSACAO_NAO_ENCONTRADA: entry('Transação não encontrada', 'NOT_FOUND'),

  // Provider failures with a fixed text (the provider's own message is not kept).
  INTERNAL_SERVER_ERROR: entry('Internal server error', 'UNAVAILABLE'),
  CREATE_TRANSACTION_FAILED: entry('Erro ao criar transação', 'UNAVAILABLE'),
  ERROR_ON_UPLOAD_PDF: entry('Error on upload pdf', 'UNAVAILABLE'),
  ERROR_ON_WITHDRAW: entry('Error on withdraw', 'FAILED_PRECONDITION'),
  LEXXEN_WITHDRAW_FAILED: entry('Failed to process the withdraw request.', 'FAILED_PRECONDITION'),
  KUBER_REFUND_FAILED: entry('Failed to refund transaction.', 'FAILED_PRECONDITION'),
  // Witetec (doc 3 §5/§8): its card script (ShieldHelper) failing to load in the page, a browser-side text; no server operation throws it.
  WITETEC_SHIELD_HELPER_LOAD_FAILED: entry('Falha ao carregar o ShieldHelper', 'UNAVAILABLE'),

  // MakeYourBank (doc 3 §5, §8): a 2xx answer without what the operation needs. The spec
  // names the six messages without their wording; these are the gateway's (docs/decisions.md).
  MAKEYOURBANK_PIX_CODE_MISSING: entry('MakeYourBank não retornou o código PIX', 'UNAVAILABLE'),
  MAKEYOURBANK_BILLET_CODE_MISSING: entry('MakeYourBank não retornou o código do boleto', 'UNAVAILABLE'),
  MAKEYOURBANK_BILLET_URL_MISSING: entry('MakeYourBank não retornou a URL do boleto', 'UNAVAILABLE'),
  MAKEYOURBANK_REFUND_ID_MISSING: entry('MakeYourBank não retornou o ID do estorno', 'UNAVAILABLE'),
  MAKEYOURBANK_WITHDRAW_ID_MISSING: entry('MakeYourBank não retornou o ID do saque', 'UNAVAILABLE'),
  MAKEYOURBANK_RECEIVER_ID_MISSING: entry('MakeYourBank não retornou o ID do recebedor', 'UNAVAILABLE'),

  // The gateway's own texts, where the spec shows none (recorded in docs/decisions.md).
  INVALID_CARD_EXPIRY_YEAR: entry('Invalid card expiry year: expected 2 or 4 digits', 'INVALID_ARGUMENT'),
  CARD_FIELD_HAS_SEPARATOR: entry("Card fields must not contain '|'", 'INVALID_ARGUMENT'),
  INVALID_CARD_TOKEN: entry('Invalid card token', 'INVALID_ARGUMENT'),
  CARD_TOKEN_KEY_MISSING: entry('Platform private key is not configured', 'FAILED_PRECONDITION'),
} as const satisfies Record<string, CatalogueEntry>;

export type CatalogueKey = keyof typeof CATALOGUE;

export interface CatalogueErrorOptions {
  /** The request field at fault, for bad input. */
  field?: string;
  /** Overrides the entry's code when the provider's HTTP outcome says more (e.g. UNAVAILABLE on a 5xx). */
  code?: ErrorCode;
}

/** A GatewayError with the entry's exact text; the key is the machine-readable reason. */
export function catalogueError(key: CatalogueKey, options: CatalogueErrorOptions = {}): GatewayError {
  const { message, code } = CATALOGUE[key];
  return new GatewayError(options.code ?? code, message, { reason: key, ...(options.field ? { field: options.field } : {}) });
}

/**
 * Failure prefixes: the spec's texts that append the provider's message or the
 * error text as "<prefix>: <message>" (doc 1 §8, doc 2 §8, doc 3 §8). Also the
 * `prefix` argument for httpClient's providerError.
 */
export const FAILURE_PREFIXES = {
  CREATE_CARD_TOKEN: 'Erro ao criar token do cartão',
  CREATE_TRANSACTION: 'Erro ao criar transação',
  GET_TRANSACTION: 'Erro ao buscar transação',
  REFUND_TRANSACTION: 'Erro ao estornar transação',
  WITHDRAW: 'Erro ao realizar saque',
  GET_WITHDRAW: 'Erro ao buscar saque',
  CREATE_RECEIVER: 'Erro ao criar recebedor',
  GET_RECEIVER: 'Erro ao buscar recebedor',
  // Issue 33 §4's balance read, in no specification: the gateway's wording, in the spec's pattern.
  GET_ACCOUNT_BALANCE: 'Erro ao consultar saldo',
  // Issue 33 §3's dispute defence, in no specification either: the gateway's wording, in the same pattern.
  SUBMIT_DISPUTE_DEFENSE: 'Erro ao enviar defesa',
  // PaySharkGateway's own two (its other five are the common ones above).
  PROCESS_REFUND: 'Erro ao processar reembolso',
  PROCESS_WITHDRAW: 'Erro ao processar saque',
  // Flow2Pay.
  CREATE_PIX_TRANSACTION: 'Erro ao criar transação PIX',
  REQUEST_REFUND: 'Erro ao solicitar devolução',
  // Witetec.
  PROCESS_CARD_DATA: 'Erro ao processar dados do cartão',
  // LordsPay; LordsCash also uses 'Erro na LordsPay: …'.
  LORDSPAY: 'Erro na LordsPay',
  QUERY_TRANSACTION: 'Erro ao consultar transação',
  REFUND_TRANSACTION_LORDSPAY: 'Erro ao reembolsar transação',
  // Fourth group.
  WITHDRAW_FOURTH_GROUP: 'Erro no saque',
  CREATE_PIX_TRANSACTION_FOURTH_GROUP: 'Erro na criação da transação PIX',
  REFUND_FOURTH_GROUP: 'Erro no estorno',
  // Bravive (doc 3 §8): "'Bravive API Error' with the provider message, with (Withdraw) or (Get Withdraw) suffix".
  BRAVIVE_API_ERROR: 'Bravive API Error',
  BRAVIVE_API_ERROR_WITHDRAW: 'Bravive API Error (Withdraw)',
  BRAVIVE_API_ERROR_GET_WITHDRAW: 'Bravive API Error (Get Withdraw)',
  // Rapdyn: "followed by the response data"; the separator is not shown, ': ' is used like the others.
  RAPDYN_WITHDRAW: 'Houve um erro ao tentar realizar o saque',
  // The gateway's own (no spec text): installment quotes and the sandbox's simulated payment.
  CALCULATE_INSTALLMENTS: 'Erro ao calcular parcelas',
  SIMULATE_PAYMENT: 'Erro ao simular pagamento',
  // The spec prints it cut off ('Refund não implementado…'); adapters append their own reason.
  REFUND_NOT_IMPLEMENTED: 'Refund não implementado',
} as const;

export type FailurePrefixKey = keyof typeof FAILURE_PREFIXES;

/**
 * "<prefix>: <detail>". Without a detail the bare prefix, which is itself a
 * spec text (e.g. VENIT's 'Erro ao criar transação').
 */
export function withPrefix(prefix: string, detail?: string): string {
  return detail ? `${prefix}: ${detail}` : prefix;
}

/** One message function per prefix: `failureMessage.CREATE_TRANSACTION('Saldo insuficiente')`. */
export const failureMessage = Object.fromEntries(
  Object.entries(FAILURE_PREFIXES).map(([key, prefix]) => [key, (detail?: string) => withPrefix(prefix, detail)]),
) as { readonly [K in FailurePrefixKey]: (detail?: string) => string };

/**
 * A provider's failure that keeps the provider's message under the spec's
 * prefix, typically a failure inside a 2xx body (DESIGN.md §5). The caller
 * chooses the code: it knows whether the provider refused (INVALID_ARGUMENT,
 * FAILED_PRECONDITION) or failed (UNAVAILABLE). HTTP errors go through
 * httpClient's providerError, which derives the code from the status.
 */
export function providerFailure(prefix: string, message: string | undefined, code: ErrorCode): GatewayError {
  return new GatewayError(code, withPrefix(prefix, message && redactText(message)), { reason: 'PROVIDER_FAILURE' });
}

/** A provider body as text, for messages that embed "the response body/data" (PAGSTAR's payout failures are exactly that). */
export function bodyText(body: unknown): string {
  if (body === undefined || body === null) return '';
  if (typeof body === 'string') return body;
  try {
    return JSON.stringify(body) ?? String(body);
  } catch {
    return String(body);
  }
}

/** ROYALTY (doc 2 §8): 'Royalty <operation> erro <status>: <body>'. */
export function royaltyErrorMessage(operation: string, status: number | string, body: unknown): string {
  // The body as the provider sent it, less the card data and credentials it may echo.
  return `Royalty ${operation} erro ${status}: ${redactText(bodyText(body))}`;
}

/** The spec's 'Payment method not supported by {provider}' (doc 3 §8). */
export function paymentMethodNotSupportedBy(provider: string): string {
  return `Payment method not supported by ${provider}`;
}

/** FastSoft and ByNet (doc 3 §8): 'Payment method X not implemented for FastSoft'. */
export function paymentMethodNotImplementedFor(method: string, provider: string): string {
  return `Payment method ${method} not implemented for ${provider}`;
}

/**
 * Bravive (doc 3 §8): "'Bravive API Error' with the provider message, with
 * (Withdraw) or (Get Withdraw) suffix". The exact arrangement is not shown:
 * 'Bravive API Error (Withdraw): <message>' is the one chosen.
 */
export function braviveApiErrorMessage(message: string, operation?: 'Withdraw' | 'Get Withdraw'): string {
  const prefix = { Withdraw: FAILURE_PREFIXES.BRAVIVE_API_ERROR_WITHDRAW, 'Get Withdraw': FAILURE_PREFIXES.BRAVIVE_API_ERROR_GET_WITHDRAW };
  return withPrefix(operation ? prefix[operation] : FAILURE_PREFIXES.BRAVIVE_API_ERROR, redactText(message));
}

/** Rapdyn (doc 3 §8): the withdraw failure followed by the response data. */
export function rapdynWithdrawErrorMessage(responseData: unknown): string {
  return withPrefix(FAILURE_PREFIXES.RAPDYN_WITHDRAW, redactText(bodyText(responseData)));
}

/** Browser upload texts (doc 1 §8), not errors of the server; kept here so the spec's texts live in one module. */
export const UPLOAD_MESSAGES = {
  SUCCESS: 'Upload realizado com sucesso!',
  FAILURE: 'Houve um erro ao tentar realizar o upload, contate o suporte',
} as const;
