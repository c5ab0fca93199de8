import type { AuthStyle } from '../lib/http/index.js';
import type { EvidenceLevel, ProviderEvidence } from './adapter.js';
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

/** How the catalogue words each level of evidence (server/providers/adapter.ts). */
const EVIDENCE_WORDS: Record<EvidenceLevel, string> = {
  documented: 'documented',
  platform: 'platform',
  unverified: 'unverified',
  'third-party': 'third-party',
  'specification-only': 'specification-only',
  'built-in': 'built-in',
};

function describeEvidence({ level, addresses }: ProviderEvidence): string {
  return addresses.length ? `${EVIDENCE_WORDS[level]}: ${addresses.map((address) => `<${address}>`).join(', ')}` : EVIDENCE_WORDS[level];
}

/** How many registered providers stand on each level of evidence, in the catalogue's order (the README quotes it). */
export function evidenceCounts(registry: ProviderRegistry): Array<[EvidenceLevel, number]> {
  const levels = Object.keys(EVIDENCE_WORDS) as EvidenceLevel[];
  return levels.map((level) => [level, registry.list().filter((adapter) => adapter.evidence.level === level).length]);
}

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
      const evidence = describeEvidence(adapter.evidence);
      const [defaultVersion, ...otherVersions] = adapter.apiVersions;
      const dialects = defaultVersion
        ? `${family}; api_version \`${defaultVersion}\` (default), ${otherVersions.map((name) => `\`${name}\``).join(', ')}`
        : family;
      // A dispute's defence is outside the contract's operations, but the catalogue says who takes one through its API.
      const operations = [...adapter.operations, ...(capabilities.disputeDefense ? ['submitDisputeDefense'] : [])].join(', ');
      return `| ${[name, identity.specGroup, dialects, evidence, methods, payouts, operations, describeAuth(auth, headers, session), money, validity || '—', sources].map(cell).join(' | ')} |`;
    });
  return [
    '# Provider catalogue',
    '',
    "<!-- Generated from the providers' declarations by `npm run docs:providers`; do not edit by hand (a test fails when it is stale). -->",
    '',
    'The providers the gateway registers, what each supports, and where each request and response shape came from. "Spec" is the specification the gateway is built from (its documents 1–3); "research" is the public material on each provider\'s API gathered for it (official documentation, SDKs and public integrations); "the family\'s dialect" or "the gateway\'s decision" means neither shows the shape (written down in `docs/decisions.md`).',
    '',
    "The evidence column says what each adapter stands on. **documented**: a stand-in written from the provider's own public documentation or SDK (its addresses given) runs in the test suite (`tests/standins/`) and passes, driven end to end through the gateway's contract; **platform**: the same, from the documentation of the white-label platform the provider runs on; **unverified**: the provider's documentation (or its platform's) exists, but no stand-in written from it runs yet; **third-party**: no documentation of the provider's own could be found or read, so public third-party material (integration code, or the documentation of a platform the provider is only thought to run on, named in the sources column) shaped the adapter and there is nothing of the provider's to verify it against; **specification-only**: no public material exists, so bodies are readings of the specification and the host is a placeholder; **built-in**: the gateway's own SANDBOX.",
    '',
    `Counts: ${evidenceCounts(registry)
      .filter(([, count]) => count > 0)
      .map(([level, count]) => `${EVIDENCE_WORDS[level]} ${count}`)
      .join(', ')}.`,
    '',
    '| provider | spec group | family | evidence | payment methods | payouts | operations | auth | money | validity | shapes from |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}
