import { describe, expect, it } from '@jest/globals';
import { COMPE_BANKS, bankAccountKind, compensationCode, isListedBank } from '../../../server/lib/banks.js';
import { ABMEXSPLIT_SUPPORTED_BANKS } from '../../../server/providers/abmexsplit/banks.js';

describe('COMPE_BANKS: the bank list of about 70 entries (doc 1 §3)', () => {
  const codes = Object.keys(COMPE_BANKS);

  it('holds about 70 banks, each once, by a three-digit code with a name', () => {
    expect(codes.length).toBeGreaterThanOrEqual(65);
    expect(codes.length).toBeLessThanOrEqual(75);
    expect(new Set(codes).size).toBe(codes.length);
    for (const [code, name] of Object.entries(COMPE_BANKS)) {
      expect(code).toMatch(/^\d{3}$/);
      expect(name.trim().length).toBeGreaterThan(3);
    }
  });

  it("includes the spec's named codes 001, 033, 237, 341, 260, 077, 104", () => {
    expect(codes).toEqual(expect.arrayContaining(['001', '033', '237', '341', '260', '077', '104']));
  });

  it('names the banks by their registered names', () => {
    expect([COMPE_BANKS['001'], COMPE_BANKS['104'], COMPE_BANKS['260'], COMPE_BANKS['756']]).toEqual([
      'Banco do Brasil S.A.',
      'Caixa Econômica Federal',
      'Nu Pagamentos S.A. - Instituição de Pagamento',
      'Banco Cooperativo Sicoob S.A.',
    ]);
  });

  it("agrees with ABMEXSPLIT's list on the codes both hold", () => {
    for (const [code, { name }] of Object.entries(ABMEXSPLIT_SUPPORTED_BANKS))
      if (Object.hasOwn(COMPE_BANKS, code)) expect([code, COMPE_BANKS[code]]).toEqual([code, name]);
  });
});

describe('compensationCode and isListedBank: one reading of a bank code', () => {
  it.each([
    ['1', '001'],
    ['001', '001'],
    [' 33 ', '033'],
    ['341', '341'],
    ['0341', '0341'],
    ['', '000'],
  ])("reads '%s' as %s", (given, code) => {
    expect(compensationCode(given)).toBe(code);
  });

  it('finds a bank of a list whatever the padding, and nothing else', () => {
    expect([isListedBank(COMPE_BANKS, '1'), isListedBank(COMPE_BANKS, '001'), isListedBank(COMPE_BANKS, '999'), isListedBank(COMPE_BANKS, 'toString')]).toEqual(
      [true, true, false, false],
    );
  });
});

describe('bankAccountKind', () => {
  it.each([
    ['checking', 'checking'],
    ['Conta Corrente', 'checking'],
    ['CC', 'checking'],
    ['savings', 'savings'],
    ['Poupança', 'savings'],
    ['conta_poupanca_conjunta', 'savings'],
    ['salary', undefined],
    ['', undefined],
    [undefined, undefined],
    ['constructor', undefined],
  ])("reads '%s' as %s", (given, kind) => {
    expect(bankAccountKind(given)).toBe(kind);
  });
});
