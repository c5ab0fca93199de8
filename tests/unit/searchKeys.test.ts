import { expect, it } from '@jest/globals';
import { documentKey, emailKey, searchedDocument, searchedEmail } from '../../server/domain/searchKeys.js';

it('keeps a document as its digits and an e-mail in lower case, so a charge is found however they were typed', () => {
  expect(documentKey('123.456.789-09')).toBe('12345678909');
  expect(documentKey('12345678909')).toBe('12345678909');
  expect(documentKey('')).toBeUndefined();
  expect(documentKey('sem número')).toBeUndefined();
  expect(documentKey(undefined)).toBeUndefined();
  expect(emailKey('  Maria@Example.COM ')).toBe('maria@example.com');
  expect(emailKey('   ')).toBeUndefined();
  expect(emailKey(undefined)).toBeUndefined();
});

it('reads a search text as a document only when it is digits and punctuation, and as an e-mail only with an @', () => {
  expect(searchedDocument('11.222.333/0001-81')).toBe('11222333000181');
  // An order id with digits in it is not a document.
  expect(searchedDocument('A-123')).toBeUndefined();
  expect(searchedEmail('Maria@Example.com')).toBe('maria@example.com');
  expect(searchedEmail('maria')).toBeUndefined();
});
