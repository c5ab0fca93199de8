import { GatewayError, invalidArgument, notFound } from '../lib/errors.js';
import { assertPublicUrl } from '../lib/http/addressPolicy.js';
import { displayUrl } from '../lib/http/clientCertificate.js';
import type { ProviderAccount, ProviderAccountInput, ProviderAccountPatch, ProviderAccountWithSecrets } from '../domain/types.js';
import type { ConnectionTest, ProviderAdapter } from '../providers/adapter.js';
import { adapterContext, notificationUrl, resolveAccount, type GatewayDeps } from './context.js';
import { optionalUrl, requireText } from './validation.js';
import { checkInstallmentPlan } from './installmentPlans.js';

export type { ConnectionTest };

/** Connection settings typed in the account form and not saved ("Testar conexão" before "Salvar"). */
export type ProviderAccountCandidate = Pick<
  ProviderAccountPatch,
  'publicKey' | 'secretKey' | 'baseUrl' | 'platformId' | 'certCashInUrl' | 'certCashOutUrl' | 'apiVersion'
> &
  CertificateKeyFiles & {
    provider?: string;
  };

/** What a candidate for a new account starts from: no stored values. Its id names it in the circuit and the logs. */
const UNSAVED: ProviderAccountWithSecrets = {
  id: 'unsaved-connection-test',
  provider: '',
  name: '',
  publicKey: '',
  hasSecretKey: false,
  secretKey: '',
  hasWebhookSecret: false,
  createdAt: new Date(0),
  updatedAt: new Date(0),
};

export interface ProviderAccountView extends ProviderAccount {
  /** Where this account's provider must send notifications. */
  notificationUrl: string;
}

/**
 * Well-formed http(s) URLs that, unless ALLOW_PRIVATE_PROVIDER_URLS, reach no internal address (the gateway would send
 * the account's secrets there). A certificate in the gateway's own store is trusted wherever the store listens, and
 * must be one uploaded as a certificate (private, under its prefix): any other of its objects may be public; and hold
 * the certificate with its key.
 */
async function checkUrls(input: ProviderAccountPatch, allowInternal: boolean, uploads: GatewayDeps['ownUploads']): Promise<void> {
  const urls = [
    ['base_url', input.baseUrl],
    ['cert_cash_in_url', input.certCashInUrl],
    ['cert_cash_out_url', input.certCashOutUrl],
  ] as const;
  for (const [field, value] of urls) optionalUrl(field, value);
  for (const [field, value] of urls) {
    const ownCertificate = field !== 'base_url' && !!value && !!uploads?.isOwnObject(value);
    if (ownCertificate && !uploads?.isCertificateObject(value))
      throw new GatewayError(
        'FAILED_PRECONDITION',
        `${field} names a file of the gateway's store that was not uploaded as a certificate, so it may be readable by anyone: upload the certificate again as a certificate (UploadService.CreateUploadLink, purpose UPLOAD_PURPOSE_CERTIFICATE)`,
        { reason: 'CERTIFICATE_NOT_PRIVATE', field },
      );
    // What the gateway's store holds it can read now; a file elsewhere is read at the account's first call (Testar conexão).
    if (ownCertificate && value) await uploads?.assertCompleteCertificate(field, value);
    await assertPublicUrl(field, value, { allowInternal: allowInternal || ownCertificate, setting: 'ALLOW_PRIVATE_PROVIDER_URLS' });
  }
}

/** A certificate's private key given as a file of its own, beside the certificate's file (see withJoinedKeys). */
export interface CertificateKeyFiles {
  certCashInKeyUrl?: string;
  certCashOutKeyUrl?: string;
}

const KEY_FILES = [
  { keyField: 'cert_cash_in_key_url', key: 'certCashInKeyUrl', certificateField: 'cert_cash_in_url', certificate: 'certCashInUrl' },
  { keyField: 'cert_cash_out_key_url', key: 'certCashOutKeyUrl', certificateField: 'cert_cash_out_url', certificate: 'certCashOutUrl' },
] as const;

/**
 * The input with each certificate given with its key as two files of the gateway's store replaced by the one file the
 * store joins them into (uploads.joinCertificateFiles), and without the key fields: what follows (checks, the
 * repository, the adapters) sees one certificate file, as when the operator uploads a PEM holding both. A key needs its
 * certificate, uploaded as a certificate too, in the same request.
 */
async function withJoinedKeys<T extends ProviderAccountPatch>(input: T & CertificateKeyFiles, uploads: GatewayDeps['ownUploads']): Promise<T> {
  const { certCashInKeyUrl, certCashOutKeyUrl, ...rest } = input;
  const joined = { ...rest } as T;
  const keys = { certCashInKeyUrl, certCashOutKeyUrl };
  for (const { keyField, key, certificateField, certificate } of KEY_FILES) {
    const keyUrl = keys[key]?.trim();
    if (!keyUrl) continue;
    optionalUrl(keyField, keyUrl);
    const certificateUrl = joined[certificate]?.trim();
    if (!certificateUrl)
      throw invalidArgument(
        certificateField,
        `${keyField} is a certificate's private key: ${certificateField} must name its certificate in the same request`,
        'REQUIRED',
      );
    optionalUrl(certificateField, certificateUrl);
    if (!uploads?.isOwnObject(keyUrl) || !uploads.isOwnObject(certificateUrl) || !uploads.isCertificateObject(certificateUrl))
      throw invalidArgument(
        keyField,
        `${keyField} is taken only with a certificate and a key both uploaded to the gateway's store as certificates (UploadService.CreateUploadLink, purpose UPLOAD_PURPOSE_CERTIFICATE); elsewhere, name one file holding both in ${certificateField}`,
        'NOT_ALLOWED',
      );
    joined[certificate] = (await uploads.joinCertificateFiles(certificateField, certificateUrl, keyField, keyUrl)) as T[typeof certificate];
  }
  return joined;
}

/** An api_version the provider offers (its first is the default, so naming it is allowed too); '' clears it on an update. */
function checkApiVersion(adapter: ProviderAdapter, apiVersion: string | undefined): void {
  if (!apiVersion) return;
  const { apiVersions, identity } = adapter;
  if (!apiVersions.length) throw invalidArgument('api_version', `${identity.id} speaks one API dialect: api_version is not taken`, 'NOT_ALLOWED');
  if (!apiVersions.includes(apiVersion))
    throw invalidArgument('api_version', `api_version must be one of ${apiVersions.join(', ')} for ${identity.id}`, 'UNKNOWN_VALUE');
}

/** A patch's fields that are set: unset ones keep the stored value. */
const setFields = (patch: ProviderAccountPatch) => Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined));

/** Provider account administration. Secrets go in, never come out. */
export class AccountsService {
  constructor(private readonly deps: GatewayDeps) {}

  /**
   * Certificate URLs are shown without their query: a presigned URL's query is
   * a bearer credential for the client certificate and its key. The stored
   * value stays whole for fetching the certificate.
   */
  private view(account: ProviderAccount): ProviderAccountView {
    return {
      ...account,
      certCashInUrl: account.certCashInUrl && displayUrl(account.certCashInUrl),
      certCashOutUrl: account.certCashOutUrl && displayUrl(account.certCashOutUrl),
      notificationUrl: notificationUrl(this.deps.webhookBaseUrl, account.provider, account.id),
    };
  }

  /** A form that sends back the URL it was shown (query hidden) keeps the stored URL instead of losing the query. */
  private async withoutEchoedCertificateUrls(id: string, patch: ProviderAccountPatch): Promise<ProviderAccountPatch> {
    if (patch.certCashInUrl === undefined && patch.certCashOutUrl === undefined) return patch;
    const current = await this.deps.accounts.get(this.deps.db.em(), id);
    if (!current) return patch;
    const echoed = (sent: string | undefined, stored: string | undefined) => sent !== undefined && !!stored && sent !== stored && sent === displayUrl(stored);
    return {
      ...patch,
      certCashInUrl: echoed(patch.certCashInUrl, current.certCashInUrl) ? undefined : patch.certCashInUrl,
      certCashOutUrl: echoed(patch.certCashOutUrl, current.certCashOutUrl) ? undefined : patch.certCashOutUrl,
    };
  }

  async create(given: ProviderAccountInput & CertificateKeyFiles): Promise<ProviderAccountView> {
    const adapter = this.registeredAdapter(given.provider);
    requireText('name', given.name);
    const input = await withJoinedKeys(given, this.deps.ownUploads);
    await checkUrls(input, this.deps.urlPolicy.privateProviderUrls, this.deps.ownUploads);
    checkApiVersion(adapter, input.apiVersion);
    checkInstallmentPlan(adapter, input.installmentPlan);
    adapter.checkAccount(input);
    const { account, event } = await this.deps.accounts.create(this.deps.db.em(), { ...input, provider: adapter.identity.id, name: input.name.trim() });
    this.deps.events.published(event);
    return this.view(account);
  }

  /** The named provider's adapter, or INVALID_ARGUMENT on `provider`. */
  private registeredAdapter(name: string | undefined): ProviderAdapter {
    const provider = requireText('provider', name).toUpperCase();
    const adapter = this.deps.registry.find(provider);
    if (!adapter) throw invalidArgument('provider', `unknown provider ${provider}; ListProviders shows the registered ones`, 'UNKNOWN_VALUE');
    return adapter;
  }

  async get(id: string): Promise<ProviderAccountView> {
    const account = await this.deps.accounts.get(this.deps.db.em(), id);
    if (!account) throw notFound(`provider account ${id} not found`);
    return this.view(account);
  }

  async list(provider?: string): Promise<ProviderAccountView[]> {
    const id = provider ? (this.deps.registry.find(provider)?.identity.id ?? provider.toUpperCase()) : undefined;
    return (await this.deps.accounts.list(this.deps.db.em(), id)).map((account) => this.view(account));
  }

  async update(id: string, given: ProviderAccountPatch & CertificateKeyFiles): Promise<ProviderAccountView> {
    if (given.name !== undefined && !given.name.trim()) throw invalidArgument('name', 'name cannot be empty', 'REQUIRED');
    const patch = await withJoinedKeys(given, this.deps.ownUploads);
    await checkUrls(patch, this.deps.urlPolicy.privateProviderUrls, this.deps.ownUploads);
    const effective = await this.withoutEchoedCertificateUrls(id, patch);
    await this.checkAccountAfter(id, effective);
    const updated = await this.deps.accounts.update(this.deps.db.em(), id, effective);
    if (!updated) throw notFound(`provider account ${id} not found`);
    this.deps.events.published(updated.event);
    return this.view(updated.account);
  }

  /** The account as the patch would leave it, checked by its provider's adapter (keys, formats, certificate URLs). */
  private async checkAccountAfter(id: string, patch: ProviderAccountPatch): Promise<void> {
    const current = await this.deps.accounts.getWithSecrets(this.deps.db.em(), id);
    if (!current) return;
    const adapter = this.deps.registry.find(current.provider);
    const defined = setFields(patch);
    if (adapter) checkApiVersion(adapter, patch.apiVersion);
    if (adapter) checkInstallmentPlan(adapter, patch.installmentPlan);
    adapter?.checkAccount({ ...current, ...defined });
  }

  /** "Testar conexão": the kit's one rule (connectionTest.ts), with the account as stored. */
  async testConnection(id: string): Promise<ConnectionTest> {
    const { adapter, ctx } = await resolveAccount(this.deps, requireText('id', id));
    return adapter.testConnection(ctx);
  }

  /**
   * "Testar conexão" before saving: the same read with the values typed in the form, stored nowhere. With an id they
   * patch the stored account (blank secrets keep the stored ones, as on an update); without, they are a new account.
   * Their URLs pass the checks of a save, since the read sends the secrets there.
   */
  async testCandidate(id: string, candidate: ProviderAccountCandidate): Promise<ConnectionTest> {
    const { provider, ...given } = candidate;
    // A certificate and its key given as two files are joined as a save joins them, so the test presents the pair.
    const typed = await withJoinedKeys(given, this.deps.ownUploads);
    const patch = { ...typed, secretKey: typed.secretKey || undefined };
    await checkUrls(patch, this.deps.urlPolicy.privateProviderUrls, this.deps.ownUploads);
    const stored = id ? await this.deps.accounts.getWithSecrets(this.deps.db.em(), id) : undefined;
    if (id && !stored) throw notFound(`provider account ${id} not found`);
    const adapter = this.registeredAdapter(stored?.provider ?? provider);
    checkApiVersion(adapter, patch.apiVersion);
    const effective = stored ? await this.withoutEchoedCertificateUrls(stored.id, patch) : patch;
    const account: ProviderAccountWithSecrets = { ...(stored ?? UNSAVED), ...setFields(effective), provider: adapter.identity.id };
    adapter.checkAccount(account);
    return adapter.testConnection(adapterContext(this.deps, account, adapter));
  }

  async delete(id: string): Promise<void> {
    const event = await this.deps.accounts.softDelete(this.deps.db.em(), id);
    if (!event) throw notFound(`provider account ${id} not found`);
    this.deps.events.published(event);
  }

  /** The embedded default's ready-made SANDBOX account: the first one, created on first start. */
  async ensureSandboxAccount(secretKey: string, webhookSecret: string): Promise<ProviderAccountView> {
    const [existing] = await this.deps.accounts.list(this.deps.db.em(), 'SANDBOX');
    if (existing) return this.view(existing);
    if (!this.deps.registry.find('SANDBOX'))
      throw new GatewayError('FAILED_PRECONDITION', 'the SANDBOX provider is not registered', { reason: 'PROVIDER_NOT_REGISTERED' });
    return this.create({ provider: 'SANDBOX', name: 'Sandbox', publicKey: 'sandbox', secretKey, webhookSecret });
  }
}
