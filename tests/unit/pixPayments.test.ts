import { describe, expect, it } from '@jest/globals';
import { firstStated, pixPaymentColumns, pixPaymentOf, statedPixPayment } from '../../server/domain/pixPayments.js';

describe("a PIX payment's facts as providers state them", () => {
  it('are trimmed and bounded; empty, blank and null ones are left out; none at all is undefined', () => {
    expect(pixPaymentOf({ endToEndId: '  E1  ', payerName: '', payerDocument: '   ', payerBankIspb: null, payerBankName: 'x'.repeat(300) })).toEqual({
      endToEndId: 'E1',
      payerBankName: 'x'.repeat(200),
    });
    expect(pixPaymentOf({ payerName: ' ', payerDocument: null })).toBeUndefined();
    expect(pixPaymentOf(undefined)).toBeUndefined();
    expect(statedPixPayment({ payerName: '' })).toEqual({});
    expect(statedPixPayment({ payerDocument: '123.xxx.xxx-xx' })).toEqual({ pixPayment: { payerDocument: '123.xxx.xxx-xx' } });
  });

  it("take each fact from the first answer that states it (the read's before the notification's)", () => {
    const read = { endToEndId: 'E-read' };
    const notification = { endToEndId: 'E-notification', payerName: 'Ana', payerBankIspb: '18236120' };
    expect(firstStated(read, notification)).toEqual({ endToEndId: 'E-read', payerName: 'Ana', payerBankIspb: '18236120' });
    expect(firstStated(undefined, notification)).toEqual(notification);
    expect(firstStated(undefined, undefined)).toBeUndefined();
  });

  it('are written as five columns in one order, null where not stated', () => {
    expect(pixPaymentColumns({ endToEndId: 'E1', payerBankName: 'Banco' })).toEqual(['E1', null, null, null, 'Banco']);
  });
});
