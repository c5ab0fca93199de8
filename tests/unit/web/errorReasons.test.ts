import { expect, it } from '@jest/globals';
import { callArguments } from '../../support/callArguments.js';
import { sourcesUnder } from '../../support/layering.js';
import { CATALOGUE } from '../../../server/lib/providerMessages.js';
import { EN_ERROR_REASONS, PT_ERROR_REASONS } from '../../../web/src/errorReasons.js';

/**
 * Issue 33 §8: every ErrorInfo reason the gateway can send an operator has a text in both of the back-office's
 * languages. The reasons are read from server/'s sources: written as `reason: 'X'` (or a union of them), passed to the
 * helpers that build one (a dispute's failedPrecondition, the credentials' configurationError, ProviderCallError), and
 * the codes of errors that name no reason (the transports send the code as the reason then).
 */
const REASON_PATTERNS = [
  /reason\??:\s*((?:'[A-Z][A-Z0-9_]+'\s*\|?\s*)+)/g,
  /\b(?:failedPrecondition|configurationError)\(\s*'([A-Z][A-Z0-9_]+)'/g,
  /new ProviderCallError\(\s*'[A-Z_]+',\s*'([A-Z][A-Z0-9_]+)'/g,
];

/** The code of each `new GatewayError('CODE', …)` that names no reason: no details, or details written out without one. */
function codesWithoutReason(source: string): string[] {
  const codes: string[] = [];
  for (const { at, args } of callArguments(source, 'new GatewayError(')) {
    const code = /^\s*'([A-Z_]+)'/.exec(source.slice(at + 'new GatewayError('.length))?.[1];
    const details = args[2];
    if (code && (!details || (details.startsWith('{') && !/\breason\b/.test(details)))) codes.push(code);
  }
  return codes;
}

function emittedReasons(): Map<string, string> {
  const reasons = new Map<string, string>();
  for (const [file, source] of sourcesUnder(process.cwd(), 'server')) {
    for (const pattern of REASON_PATTERNS)
      for (const match of source.matchAll(pattern)) for (const [reason] of match[1]!.matchAll(/[A-Z][A-Z0-9_]+/g)) reasons.set(reason, file);
    for (const code of codesWithoutReason(source)) reasons.set(code, file);
  }
  return reasons;
}

/**
 * Reasons that never reach the back-office, or whose message is the specification's own text (which stays as the
 * gateway wrote it, in the specification's language). Each with why.
 */
const WITHOUT_TEXT: Readonly<Record<string, string>> = {
  BAD_SIGNATURE: "the webhook sidecar's answer to a provider",
  CALLER_GONE: 'answered to a caller that already left',
  UNAUTHENTICATED: 'the back-office answers it with the sign-in form',
  // Met by a service token only: the back-office's operators have two-step verification and a password.
  FAILED_PRECONDITION: "the bare code of 'only an operator signed in to the back-office has …'",
  // Bad input: its BadRequest violation names the rule broken (FieldRule), whose text (PT_FIELD_RULES) the back-office
  // shows beside the field and in the alert; a text for the code alone would hide the rule.
  INVALID_ARGUMENT: "the gateway's rule for the field",
  UNAUTHORIZED: "the specification's 'Unauthorized.'",
  CLIENT_CERTIFICATE_MISSING: "the specification's 'Unauthorized.' for a platform without a certificate",
  CREDENTIALS_MISSING: "the specification's texts for an account's keys ('Credenciais não configuradas', …)",
  CREDENTIALS_FORMAT: "the specification's texts for an account's keys ('Formato de credenciais inválido. Use: …')",
  // A failed provider call: the specification's prefix ('Erro ao criar transação: …') and the provider's own words
  // (its message, or what it answered). The gateway's own words after the prefix (an open circuit, a redirect, a
  // certificate) have texts.
  PROVIDER_UNAVAILABLE: 'provider failure',
  PROVIDER_REJECTED_REQUEST: 'provider failure',
  PROVIDER_REJECTED_CREDENTIALS: 'provider failure',
  PROVIDER_NOT_FOUND: 'provider failure',
  PROVIDER_CONFLICT: 'provider failure',
  PROVIDER_FAILURE: 'provider failure',
  PROVIDER_REFUND_RULE: 'provider failure',
  PROVIDER_BAD_RESPONSE: 'provider failure',
};

/** The specification's error catalogue: its keys are reasons whose texts are the specification's. */
const isSpecificationText = (reason: string): boolean => Object.hasOwn(CATALOGUE, reason);

it('finds the reasons the gateway emits, through each way of writing one', () => {
  const reasons = emittedReasons();
  // One of each: a literal, a union, a dispute helper, a ProviderCallError, a code standing for a missing reason.
  for (const reason of ['LOCKED_OUT', 'CREDENTIALS_FORMAT', 'DISPUTE_CLOSED', 'PROVIDER_CIRCUIT_OPEN', 'FAILED_PRECONDITION'])
    expect(reasons.has(reason)).toBe(true);
  expect(reasons.size).toBeGreaterThan(60);
});

it.each([
  ['pt', PT_ERROR_REASONS],
  ['en', EN_ERROR_REASONS],
])('every reason an operator can meet has a %s text', (_, texts) => {
  const missing = [...emittedReasons()]
    .filter(([reason]) => !Object.hasOwn(WITHOUT_TEXT, reason) && !isSpecificationText(reason) && !texts[reason])
    .map(([reason, file]) => `${reason} (${file})`);
  expect(missing).toEqual([]);
});

it('the allow-list names only reasons still emitted, and none that has a text', () => {
  const reasons = emittedReasons();
  expect(Object.keys(WITHOUT_TEXT).filter((reason) => !reasons.has(reason))).toEqual([]);
  expect(Object.keys(WITHOUT_TEXT).filter((reason) => PT_ERROR_REASONS[reason] || EN_ERROR_REASONS[reason])).toEqual([]);
});

it('both languages have texts for the same reasons, quoting the same values', () => {
  const values = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();
  expect(Object.keys(EN_ERROR_REASONS).sort()).toEqual(Object.keys(PT_ERROR_REASONS).sort());
  for (const [reason, text] of Object.entries(PT_ERROR_REASONS)) expect([reason, values(EN_ERROR_REASONS[reason]!)]).toEqual([reason, values(text)]);
});
