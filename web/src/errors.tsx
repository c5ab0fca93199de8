import { Alert } from '@mantine/core';
import { ConnectError } from '@connectrpc/connect';
import { BadRequestSchema } from '../../gen/es/google/rpc/error_details_pb.js';
import { errorText } from './errorText.js';
import { useI18n } from './i18n.js';

/** A failed call's field violations (google.rpc.BadRequest), by the last segment of the field path. */
export function fieldViolations(error: unknown): Record<string, string> {
  if (!error) return {};
  const violations: Record<string, string> = {};
  for (const detail of ConnectError.from(error).findDetails(BadRequestSchema))
    for (const violation of detail.fieldViolations) {
      const field = violation.field.split('.').pop() ?? violation.field;
      violations[field] = violations[field] ? `${violations[field]}; ${violation.description}` : violation.description;
    }
  return violations;
}

/** A failed call's message: the catalogue's text for its ErrorInfo reason where it has one, else as the gateway wrote it. */
export function ErrorAlert({ error }: { error: unknown }) {
  const { t } = useI18n();
  if (!error) return null;
  return (
    <Alert color="red" role="alert" data-testid="error">
      {errorText(error, t.errorReasons)}
    </Alert>
  );
}
