import { useMemo, useState, type FormEvent, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { Alert, Anchor, Button, Card, Group, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { createConnectQueryKey, useMutation, useQuery } from '@connectrpc/connect-query';
import { useQueryClient } from '@tanstack/react-query';
import { PaymentGatewayService } from '../../../gen/es/gateway/v1/payment_gateway_service_pb.js';
import { DocumentType, Operation } from '../../../gen/es/gateway/v1/types_pb.js';
import { ErrorAlert, useFieldViolations } from '../errors.js';
import { documentKind, formatDocument, parseCents } from '../format.js';
import { useI18n, type Messages } from '../i18n.js';
import { ACCOUNT_TYPES, RECEIVER_DOCUMENTS } from '../receivers.js';
import { DocumentUpload } from '../upload.js';
import { useProviderAccounts } from '../ui.js';

const PERSON = { name: '', document: '', email: '', description: '', userId: '', monthlyRevenue: '' };
const BANK = { bankCode: '', branchNumber: '', branchDigit: '', accountNumber: '', accountDigit: '', accountType: '', pixCode: '' };
const ADDRESS = { zipcode: '', street: '', number: '', district: '', city: '', state: '' };
type TextLabel = keyof Messages['receivers'];

/** A field's name in the gateway's field violations: `userId` is `user_id`. */
const snake = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
const filled = (values: Record<string, string>) => Object.values(values).some((value) => value.trim() !== '');

/**
 * A new receiver at a provider account that creates them (its provider lists
 * CreateReceiver): the person, the bank account, the address and the
 * verification documents of document 1 §5, each uploaded from the browser
 * first; the public URLs go into the request. The gateway's refusals are shown
 * beside their fields.
 */
export default function NewReceiver() {
  const { t } = useI18n();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const providers = useQuery(PaymentGatewayService.method.listProviders, {});
  const accounts = useProviderAccounts();
  const [account, setAccount] = useState<string | null>(null);
  const [person, setPerson] = useState(PERSON);
  const [bank, setBank] = useState(BANK);
  const [address, setAddress] = useState(ADDRESS);
  const [urls, setUrls] = useState<Partial<Record<string, string>>>({});
  const [busy, setBusy] = useState<Record<string, boolean>>({});
  const [badRevenue, setBadRevenue] = useState(false);
  const create = useMutation(PaymentGatewayService.method.createReceiver, {
    onSuccess: async ({ receiver }) => {
      // Receivers produce no events: the list is told here that it has a new one.
      await queryClient.invalidateQueries({ queryKey: createConnectQueryKey({ schema: PaymentGatewayService.method.listReceivers, cardinality: undefined }) });
      void navigate(`/receivers/${receiver?.id ?? ''}`);
    },
  });
  const violations = useFieldViolations(create.error);
  // Stable per document, so that an upload's effects do not re-run on every keystroke.
  const handlers = useMemo(
    () =>
      Object.fromEntries(
        RECEIVER_DOCUMENTS.map(({ field }) => [
          field,
          {
            onUploaded: (url: string | undefined) => setUrls((previous) => ({ ...previous, [field]: url })),
            onBusy: (uploading: boolean) => setBusy((previous) => (previous[field] === uploading ? previous : { ...previous, [field]: uploading })),
          },
        ]),
      ),
    [],
  );

  const creators = new Set((providers.data?.providers ?? []).filter((p) => p.operations.includes(Operation.CREATE_RECEIVER)).map((p) => p.id));
  const options = (accounts.data?.providerAccounts ?? [])
    .filter((a) => creators.has(a.provider))
    .map((a) => ({ value: a.id, label: `${a.name} (${a.provider})` }));
  const kind = documentKind(person.document);
  const documents = RECEIVER_DOCUMENTS.filter((document) => !document.cnpjOnly || kind === 'CNPJ');
  const uploading = Object.values(busy).some(Boolean);

  function submit(event: FormEvent) {
    event.preventDefault();
    const revenue = person.monthlyRevenue.trim() ? parseCents(person.monthlyRevenue) : 0n;
    setBadRevenue(revenue === null);
    if (revenue === null || uploading) return;
    const sent = Object.fromEntries(documents.flatMap(({ field }) => (urls[field] ? [[field, urls[field]]] : [])));
    create.mutate({
      providerAccountId: account ?? '',
      receiver: {
        name: person.name,
        document: person.document,
        documentType: kind === 'CPF' ? DocumentType.CPF : kind === 'CNPJ' ? DocumentType.CNPJ : DocumentType.UNSPECIFIED,
        email: person.email,
        description: person.description,
        userId: person.userId,
        monthlyRevenue: revenue,
        bankAccount: filled(bank) ? bank : undefined,
        address: filled(address) ? address : undefined,
        documents: Object.keys(sent).length > 0 ? sent : undefined,
      },
    });
  }

  /** A text input bound to one field of a group, with its label and the gateway's violation of it. */
  function text<V extends Record<string, string>>(values: V, set: (next: V) => void, name: keyof V & string, label: TextLabel, extra: object = {}) {
    return (
      <TextInput
        key={name}
        label={t.receivers[label]}
        value={values[name]}
        onChange={(e) => set({ ...values, [name]: e.currentTarget.value })}
        error={violations[snake(name)]}
        {...extra}
      />
    );
  }

  const shown = [
    'provider_account_id',
    'bank_account',
    'address',
    ...[PERSON, BANK, ADDRESS].flatMap((group) => Object.keys(group).map(snake)),
    ...documents.map((document) => document.violation),
  ];
  const otherError = create.error && !shown.some((field) => violations[field]);

  return (
    <>
      <Anchor component={Link} to="/receivers" size="sm">
        ← {t.receivers.back}
      </Anchor>
      <Title order={1} my="md">
        {t.receivers.create}
      </Title>
      <ErrorAlert error={providers.error ?? accounts.error} />
      <form onSubmit={submit} noValidate>
        <Stack>
          <Section title={t.receivers.person}>
            <Select
              label={t.receivers.account}
              data={options}
              value={account ?? null}
              onChange={setAccount}
              error={violations.provider_account_id}
              description={accounts.isSuccess && providers.isSuccess && options.length === 0 ? t.receivers.noAccounts : undefined}
              required
            />
            {text(person, setPerson, 'name', 'name', { required: true, autoComplete: 'name' })}
            {text(person, setPerson, 'document', 'document', {
              required: true,
              inputMode: 'numeric',
              description: kind ? `${kind}: ${formatDocument(person.document)}` : undefined,
            })}
            {text(person, setPerson, 'email', 'email', { type: 'email', autoComplete: 'email' })}
            {text(person, setPerson, 'description', 'description')}
            {text(person, setPerson, 'userId', 'userId')}
            {text(person, setPerson, 'monthlyRevenue', 'monthlyRevenue', {
              inputMode: 'decimal',
              placeholder: '0,00',
              error: badRevenue ? t.detail.badAmount : violations.monthly_revenue,
            })}
          </Section>

          <Section title={t.receivers.bankAccount} error={violations.bank_account}>
            {text(bank, setBank, 'bankCode', 'bankCode', { inputMode: 'numeric' })}
            {text(bank, setBank, 'branchNumber', 'branchNumber', { inputMode: 'numeric' })}
            {text(bank, setBank, 'branchDigit', 'branchDigit')}
            {text(bank, setBank, 'accountNumber', 'accountNumber', { inputMode: 'numeric' })}
            {text(bank, setBank, 'accountDigit', 'accountDigit')}
            <Select
              label={t.receivers.accountType}
              data={ACCOUNT_TYPES.map((type) => ({ value: type, label: t.receivers[type] }))}
              value={bank.accountType || null}
              onChange={(value) => setBank({ ...bank, accountType: value ?? '' })}
              error={violations.account_type}
              clearable
            />
            {text(bank, setBank, 'pixCode', 'pixCode')}
          </Section>

          <Section title={t.receivers.address} error={violations.address}>
            {text(address, setAddress, 'zipcode', 'zipcode', { inputMode: 'numeric', autoComplete: 'postal-code' })}
            {text(address, setAddress, 'street', 'street', { autoComplete: 'address-line1' })}
            {text(address, setAddress, 'number', 'number')}
            {text(address, setAddress, 'district', 'district')}
            {text(address, setAddress, 'city', 'city', { autoComplete: 'address-level2' })}
            {text(address, setAddress, 'state', 'state', { maxLength: 2, autoComplete: 'address-level1' })}
          </Section>

          <Section title={t.receivers.documents} hint={t.receivers.documentsHint}>
            {documents.map(({ field, label, violation }) => (
              <DocumentUpload key={field} label={t.receivers[label]} error={violations[violation]} {...handlers[field]!} />
            ))}
          </Section>

          {otherError && <ErrorAlert error={create.error} />}
          <Group justify="flex-end">
            {uploading && <Text size="sm">{t.receivers.uploading}</Text>}
            <Button type="submit" loading={create.isPending} disabled={uploading}>
              {t.receivers.submit}
            </Button>
          </Group>
        </Stack>
      </form>
    </>
  );
}

function Section({ title, hint, error, children }: { title: string; hint?: string; error?: string; children: ReactNode }) {
  return (
    <Card withBorder role="group" aria-label={title}>
      <Title order={2} size="h4" mb="xs">
        {title}
      </Title>
      {hint && (
        <Text size="sm" c="dimmed" mb="xs">
          {hint}
        </Text>
      )}
      {error && (
        <Alert color="red" role="alert" mb="xs">
          {error}
        </Alert>
      )}
      <div className="form-grid">{children}</div>
    </Card>
  );
}
