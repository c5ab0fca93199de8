import type { AuthStyle } from '../lib/http/index.js';
import { DeclaredAdapter } from './kit/declaredAdapter.js';
import type { ProviderRegistry } from './registry.js';

/**
 * The provider catalogue (docs/providers.md), rendered from the registered
 * adapters' declarations so it cannot drift from the code: `npm run
 * docs:providers` writes it, and a test fails when the file is stale.
 */

const DAY = 86_400;
const HOUR = 3_600;

function duration(seconds: number): string {
  if (seconds % DAY === 0) return `${seconds / DAY} day${seconds === DAY ? '' : 's'}`;
  if (seconds % HOUR === 0) return `${seconds / HOUR} h`;
  return `${seconds} s`;
}

const key = (ref: unknown): string => (typeof ref === 'string' ? ref : 'a part of a packed key');

function describeAuth(auth: AuthStyle, headers: readonly string[], session?: string): string {
  const base = (() => {
    switch (auth.type) {
      case 'none':
        return 'none';
      case 'bearer':
        return `Bearer (${key(auth.token ?? 'secretKey')})`;
      case 'basic':
        return `Basic (${key(auth.username ?? 'publicKey')}:${auth.password === 'empty' ? '' : typeof auth.password === 'function' ? 'fixed' : key(auth.password ?? 'secretKey')})`;
      case 'apiKey':
        return `header \`${auth.header}\``;
      case 'oauth2':
        return `OAuth2 client credentials (\`${auth.tokenPath}\`)`;
    }
  })();
  // A login session's token replaces the declared auth where there is none (Veltrax), or joins it (Witetec's payouts).
  const withSession = session ? (auth.type === 'none' ? `login \`${session}\` → Bearer` : `${base}; login \`${session}\` → Bearer`) : base;
  return headers.length ? `${withSession}; ${headers.map((name) => `\`${name}\``).join(', ')}` : withSession;
}

const cell = (text: string): string => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

export function renderProviderCatalogue(registry: ProviderRegistry): string {
  const rows = registry
    .list()
    .filter((adapter): adapter is DeclaredAdapter => adapter instanceof DeclaredAdapter)
    .map((adapter) => {
      const { identity, capabilities, family } = adapter;
      const { auth, headers, money, pixSeconds, boletoSeconds, cardReceivableSeconds, sources } = adapter.catalogue;
      const session = 'session' in adapter.catalogue ? String(adapter.catalogue.session) : undefined;
      const methods = capabilities.paymentMethods.join(', ') || '—';
      const payouts = capabilities.withdrawMethods.join(', ') || '—';
      const validity = [
        capabilities.paymentMethods.includes('PIX') ? `PIX ${duration(pixSeconds)}` : '',
        capabilities.paymentMethods.includes('BILLET') ? `boleto ${duration(boletoSeconds)}` : '',
        capabilities.paymentMethods.includes('CREDIT_CARD') && cardReceivableSeconds !== undefined ? `card receivable ${duration(cardReceivableSeconds)}` : '',
      ]
        .filter(Boolean)
        .join(', ');
      const name = identity.aliases.length ? `${identity.id} (${identity.aliases.join(', ')})` : identity.id;
      return `| ${[name, identity.specGroup, family, methods, payouts, adapter.operations.join(', '), describeAuth(auth, headers, session), money, validity || '—', sources].map(cell).join(' | ')} |`;
    });
  return [
    '# Provider catalogue',
    '',
    "<!-- Generated from the providers' declarations by `npm run docs:providers`; do not edit by hand (a test fails when it is stale). -->",
    '',
    'The providers the gateway registers, what each supports, and where each request and response shape came from. "Spec" is the specification the gateway is built from (its documents 1–3); "research" is the public material on each provider\'s API gathered for it (official documentation, SDKs and public integrations); "the family\'s dialect" or "the gateway\'s decision" means neither shows the shape (written down in `docs/decisions.md`).',
    '',
    '| provider | spec group | family | payment methods | payouts | operations | auth | money | validity | shapes from |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}
