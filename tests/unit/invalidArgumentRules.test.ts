import { expect, it } from '@jest/globals';
import { callArguments } from '../support/callArguments.js';
import { sourcesUnder } from '../support/layering.js';

/**
 * Issue 33 §8: no INVALID_ARGUMENT reaches a client without the rule it broke, so that the back-office can say it in
 * its own language. Read from server/'s sources: every `invalidArgument(field, message, rule)` names a rule (the
 * type requires it; this catches an `as any` or a cast around it), and every INVALID_ARGUMENT built by hand names a
 * reason with its own text, or a rule.
 */
const sources = () => [...sourcesUnder(process.cwd(), 'server')].filter(([file]) => file !== 'server/lib/errors.ts');

/** Built by hand without a reason, where no operator meets it: each with why. */
const WITHOUT_RULE: Readonly<Record<string, string>> = {
  // The sign-in endpoint's plain JSON answer to a body that is not {"email", "password"}: the back-office's sign-in
  // form always sends one, and the answer carries no field violation a rule could travel in.
  'server/transport/connect/operatorSessions.ts': 'a sign-in body that is not a small JSON object',
};

it('finds the calls it checks', () => {
  const calls = sources().flatMap(([, source]) => callArguments(source, 'invalidArgument('));
  expect(calls.length).toBeGreaterThan(150);
});

it('every invalidArgument(...) in server/ names the rule broken', () => {
  const withoutRule = sources().flatMap(([file, source]) =>
    callArguments(source, 'invalidArgument(')
      .filter(({ args }) => args.length < 3 || !args[2])
      .map(({ at }) => `${file}:${source.slice(0, at).split('\n').length}`),
  );
  expect(withoutRule).toEqual([]);
});

it('every INVALID_ARGUMENT built by hand names a reason or a rule', () => {
  const withoutRule = sources().flatMap(([file, source]) =>
    callArguments(source, "new GatewayError('INVALID_ARGUMENT'")
      .filter(({ args }) => !/\b(?:reason|fieldRule)\b|^\{\s*\.\.\./.test(args[2] ?? '') && !Object.hasOwn(WITHOUT_RULE, file))
      .map(({ at }) => `${file}:${source.slice(0, at).split('\n').length}`),
  );
  expect(withoutRule).toEqual([]);
});

it('catches a call without a rule, a multi-line one and a hand-built one', () => {
  const source = [
    "throw invalidArgument('a', 'a is wrong');",
    "throw invalidArgument(\n  'b',\n  `b is ${'wrong, really'}`,\n);",
    "throw invalidArgument('c', 'c, (wrong)', 'INVALID_VALUE');",
    "throw new GatewayError('INVALID_ARGUMENT', 'd', { field: 'd' });",
  ].join('\n');
  expect(callArguments(source, 'invalidArgument(').map(({ args }) => args.length)).toEqual([2, 2, 3]);
  expect(callArguments(source, "new GatewayError('INVALID_ARGUMENT'")[0]?.args).toEqual(['', "''", "{ field: '' }"]);
});
