import { ConnectError } from '@connectrpc/connect';
import { BadRequestSchema, ErrorInfoSchema } from '../../gen/es/google/rpc/error_details_pb.js';
import { formatMoney } from './format.js';

/**
 * The values a catalogue text may quote: the ErrorInfo metadata as sent, and the forms a reader wants of some of
 * them (money from `…Cents` with the metadata's currency; whole minutes and seconds from `retryAfterMs`, rounded up
 * as the gateway rounds them in its own message).
 */
function readableValues(metadata: Readonly<Record<string, string>>): Record<string, string> {
  const values: Record<string, string> = { ...metadata };
  for (const [key, value] of Object.entries(metadata))
    if (key.endsWith('Cents') && /^-?\d+$/.test(value)) values[key.slice(0, -'Cents'.length)] = formatMoney(BigInt(value), metadata.currency);
  const retryAfterMs = Number(metadata.retryAfterMs);
  if (metadata.retryAfterMs && Number.isFinite(retryAfterMs)) {
    values.retryAfterSeconds = String(Math.max(1, Math.ceil(retryAfterMs / 1000)));
    values.retryAfterMinutes = String(Math.max(1, Math.ceil(retryAfterMs / 60_000)));
  }
  return values;
}

/**
 * The catalogue's text for a reason, its `{name}`s filled from the error's metadata; undefined when the catalogue has
 * no text for the reason or the error lacks a value the text needs (the gateway's own message then says it).
 */
export function reasonText(
  reason: string | undefined,
  metadata: Readonly<Record<string, string>>,
  reasons: Readonly<Record<string, string>>,
): string | undefined {
  const template = reason ? reasons[reason] : undefined;
  if (!template) return undefined;
  const values = readableValues(metadata);
  let complete = true;
  const text = template.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (values[name]) return values[name];
    complete = false;
    return '';
  });
  return complete ? text : undefined;
}

/** A failed call's field violations (google.rpc.BadRequest) with the text for each: see fieldViolations. */
function violationTexts(failure: ConnectError, rules: Readonly<Record<string, string>>): { field: string; text: string; ruled: boolean }[] {
  const metadata = failure.findDetails(ErrorInfoSchema)[0]?.metadata ?? {};
  return failure.findDetails(BadRequestSchema).flatMap((detail) =>
    detail.fieldViolations.map((violation) => {
      const ruled = reasonText(violation.reason, metadata, rules);
      return { field: violation.field, text: ruled ?? violation.description, ruled: ruled !== undefined };
    }),
  );
}

/**
 * A failed call's field violations by the last segment of the field path: the catalogue's text, in the UI's
 * language, for the rule a violation names as its reason (REQUIRED, TOO_LONG, …); otherwise the gateway's own
 * description, as for the many rules that have no reason.
 */
export function fieldViolations(error: unknown, rules: Readonly<Record<string, string>>): Record<string, string> {
  if (!error) return {};
  const violations: Record<string, string> = {};
  for (const { field: path, text } of violationTexts(ConnectError.from(error), rules)) {
    const field = path.split('.').pop() ?? path;
    violations[field] = violations[field] ? `${violations[field]}; ${text}` : text;
  }
  return violations;
}

/**
 * A failed call's text for the reader: the catalogue's, in the UI's language, for an ErrorInfo reason it has a
 * text for; for bad input whose one violation names a rule with a text, that text after the field's path (the
 * alert stands away from the field); otherwise the gateway's own message (the specification's texts stay as the
 * gateway wrote them).
 */
export function errorText(error: unknown, reasons: Readonly<Record<string, string>>, rules: Readonly<Record<string, string>> = {}): string {
  const failure = ConnectError.from(error);
  const info = failure.findDetails(ErrorInfoSchema)[0];
  const byReason = reasonText(info?.reason, info?.metadata ?? {}, reasons);
  if (byReason !== undefined) return byReason;
  const violations = violationTexts(failure, rules);
  const only = violations.length === 1 ? violations[0] : undefined;
  return only?.ruled ? `${only.field}: ${only.text}` : failure.rawMessage;
}
