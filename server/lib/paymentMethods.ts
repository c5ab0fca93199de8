import { GatewayError } from './errors.js';
import { catalogueError, paymentMethodNotImplementedFor, paymentMethodNotSupportedBy, type CatalogueKey } from './providerMessages.js';

/**
 * A provider's names for our payment methods, both ways. Reading is
 * case-insensitive and on own keys only, so a provider's 'PIX', 'Pix' or
 * 'constructor' cannot surprise it; `aliases` are further names the provider
 * answers with ('billet', 'card').
 */
export interface PaymentMethodCodec<M extends string, P extends string> {
  toProvider(method: M): P;
  /** Undefined for a name the provider should not send. */
  fromProvider(name: unknown): M | undefined;
}

/** `M` is our method vocabulary (the domain's PaymentMethod; the toolkit does not import the domain). */
export function paymentMethodCodec<M extends string, const P extends string>(
  names: Readonly<Record<M, P>>,
  aliases: Readonly<Record<string, M>> = {},
): PaymentMethodCodec<M, P> {
  const reverse: Record<string, M> = {};
  for (const [name, method] of Object.entries(aliases) as Array<[string, M]>) reverse[name.toLowerCase()] = method;
  for (const [method, name] of Object.entries(names) as Array<[M, P]>) reverse[name.toLowerCase()] = method;
  return {
    toProvider: (method) => names[method],
    fromProvider: (name) => {
      const key = typeof name === 'string' ? name.trim().toLowerCase() : '';
      return key && Object.hasOwn(reverse, key) ? reverse[key] : undefined;
    },
  };
}

/**
 * The payment-method guard, in one place for the gateway and every adapter: a
 * method the provider does not offer is UNIMPLEMENTED with the provider's text
 * from the catalogue where the spec gives one ('Unsupported payment method' at
 * GATYWAY; FastSoft's and ByNet's 'Payment method X not implemented for
 * <name>'), else 'Payment method not supported by <provider>' (doc 3 §8).
 */
export function assertPaymentMethodOffered<M extends string>(
  offered: readonly M[],
  method: M,
  provider: string,
  text?: CatalogueKey | { notImplementedFor: string },
): void {
  if (offered.includes(method)) return;
  const field = 'transaction.payment_method';
  const details = { reason: 'PAYMENT_METHOD_NOT_SUPPORTED', field };
  if (typeof text === 'string') throw new GatewayError('UNIMPLEMENTED', catalogueError(text).message, details);
  if (text) throw new GatewayError('UNIMPLEMENTED', paymentMethodNotImplementedFor(method, text.notImplementedFor), details);
  throw new GatewayError('UNIMPLEMENTED', paymentMethodNotSupportedBy(provider), details);
}
