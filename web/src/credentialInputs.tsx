import { PasswordInput, TextInput } from '@mantine/core';
import type { CertificateField, CredentialKey } from '../../gen/es/gateway/v1/types_pb.js';
import { packParts, unpackParts } from './credentialKeys.js';
import { useI18n } from './i18n.js';

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

/** The account's certificate addresses, by their field names. */
export type CertificateUrls = Record<'cert_cash_in_url' | 'cert_cash_out_url', string>;

/**
 * The client certificates a provider declares (ProviderInfo.certificate_fields), each asked as the address of its
 * file, as the API takes it; nothing for a provider that uses none.
 */
export function CertificateInputs({
  fields,
  values,
  onChange,
  violations,
}: {
  fields: readonly CertificateField[] | undefined;
  values: CertificateUrls;
  onChange: (field: keyof CertificateUrls, value: string) => void;
  violations: Record<string, string>;
}) {
  const { t } = useI18n();
  return (fields ?? []).map(({ field, required }) => {
    const name = field as keyof CertificateUrls;
    return (
      <TextInput
        key={name}
        label={name === 'cert_cash_in_url' ? t.accounts.certCashInUrl : t.accounts.certCashOutUrl}
        description={[required ? undefined : t.accounts.optional, t.accounts.certificateHint].filter(Boolean).join('. ')}
        type="url"
        autoComplete="off"
        value={values[name]}
        onChange={(e) => onChange(name, e.currentTarget.value)}
        error={violations[name]}
        required={required}
      />
    );
  });
}
