import { describe, expect, it } from '@jest/globals';
import boletoUtils from '@mrmgomes/boleto-utils';
import { barcodeToDigitableLine, buildBarcode, dueDateFactor, isValidDigitableLine } from '../../server/lib/boleto.js';

describe('boleto', () => {
  it('computes the due-date factor, restarting at 1000 after 2025-02-21', () => {
    expect(dueDateFactor(new Date('2000-07-03T12:00:00Z'))).toBe('1000');
    expect(dueDateFactor(new Date('2025-02-21T12:00:00Z'))).toBe('9999');
    expect(dueDateFactor(new Date('2025-02-22T12:00:00Z'))).toBe('1000');
  });

  it('builds digitable lines that an independent validator accepts, with amount and due date', () => {
    const dueDate = new Date('2026-12-01T00:00:00Z');
    const line = barcodeToDigitableLine(buildBarcode({ bankCode: '001', amountCents: 19990, dueDate, freeField: '1234567890123456789012345' }));
    expect(line).toHaveLength(47);
    expect(isValidDigitableLine(line)).toBe(true);
    const checked = boletoUtils.validarBoleto(line);
    expect(checked.sucesso).toBe(true);
    expect(checked.valor).toBe(199.9);
  });

  it('notices a mistyped digit', () => {
    const line = barcodeToDigitableLine(
      buildBarcode({ bankCode: '999', amountCents: 100, dueDate: new Date('2026-12-01T00:00:00Z'), freeField: '0000000000000000000000042' }),
    );
    const mistype = (position: number) => `${line.slice(0, position)}${(Number(line[position]) + 1) % 10}${line.slice(position + 1)}`;
    // A field digit: caught by the field's modulo-10 digit.
    expect(isValidDigitableLine(mistype(12))).toBe(false);
    expect(boletoUtils.validarBoleto(mistype(12)).sucesso).toBe(false);
    // The amount: only the general modulo-11 digit covers it.
    expect(isValidDigitableLine(mistype(40))).toBe(false);
  });
});
