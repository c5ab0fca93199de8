import { describe, expect, it } from '@jest/globals';
import { packParts, unpackParts } from '../../../web/src/credentialKeys.js';

describe("a packed key's parts in the provider account form", () => {
  it("joins the parts with '|' and drops optional parts left empty at the end", () => {
    expect(packParts(['client', 'chave'])).toBe('client|chave');
    expect(packParts(['client', ''])).toBe('client');
    expect(packParts(['', 'chave'])).toBe('|chave');
    expect(packParts(['', ''])).toBe('');
  });

  it('cuts a stored key into as many parts as the provider names, the last keeping any extra', () => {
    expect(unpackParts('client|chave', 2)).toEqual(['client', 'chave']);
    expect(unpackParts('client', 2)).toEqual(['client', '']);
    expect(unpackParts('', 3)).toEqual(['', '', '']);
    expect(unpackParts('a|b|c', 2)).toEqual(['a', 'b|c']);
  });
});
