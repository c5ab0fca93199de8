import { expect, it } from '@jest/globals';
import { Code, ConnectError } from '@connectrpc/connect';
import { create } from '@bufbuild/protobuf';
import { ErrorInfoSchema } from '../../../gen/es/google/rpc/error_details_pb.js';
import { errorText } from '../../../web/src/errorText.js';

const reasons = { PAYOUT_SELF_APPROVAL: 'Você não pode aprovar um saque que você mesmo solicitou.' };
const failure = (message: string, reason?: string) =>
  new ConnectError(message, Code.PermissionDenied, undefined, reason ? [{ desc: ErrorInfoSchema, value: create(ErrorInfoSchema, { reason }) }] : []);

it("shows the catalogue's text for an ErrorInfo reason it knows, in the UI's language", () => {
  expect(errorText(failure('permission denied: a payout is approved by another operator', 'PAYOUT_SELF_APPROVAL'), reasons)).toBe(reasons.PAYOUT_SELF_APPROVAL);
});

it("keeps the gateway's own text for a reason the catalogue has no text for, or no reason", () => {
  expect(errorText(failure('Saldo insuficiente', 'PROVIDER_REFUSED'), reasons)).toBe('Saldo insuficiente');
  expect(errorText(failure('withdraw.amount is out of range'), reasons)).toBe('withdraw.amount is out of range');
});

const withMetadata = (message: string, reason: string, metadata: Record<string, string>) =>
  new ConnectError(message, Code.FailedPrecondition, undefined, [{ desc: ErrorInfoSchema, value: create(ErrorInfoSchema, { reason, metadata }) }]);

it("fills a text's values from the ErrorInfo metadata: money from cents in the metadata's currency, minutes and seconds from retryAfterMs", () => {
  const texts = { REFUND_EXCEEDS_CHARGE: 'Só resta {refundable} para estornar.', LOCKED_OUT: 'Tente em {retryAfterMinutes} min ({retryAfterSeconds} s).' };
  expect(errorText(withMetadata('only 3000 cents…', 'REFUND_EXCEEDS_CHARGE', { refundableCents: '3000', currency: 'BRL' }), texts)).toBe(
    'Só resta R$ 30,00 para estornar.',
  );
  expect(errorText(withMetadata('too many failed sign-ins', 'LOCKED_OUT', { retryAfterMs: '61001' }), texts)).toBe('Tente em 2 min (62 s).');
});

it("keeps the gateway's own text when the error lacks a value the catalogue's text quotes", () => {
  const texts = { INVALID_ARGUMENT: 'O campo {field} tem um valor inválido.' };
  expect(errorText(withMetadata('provider_account_id is required', 'INVALID_ARGUMENT', {}), texts)).toBe('provider_account_id is required');
  expect(errorText(withMetadata('amount must be positive', 'INVALID_ARGUMENT', { field: 'amount' }), texts)).toBe('O campo amount tem um valor inválido.');
});
