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
