import { describe, expect, it } from '@jest/globals';
import { formBody } from '../../../../server/lib/http/index.js';

describe('formBody', () => {
  it('flattens nested objects and arrays in bracket notation, in order, and leaves out undefined and null', () => {
    const form = formBody({
      amount: 1990,
      capture: false,
      description: undefined,
      note: null,
      customer: { name: 'Ana Souza', phone: undefined },
      split_rules: [{ recipient: 'r1', amount: 500 }, { recipient: 'r2' }],
    });
    expect(form.toString()).toBe(
      'amount=1990&capture=false&customer%5Bname%5D=Ana+Souza&split_rules%5B0%5D%5Brecipient%5D=r1&split_rules%5B0%5D%5Bamount%5D=500&split_rules%5B1%5D%5Brecipient%5D=r2',
    );
  });

  it('is empty for no fields', () => {
    expect(formBody({}).toString()).toBe('');
  });
});
