/**
 * @payment-gateway/checkout: the browser side of card payments. It sends the card fields a buyer typed in the
 * merchant's checkout page straight to the gateway (CreateCardToken, with the merchant's publishable key) and hands
 * back a card token, so the card goes from the buyer's browser to the gateway and never through the merchant's
 * servers; the merchant's server charges the token (CreateTransaction) with its own service token.
 *
 * No dependencies: Connect's JSON protocol over fetch. The gateway serves it built, at /checkout/checkout.js.
 */

/** The card as the buyer typed it. Spaces and dashes in the number are dropped. */
export interface CardFields {
  number: string;
  holderName: string;
  /** The holder's CPF or CNPJ. */
  holderDocument: string;
  /** Two digits. */
  expMonth: string;
  /** Two digits (or four: the last two are sent). */
  expYear: string;
  cvv: string;
}

export interface CheckoutOptions {
  /** The gateway's Connect address, e.g. https://gateway.example. */
  gatewayUrl: string;
  /** A publishable key (gwpk_…) of the provider account, made for this page's origin. */
  publishableKey: string;
  providerAccountId: string;
}

/** A refusal: the gateway's code (`invalid_argument`, `permission_denied`, `resource_exhausted`, …) and its text. */
export class CheckoutError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'CheckoutError';
  }
}

const TOKENIZE_PATH = '/gateway.v1.PaymentGatewayService/CreateCardToken';

const digits = (value: string) => value.replace(/[\s.-]/g, '');

export interface Checkout {
  /** The card token for these fields; throws a CheckoutError when the gateway refuses them. */
  tokenize(card: CardFields): Promise<string>;
}

export function createCheckout(options: CheckoutOptions): Checkout {
  const url = options.gatewayUrl.replace(/\/+$/, '') + TOKENIZE_PATH;
  return {
    async tokenize(card) {
      let answer: Response;
      try {
        answer = await fetch(url, {
          method: 'POST',
          // No cookies: the key is the credential, and the gateway allows none cross-origin.
          credentials: 'omit',
          headers: { 'content-type': 'application/json', 'connect-protocol-version': '1', authorization: `Bearer ${options.publishableKey}` },
          body: JSON.stringify({
            providerAccountId: options.providerAccountId,
            card: {
              cardNumber: digits(card.number),
              holderName: card.holderName.trim(),
              holderDocument: digits(card.holderDocument),
              expMonth: card.expMonth.trim().padStart(2, '0'),
              expYear: card.expYear.trim().slice(-2),
              cvv: card.cvv.trim(),
            },
          }),
        });
      } catch {
        throw new CheckoutError('unavailable', 'could not reach the payment gateway; check the connection and try again');
      }
      const body = (await answer.json().catch(() => ({}))) as { cardToken?: string; code?: string; message?: string };
      if (answer.ok && body.cardToken) return body.cardToken;
      throw new CheckoutError(body.code ?? 'unknown', body.message ?? `the payment gateway answered HTTP ${answer.status}`);
    },
  };
}

/**
 * The card fields of a form: inputs marked `data-card="number"`, `"holder-name"`, `"holder-document"`,
 * `"exp-month"`, `"exp-year"` and `"cvv"`. Give those inputs no `name`, so the form never submits them to the
 * merchant's server.
 */
export function readCardFields(root: ParentNode): CardFields {
  const field = (name: string) => {
    const input = root.querySelector<HTMLInputElement>(`[data-card="${name}"]`);
    if (!input) throw new CheckoutError('invalid_argument', `the page has no input with data-card="${name}"`);
    return input.value;
  };
  return {
    number: field('number'),
    holderName: field('holder-name'),
    holderDocument: field('holder-document'),
    expMonth: field('exp-month'),
    expYear: field('exp-year'),
    cvv: field('cvv'),
  };
}

export interface ProviderScript {
  /** The script's address, as the provider gives it. */
  src: string;
  /** The global the script defines when it has loaded. */
  global: string;
  /** The text of the error when it never does. */
  failureMessage: string;
  /** How many times it is looked for (and loaded again after a failed load); 10 by default. */
  attempts?: number;
  /** Between two looks; 100 ms by default. */
  intervalMs?: number;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Loads a provider's own card script into the page, for providers whose API takes a card encrypted by it: looks for
 * its global up to `attempts` times, `intervalMs` apart, adding the script again whenever the previous load failed;
 * then fails with `failureMessage`.
 */
export async function loadProviderScript(script: ProviderScript): Promise<unknown> {
  const scope = globalThis as unknown as Record<string, unknown>;
  let loading: HTMLScriptElement | undefined;
  let failed = true;
  for (let attempt = 0; attempt < (script.attempts ?? 10); attempt++) {
    if (scope[script.global]) return scope[script.global];
    if (failed) {
      loading?.remove();
      failed = false;
      loading = document.createElement('script');
      loading.src = script.src;
      loading.async = true;
      loading.onerror = () => (failed = true);
      document.head.append(loading);
    }
    await pause(script.intervalMs ?? 100);
  }
  if (scope[script.global]) return scope[script.global];
  throw new CheckoutError('unavailable', script.failureMessage);
}

/** The specification's failure text for Witetec's card script (document 002, §8). */
export const SHIELD_HELPER_FAILURE = 'Falha ao carregar o ShieldHelper';

/**
 * Witetec's card script, `ShieldHelper` (document 002, §5: loaded from the provider into the page, retried up to 10
 * times at 100 ms intervals). Its address is the one Witetec gives the merchant. What it encrypts goes to the
 * merchant's server as the transaction's `card_id`.
 */
export const loadShieldHelper = (src: string): Promise<unknown> =>
  loadProviderScript({ src, global: 'ShieldHelper', failureMessage: SHIELD_HELPER_FAILURE, attempts: 10, intervalMs: 100 });
