import { Alert } from '@mantine/core';
import { errorText, fieldViolations } from './errorText.js';
import { useI18n } from './i18n.js';

/** A failed call's field violations by the last segment of the field path, in the UI's language where it can (errorText.ts). */
export function useFieldViolations(error: unknown): Record<string, string> {
  const { t } = useI18n();
  return fieldViolations(error, t.fieldRules);
}

/** A failed call's message: the catalogue's text for its ErrorInfo reason or field rule where it has one, else as the gateway wrote it. */
export function ErrorAlert({ error }: { error: unknown }) {
  const { t } = useI18n();
  if (!error) return null;
  return (
    <Alert color="red" role="alert" data-testid="error">
      {errorText(error, t.errorReasons, t.fieldRules)}
    </Alert>
  );
}
