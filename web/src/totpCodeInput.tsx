import { TextInput } from '@mantine/core';
import { useI18n } from './i18n.js';

/** The 6-digit code of an authenticator app: numeric keyboard on phones, and the one-time-code autofill. */
export function TotpCodeInput({
  value,
  onChange,
  error,
  autoFocus,
}: {
  value: string;
  onChange: (value: string) => void;
  error?: string;
  autoFocus?: boolean;
}) {
  const { t } = useI18n();
  return (
    <TextInput
      label={t.totp.code}
      description={t.totp.codeHint}
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={6}
      required
      autoFocus={autoFocus}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      error={error}
    />
  );
}
