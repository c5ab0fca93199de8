import { useEffect, useMemo, useState } from 'react';
import { PasswordInput, Stack, TextInput } from '@mantine/core';
import type { CertificateField, CredentialKey } from '../../gen/es/gateway/v1/types_pb.js';
import { packParts, unpackParts } from './credentialKeys.js';
import { UploadPurpose } from '../../gen/es/gateway/v1/upload_service_pb.js';
import { useI18n } from './i18n.js';
import { DocumentUpload } from './upload.js';
import { CERTIFICATE_RULES } from './uploadRules.js';

/** Where a provider declares nothing: both keys, whole, neither marked required (as the form always asked). */
const UNDECLARED = [
  { field: 'public_key', required: false, parts: [] },
  { field: 'secret_key', required: false, parts: [] },
] as const;

interface Props {
  /** The provider's declared keys (ProviderInfo.credential_keys); empty or unknown: both keys, whole. */
  keys: readonly CredentialKey[] | undefined;
  publicKey: string;
  secretKey: string;
  onPublicKey: (value: string) => void;
  onSecretKey: (value: string) => void;
  /** Editing an account: the secret's stored state is said, and a blank secret keeps it. */
  secretState?: string;
  violations: Record<string, string>;
}

/**
 * The account's two keys as its provider names them: a packed key is asked part by part under the provider's names
 * (clientId, apiKey, …) and stored joined by '|'; a key the provider does not need is marked optional.
 */
export function CredentialInputs({ keys, publicKey, secretKey, onPublicKey, onSecretKey, secretState, violations }: Props) {
  const { t } = useI18n();
  const declared = keys?.length ? keys : UNDECLARED;
  const optionalOf = (key: { required: boolean }) => (keys?.length && !key.required ? t.accounts.optional : undefined);

  return declared.map((key) => {
    const secret = key.field === 'secret_key';
    const label = secret ? t.accounts.secretKey : t.accounts.publicKey;
    const value = secret ? secretKey : publicKey;
    const onChange = secret ? onSecretKey : onPublicKey;
    const Input = secret ? PasswordInput : TextInput;
    const hint = [optionalOf(key), secret ? secretState : undefined].filter(Boolean).join('. ') || undefined;
    // Required only where leaving it blank is refused: a blank secret keeps the stored one when editing.
    const needed = key.required && !(secret && secretState);
    if (!key.parts.length)
      return (
        <Input
          key={key.field}
          label={label}
          description={hint}
          autoComplete="off"
          value={value}
          onChange={(e) => onChange(e.currentTarget.value)}
          error={violations[key.field]}
          required={needed}
        />
      );
    const values = unpackParts(value, key.parts.length);
    return key.parts.map((part, index) => (
      <Input
        key={`${key.field}-${part.name}`}
        label={part.name}
        description={[t.accounts.partOf(label, index + 1, key.parts.length), part.optional ? t.accounts.optional : undefined, index === 0 ? hint : undefined]
          .filter(Boolean)
          .join('. ')}
        autoComplete="off"
        value={values[index]}
        onChange={(e) => onChange(packParts(values.map((before, at) => (at === index ? e.currentTarget.value : before))))}
        error={index === 0 ? violations[key.field] : undefined}
        required={needed && !part.optional}
      />
    ));
  });
}

/**
 * The account's certificate addresses, by their field names, and the addresses of their private keys when uploaded as
 * files of their own ('' when the certificate's file holds its key).
 */
export type CertificateUrls = Record<'cert_cash_in_url' | 'cert_cash_out_url' | 'cert_cash_in_key_url' | 'cert_cash_out_key_url', string>;

const CERTIFICATE_NAMES = ['cert_cash_in_url', 'cert_cash_out_url', 'cert_cash_in_key_url', 'cert_cash_out_key_url'] as const;

/**
 * The client certificates a provider declares (ProviderInfo.certificate_fields), each asked as the address of its
 * file, as the API takes it, or as the file itself: uploaded to the gateway's store as a certificate (private, read by
 * the gateway through presigned links), its address then fills the field. A certificate handed out as a .crt and a
 * .key takes the key as a second upload beside it: the gateway checks the key is the certificate's and joins the two
 * when the account is saved. Nothing for a provider that uses none.
 * `onBusy` says whether a certificate is being uploaded (the form waits for its address).
 */
export function CertificateInputs({
  fields,
  values,
  onChange,
  onBusy,
  violations,
}: {
  fields: readonly CertificateField[] | undefined;
  values: CertificateUrls;
  onChange: (field: keyof CertificateUrls, value: string) => void;
  onBusy: (busy: boolean) => void;
  violations: Record<string, string>;
}) {
  const { t } = useI18n();
  const [busy, setBusy] = useState<Partial<Record<keyof CertificateUrls, boolean>>>({});
  const uploading = Object.values(busy).some(Boolean);
  useEffect(() => onBusy(uploading), [uploading, onBusy]);
  // Stable per field, so that an upload's effects do not re-run on every keystroke.
  const busyHandlers = useMemo(
    () =>
      Object.fromEntries(
        CERTIFICATE_NAMES.map((name) => [name, (now: boolean) => setBusy((previous) => (previous[name] === now ? previous : { ...previous, [name]: now }))]),
      ) as Record<keyof CertificateUrls, (busy: boolean) => void>,
    [],
  );
  return (fields ?? []).map(({ field, required }) => {
    const name = field as 'cert_cash_in_url' | 'cert_cash_out_url';
    const cashIn = name === 'cert_cash_in_url';
    const keyName = cashIn ? 'cert_cash_in_key_url' : 'cert_cash_out_key_url';
    return (
      <Stack key={name} gap={6}>
        <TextInput
          label={cashIn ? t.accounts.certCashInUrl : t.accounts.certCashOutUrl}
          description={[required ? undefined : t.accounts.optional, t.accounts.certificateHint].filter(Boolean).join('. ')}
          type="url"
          autoComplete="off"
          value={values[name]}
          onChange={(e) => onChange(name, e.currentTarget.value)}
          error={violations[name]}
          required={required}
        />
        <DocumentUpload
          label={cashIn ? t.accounts.certCashInFile : t.accounts.certCashOutFile}
          description={t.accounts.certificateFileHint}
          purpose={UploadPurpose.CERTIFICATE}
          rules={CERTIFICATE_RULES}
          onUploaded={(url) => url && onChange(name, url)}
          onBusy={busyHandlers[name]}
        />
        <DocumentUpload
          label={cashIn ? t.accounts.certCashInKeyFile : t.accounts.certCashOutKeyFile}
          description={t.accounts.certificateKeyFileHint}
          purpose={UploadPurpose.CERTIFICATE}
          rules={CERTIFICATE_RULES}
          error={violations[keyName]}
          onUploaded={(url) => onChange(keyName, url ?? '')}
          onBusy={busyHandlers[keyName]}
        />
      </Stack>
    );
  });
}
