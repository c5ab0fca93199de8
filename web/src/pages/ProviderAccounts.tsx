import { useState, type FormEvent } from 'react';
import { Alert, Badge, Button, Group, Modal, PasswordInput, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { createConnectQueryKey, useMutation, useQuery } from '@connectrpc/connect-query';
import { useQueryClient } from '@tanstack/react-query';
import { ConnectionVerdict, ProviderAccountService, type ProviderAccount } from '../../../gen/es/gateway/v1/provider_account_service_pb.js';
import { PaymentGatewayService } from '../../../gen/es/gateway/v1/payment_gateway_service_pb.js';
import { ErrorAlert, useFieldViolations } from '../errors.js';
import { useI18n } from '../i18n.js';
import { Copy, TableHead, useProviderAccounts, scrollable } from '../ui.js';
import { draftOf, InstallmentPlanFields, readDraft, samePlan } from '../installmentPlan.js';
import { RoleNote } from '../operations/Section.js';
import { CertificateInputs, CredentialInputs, type CertificateUrls } from '../credentialInputs.js';

/** What is being edited: a new account, an existing one, or nothing. */
type Editing = { account?: ProviderAccount } | null;

/**
 * Provider accounts: list, and for admins create, edit, delete and test the connection. Secrets are write-only: the
 * page only knows whether each is set.
 */
export default function ProviderAccounts({ canAdmin }: { canAdmin: boolean }) {
  const { t } = useI18n();
  const accounts = useProviderAccounts();
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<ProviderAccount | null>(null);
  const [tested, setTested] = useState<ProviderAccount | null>(null);
  const test = useMutation(ProviderAccountService.method.testProviderAccount);

  function testConnection(account: ProviderAccount) {
    setTested(account);
    test.mutate({ id: account.id });
  }

  return (
    <>
      <Group justify="space-between" mb="md">
        <Title order={1}>{t.nav.accounts}</Title>
        {canAdmin && <Button onClick={() => setEditing({})}>{t.accounts.create}</Button>}
      </Group>
      {!canAdmin && <RoleNote text={t.accounts.noAdmin} />}
      <ErrorAlert error={accounts.error} />
      {tested && <ConnectionResult name={tested.name} verdict={test.data?.verdict} detail={test.data?.detail} error={test.error} />}
      <div className="table-scroll" {...scrollable(t.nav.accounts)}>
        <Table data-testid="accounts-table" striped>
          <TableHead
            columns={[
              t.accounts.name,
              t.accounts.provider,
              t.accounts.publicKey,
              t.accounts.secretKey,
              t.accounts.webhookSecret,
              t.accounts.notificationUrl,
              ...(canAdmin ? [t.accounts.actions] : []),
            ]}
          />
          <Table.Tbody>
            {accounts.data?.providerAccounts.map((a) => (
              <Table.Tr key={a.id} data-id={a.id}>
                <Table.Td>
                  <strong>{a.name}</strong>
                  <Text size="xs" c="dimmed">
                    {a.id}
                  </Text>
                </Table.Td>
                <Table.Td>{a.provider}</Table.Td>
                <Table.Td>{a.publicKey}</Table.Td>
                <Table.Td>
                  <SecretState set={a.hasSecretKey} />
                </Table.Td>
                <Table.Td>
                  <SecretState set={a.hasWebhookSecret} />
                </Table.Td>
                <Table.Td>
                  {a.notificationUrl && (
                    <Group gap="xs" wrap="nowrap">
                      <Text size="xs" className="url">
                        {a.notificationUrl}
                      </Text>
                      <Copy value={a.notificationUrl} what={`${t.accounts.notificationUrl} ${a.name}`} />
                    </Group>
                  )}
                </Table.Td>
                {canAdmin && (
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
                      <Button size="xs" variant="default" onClick={() => setEditing({ account: a })} aria-label={`${t.edit} ${a.name}`}>
                        {t.edit}
                      </Button>
                      <Button
                        size="xs"
                        variant="light"
                        onClick={() => testConnection(a)}
                        loading={test.isPending && tested?.id === a.id}
                        aria-label={`${t.accounts.testConnection} ${a.name}`}
                      >
                        {t.accounts.testConnection}
                      </Button>
                      <Button size="xs" color="red" variant="light" onClick={() => setDeleting(a)} aria-label={`${t.delete} ${a.name}`}>
                        {t.delete}
                      </Button>
                    </Group>
                  </Table.Td>
                )}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </div>
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing?.account ? t.accounts.edit : t.accounts.create}
        lockScroll={false}
        closeButtonProps={{ 'aria-label': t.close }}
      >
        {editing && <AccountForm account={editing.account} onDone={() => setEditing(null)} />}
      </Modal>
      <Modal
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        title={t.accounts.confirmDelete}
        lockScroll={false}
        closeButtonProps={{ 'aria-label': t.close }}
      >
        {deleting && <DeleteAccount account={deleting} onDone={() => setDeleting(null)} />}
      </Modal>
    </>
  );
}

/** The last "Testar conexão": its verdict in the page's language and, when not OK, what the provider said. */
function ConnectionResult({ name, verdict, detail, error }: { name: string; verdict?: ConnectionVerdict; detail?: string; error: unknown }) {
  const { t } = useI18n();
  if (error) return <ErrorAlert error={error} />;
  const color = verdict === ConnectionVerdict.OK ? 'green' : verdict === ConnectionVerdict.INCONCLUSIVE ? 'yellow' : 'red';
  return (
    <Alert color={verdict === undefined ? 'gray' : color} role="status" title={t.accounts.verdictOf(name)} mb="md" data-testid="connection-result">
      {verdict === undefined ? (
        t.accounts.testing(name)
      ) : (
        <>
          <Text size="sm">{t.accounts.verdicts[verdict]}</Text>
          {detail && (
            <Text size="xs" mt="xs" data-testid="connection-detail">
              {t.accounts.providerSaid} {detail}
            </Text>
          )}
        </>
      )}
    </Alert>
  );
}

function SecretState({ set }: { set: boolean }) {
  const { t } = useI18n();
  return (
    <Badge color={set ? 'green' : 'gray'} variant="light">
      {set ? t.accounts.set : t.accounts.notSet}
    </Badge>
  );
}

function useRefreshAccounts() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: createConnectQueryKey({ schema: ProviderAccountService, cardinality: undefined }) });
}

function AccountForm({ account, onDone }: { account?: ProviderAccount; onDone: () => void }) {
  const { t } = useI18n();
  const refresh = useRefreshAccounts();
  const providers = useQuery(PaymentGatewayService.method.listProviders, {});
  const [provider, setProvider] = useState<string | null>(null);
  const [name, setName] = useState(account?.name ?? '');
  const [publicKey, setPublicKey] = useState(account?.publicKey ?? '');
  const [secretKey, setSecretKey] = useState('');
  const [webhookSecret, setWebhookSecret] = useState('');
  const [baseUrl, setBaseUrl] = useState(account?.baseUrl ?? '');
  const [platformId, setPlatformId] = useState(account?.platformId ?? '');
  // As the account answers them: without their query, which the gateway takes back as "unchanged".
  const [certificates, setCertificates] = useState<CertificateUrls>({
    cert_cash_in_url: account?.certCashInUrl ?? '',
    cert_cash_out_url: account?.certCashOutUrl ?? '',
    cert_cash_in_key_url: '',
    cert_cash_out_key_url: '',
  });
  // A certificate file on its way to the store: its address is not in the form yet.
  const [uploadingCertificate, setUploadingCertificate] = useState(false);
  const [apiVersion, setApiVersion] = useState<string | null>(account?.apiVersion ?? null);
  // The dialects the chosen provider speaks, the default (the specification's) first; none when it has only one.
  const providerInfo = providers.data?.providers.find((p) => p.id === (account?.provider ?? provider));
  const apiVersions = providerInfo?.apiVersions ?? [];
  // Where the gateway quotes installments from the account's own plan (a card provider that quotes none itself).
  const takesPlan = providerInfo?.takesInstallmentPlan ?? false;
  const [planDraft, setPlanDraft] = useState(() => draftOf(account?.installmentPlan));
  const [planErrors, setPlanErrors] = useState<Record<string, true>>({});
  const options = { onSuccess: () => void refresh().then(onDone) };
  const create = useMutation(ProviderAccountService.method.createProviderAccount, options);
  const update = useMutation(ProviderAccountService.method.updateProviderAccount, options);
  const mutation = account ? update : create;
  const violations = useFieldViolations(mutation.error);
  const changed = (value: string, before: string | undefined) => (value !== (before ?? '') ? value : undefined);
  // "Testar conexão" of what is typed, before it is saved: the gateway stores nothing and answers a verdict.
  const test = useMutation(ProviderAccountService.method.testProviderAccount);
  const [testedName, setTestedName] = useState<string | null>(null);

  /** The connection settings as typed: for an edit only what changed (blank secrets keep the stored ones), as a save sends them. */
  function connection() {
    if (account)
      return {
        publicKey: changed(publicKey, account.publicKey),
        // Blank secrets keep the stored ones: the page never has them to send back.
        secretKey: secretKey || undefined,
        baseUrl: changed(baseUrl, account.baseUrl),
        platformId: changed(platformId, account.platformId),
        certCashInUrl: changed(certificates.cert_cash_in_url, account.certCashInUrl),
        certCashOutUrl: changed(certificates.cert_cash_out_url, account.certCashOutUrl),
        apiVersion: changed(apiVersion ?? '', account.apiVersion),
      };
    return {
      publicKey,
      secretKey,
      baseUrl: baseUrl || undefined,
      platformId: platformId || undefined,
      certCashInUrl: certificates.cert_cash_in_url || undefined,
      certCashOutUrl: certificates.cert_cash_out_url || undefined,
      apiVersion: apiVersion || undefined,
    };
  }

  // A certificate's key uploaded as a file of its own: joined with its certificate by the gateway when the account is saved.
  const keyFiles = {
    certCashInKeyUrl: certificates.cert_cash_in_key_url || undefined,
    certCashOutKeyUrl: certificates.cert_cash_out_key_url || undefined,
  };

  function testTyped() {
    setTestedName(name || account?.name || provider || '');
    test.mutate({ id: account?.id ?? '', candidate: { provider: account ? '' : (provider ?? ''), ...connection(), ...keyFiles } });
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const { plan, errors } = takesPlan ? readDraft(planDraft) : { plan: null, errors: {} };
    setPlanErrors(errors);
    if (Object.keys(errors).length) return;
    if (account)
      update.mutate({
        id: account.id,
        name: changed(name, account.name),
        webhookSecret: webhookSecret || undefined,
        ...connection(),
        ...keyFiles,
        // An empty plan removes the account's; an unchanged one is not sent.
        installmentPlan: !takesPlan || samePlan(plan, account.installmentPlan) ? undefined : (plan ?? {}),
      });
    else
      create.mutate({
        provider: provider ?? '',
        name,
        webhookSecret: webhookSecret || undefined,
        ...connection(),
        ...keyFiles,
        installmentPlan: plan ?? undefined,
      });
  }

  const shownViolations = [
    'provider',
    'name',
    'public_key',
    'secret_key',
    'webhook_secret',
    'base_url',
    'platform_id',
    'cert_cash_in_url',
    'cert_cash_out_url',
    'api_version',
    ...(takesPlan ? ['installment_plan', 'max_installments', 'interest_free_installments', 'fee_percent_by_installment', 'min_installment_value'] : []),
  ];
  const otherError = mutation.error && !shownViolations.some((field) => violations[field]);

  return (
    <form onSubmit={submit}>
      <Stack>
        {!account && (
          <Select
            label={t.accounts.provider}
            data={(providers.data?.providers ?? []).map((p) => p.id)}
            value={provider}
            onChange={setProvider}
            error={violations.provider}
            searchable
            required
          />
        )}
        <TextInput label={t.accounts.name} value={name} onChange={(e) => setName(e.currentTarget.value)} error={violations.name} required />
        <CredentialInputs
          keys={providerInfo?.credentialKeys}
          publicKey={publicKey}
          secretKey={secretKey}
          onPublicKey={setPublicKey}
          onSecretKey={setSecretKey}
          secretState={account ? `${account.hasSecretKey ? t.accounts.set : t.accounts.notSet}. ${t.accounts.secretHint}` : undefined}
          violations={violations}
        />
        <PasswordInput
          label={t.accounts.webhookSecret}
          description={account ? `${account.hasWebhookSecret ? t.accounts.set : t.accounts.notSet}. ${t.accounts.secretHint}` : undefined}
          autoComplete="off"
          value={webhookSecret}
          onChange={(e) => setWebhookSecret(e.currentTarget.value)}
          error={violations.webhook_secret}
        />
        <TextInput label={t.accounts.baseUrl} type="url" value={baseUrl} onChange={(e) => setBaseUrl(e.currentTarget.value)} error={violations.base_url} />
        <TextInput label={t.accounts.platformId} value={platformId} onChange={(e) => setPlatformId(e.currentTarget.value)} error={violations.platform_id} />
        <CertificateInputs
          fields={providerInfo?.certificateFields}
          values={certificates}
          onChange={(field, value) => setCertificates((before) => ({ ...before, [field]: value }))}
          onBusy={setUploadingCertificate}
          violations={violations}
        />
        {apiVersions.length > 0 && (
          <Select
            label={t.accounts.apiVersion}
            description={t.accounts.apiVersionHint}
            placeholder={apiVersions[0]}
            data={apiVersions}
            value={apiVersion}
            onChange={setApiVersion}
            error={violations.api_version}
            clearable
          />
        )}
        {takesPlan && <InstallmentPlanFields draft={planDraft} onChange={setPlanDraft} errors={planErrors} violations={violations} />}
        {otherError && <ErrorAlert error={mutation.error} />}
        {testedName !== null && <ConnectionResult name={testedName} verdict={test.data?.verdict} detail={test.data?.detail} error={test.error} />}
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            {t.cancel}
          </Button>
          <Button variant="light" onClick={testTyped} loading={test.isPending} disabled={uploadingCertificate || (!account && !provider)}>
            {t.accounts.testConnection}
          </Button>
          <Button type="submit" loading={mutation.isPending} disabled={uploadingCertificate}>
            {t.save}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function DeleteAccount({ account, onDone }: { account: ProviderAccount; onDone: () => void }) {
  const { t } = useI18n();
  const refresh = useRefreshAccounts();
  const remove = useMutation(ProviderAccountService.method.deleteProviderAccount, { onSuccess: () => void refresh().then(onDone) });
  return (
    <Stack>
      <Text>
        {account.name} ({account.provider})
      </Text>
      <ErrorAlert error={remove.error} />
      <Group justify="flex-end">
        <Button variant="default" onClick={onDone}>
          {t.cancel}
        </Button>
        <Button color="red" loading={remove.isPending} onClick={() => remove.mutate({ id: account.id })}>
          {t.delete}
        </Button>
      </Group>
    </Stack>
  );
}
