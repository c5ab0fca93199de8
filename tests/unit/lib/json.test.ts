import { expect, it } from '@jest/globals';
import { identifiedObject, unwrapped } from '../../../server/lib/json.js';

it('unwraps the first wrapper holding an object, else keeps the answer; a non-object is nothing', () => {
  expect(unwrapped({ _body: 'x', data: { id: 1 } }, ['_body', 'data'])).toEqual({ id: 1 });
  expect(unwrapped({ _body: { id: 2 }, data: { id: 1 } }, ['_body', 'data'])).toEqual({ id: 2 });
  expect(unwrapped({ id: 3, data: [1] }, ['data'])).toEqual({ id: 3, data: [1] });
  for (const odd of [null, 'html', [], 7]) expect(unwrapped(odd, ['data'])).toBeUndefined();
});

it('reads an object with its id (first key present, numbers as text) and status; without either it is not the resource', () => {
  expect(identifiedObject({ data: { transactionId: 42, status: ' PAID ', amount: 1 } }, ['data'], ['id', 'transactionId'])).toEqual({
    transactionId: 42,
    id: '42',
    status: 'PAID',
    amount: 1,
  });
  expect(identifiedObject({ id: 'a', status: 'x' }, [])).toMatchObject({ id: 'a', status: 'x' });
  for (const odd of [{ id: 'a' }, { status: 'paid' }, { id: ' ', status: 'paid' }, { id: 'a', status: 3 }, {}, null])
    expect(identifiedObject(odd, ['data'])).toBeUndefined();
});
