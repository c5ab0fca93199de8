/**
 * The banks ABMEXSPLIT's marketplaces may be paid to (spec doc 2 §5: "bank
 * code must be in the supported list"), as data. The spec says the list has 28
 * entries and shows only some of them (doc 2 §9; doc 1 §3 says the same of "a
 * second, smaller list of 28 entries"); no public material on ABMEXSPLIT's API
 * exists (provider research, groups 1–2). So the list holds only what the
 * spec shows, each entry with its source:
 * - §9 "codes such as 001, 033, 077, 104, 237, 260, 341, 756";
 * - §5's branch-digit rule names 036, 246 and 204 besides 001 and 237: a rule
 *   for a bank the list refused could never apply, so those are supported too.
 * The other 17 entries are unknown: a receiver at one of those banks is
 * refused with the spec's 'Banco não suportado, tente outro.' until its code is
 * added here (one line each, with its source). Recorded in docs/decisions.md.
 * Names are the banks' registered names at the Banco Central (compensation codes).
 */
export const ABMEXSPLIT_SUPPORTED_BANKS: Readonly<Record<string, { name: string; source: 'doc 2 §9' | 'doc 2 §5' }>> = {
  '001': { name: 'Banco do Brasil S.A.', source: 'doc 2 §9' },
  '033': { name: 'Banco Santander (Brasil) S.A.', source: 'doc 2 §9' },
  '036': { name: 'Banco Bradesco BBI S.A.', source: 'doc 2 §5' },
  '077': { name: 'Banco Inter S.A.', source: 'doc 2 §9' },
  '104': { name: 'Caixa Econômica Federal', source: 'doc 2 §9' },
  '204': { name: 'Banco Bradesco Cartões S.A.', source: 'doc 2 §5' },
  '237': { name: 'Banco Bradesco S.A.', source: 'doc 2 §9' },
  '246': { name: 'Banco ABC Brasil S.A.', source: 'doc 2 §5' },
  '260': { name: 'Nu Pagamentos S.A. - Instituição de Pagamento', source: 'doc 2 §9' },
  '341': { name: 'Itaú Unibanco S.A.', source: 'doc 2 §9' },
  '756': { name: 'Banco Cooperativo Sicoob S.A.', source: 'doc 2 §9' },
};

/** How many entries the spec says the full list has (doc 2 §9). */
export const ABMEXSPLIT_SUPPORTED_BANKS_IN_SPEC = 28;

/** Doc 2 §5: "a branch digit above 0 is not allowed for banks 001, 036, 246, 204, 237". */
export const BANKS_WITHOUT_BRANCH_DIGIT: ReadonlySet<string> = new Set(['001', '036', '246', '204', '237']);
