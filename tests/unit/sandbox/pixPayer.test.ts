import { describe, expect, it } from '@jest/globals';
import { SANDBOX_BANK_NAME, SANDBOX_ISPB, sandboxEndToEndId, sandboxPixPayment } from '../../../server/sandbox/pixPayer.js';

describe("the SANDBOX PSP's PIX payer", () => {
  const at = new Date('2026-11-29T08:05:41.123Z');

  it('forms the end-to-end id as the Banco Central does: E, the ISPB, yyyyMMddHHmm in UTC, 11 alphanumerics', () => {
    const id = sandboxEndToEndId(at);
    expect(id).toMatch(/^E99999999202611290805[A-Za-z0-9]{11}$/);
    expect(id).toHaveLength(32);
    expect(sandboxEndToEndId(at)).not.toBe(id);
  });

  it("is the charge's customer, the document as digits, at the sandbox's bank", () => {
    expect(sandboxPixPayment(at, { name: ' Maria Souza ', document: '529.982.247-25' }).payer).toEqual({
      name: 'Maria Souza',
      document: '52998224725',
      bankIspb: SANDBOX_ISPB,
      bankName: SANDBOX_BANK_NAME,
    });
  });

  it.each([
    ['no customer', undefined],
    ['a customer without a document', { name: 'Maria' }],
    ['a customer without a name', { name: '  ', document: '52998224725' }],
  ])('is the sandbox payer for %s', (_case, customer) => {
    expect(sandboxPixPayment(at, customer).payer).toEqual({
      name: 'Pagador Sandbox',
      document: '52998224725',
      bankIspb: '99999999',
      bankName: 'Banco Sandbox',
    });
  });
});
