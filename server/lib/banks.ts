/**
 * Brazilian banks by compensation code (COMPE), and the bank-account words
 * providers take. Shared by every adapter that checks a receiver's bank
 * (ABMEXSPLIT's 28-entry list of doc 2, PAGARME's list of about 70 of doc 1 §3,
 * IUGU's sub-accounts, whose bank Iugu takes by name),
 * so that a code is read one way everywhere.
 */

/** A compensation code as three digits ('1' → '001', '0341' stays four digits and matches nothing); anything but digits is dropped first. */
export const compensationCode = (code: string): string => code.replace(/\D/g, '').padStart(3, '0');

/** Banks by three-digit compensation code → the bank's registered name. */
export type BankList = Readonly<Record<string, string>>;

/** Whether `code` (as the caller gives it: '1', '001', ' 341 ') names a bank of `banks`. */
export const isListedBank = (banks: BankList, code: string): boolean => Object.hasOwn(banks, compensationCode(code));

/**
 * Document 1 §3's "bank list of about 70 entries (name and compensation code
 * such as 001, 033, 237, 341, 260, 077, 104)" that validates one provider's
 * receivers (PAGARME: docs/decisions.md). The spec shows only those seven
 * codes; the others are banks and payment institutions that hold merchants'
 * accounts (the large retail banks, the state and regional banks, the digital
 * banks and payment institutions, the cooperative banks and centrals), each by
 * its COMPE code and registered name as the Banco Central do Brasil lists its
 * participants ("Relação de participantes do STR", bcb.gov.br; checked against
 * the daily compilation of that list in guibranco/BancosBrasileiros,
 * data/bancos.csv at commit bdff719, 2026-08-22). Adding a bank is one line.
 * Names changed since the spec's time are the current ones: 084 is Sisprime
 * (ex-Uniprime Norte do Paraná), 125 Banco Genial (ex-Plural), 399 Kirton Bank
 * (ex-HSBC Bank Brasil), 403 Cora SCFI (ex-Cora SCD).
 */
export const COMPE_BANKS: BankList = {
  '001': 'Banco do Brasil S.A.',
  '003': 'Banco da Amazônia S.A.',
  '004': 'Banco do Nordeste do Brasil S.A.',
  '021': 'Banestes S.A. Banco do Estado do Espírito Santo',
  '025': 'Banco Alfa S.A.',
  '033': 'Banco Santander (Brasil) S.A.',
  '037': 'Banco do Estado do Pará S.A.',
  '041': 'Banco do Estado do Rio Grande do Sul S.A.',
  '047': 'Banco do Estado de Sergipe S.A.',
  '069': 'Banco Crefisa S.A.',
  '070': 'BRB - Banco de Brasília S.A.',
  '074': 'Banco J. Safra S.A.',
  '077': 'Banco Inter S.A.',
  '079': 'PicPay Bank - Banco Múltiplo S.A.',
  '082': 'Banco Topázio S.A.',
  '084': 'Sisprime do Brasil - Cooperativa de Crédito',
  '085': 'Cooperativa Central de Crédito - Ailos',
  '097': 'Credisis - Central de Cooperativas de Crédito',
  '099': 'Uniprime Central Nacional - Central Nacional de Cooperativa de Crédito',
  '104': 'Caixa Econômica Federal',
  '107': 'Banco Bocom BBM S.A.',
  '121': 'Banco Agibank S.A.',
  '125': 'Banco Genial S.A.',
  '133': 'Cresol Confederação',
  '136': 'Unicred do Brasil',
  '197': 'Stone Instituição de Pagamento S.A.',
  '208': 'Banco BTG Pactual S.A.',
  '212': 'Banco Original S.A.',
  '218': 'Banco BS2 S.A.',
  '224': 'Banco Fibra S.A.',
  '237': 'Banco Bradesco S.A.',
  '246': 'Banco ABC Brasil S.A.',
  '254': 'Paraná Banco S.A.',
  '260': 'Nu Pagamentos S.A. - Instituição de Pagamento',
  '269': 'Banco HSBC S.A.',
  '290': 'PagSeguro Internet Instituição de Pagamento S.A.',
  '318': 'Banco BMG S.A.',
  '323': 'Mercado Pago Instituição de Pagamento Ltda.',
  '329': 'QI Sociedade de Crédito Direto S.A.',
  '332': 'Acesso Soluções de Pagamento S.A. - Instituição de Pagamento',
  '335': 'Banco Digio S.A.',
  '336': 'Banco C6 S.A.',
  '341': 'Itaú Unibanco S.A.',
  '348': 'Banco XP S.A.',
  '364': 'Efí S.A. - Instituição de Pagamento',
  '380': 'PicPay Instituição de Pagamento S.A.',
  '389': 'Banco Mercantil do Brasil S.A.',
  '399': 'Kirton Bank S.A. - Banco Múltiplo',
  '403': 'Cora Sociedade de Crédito, Financiamento e Investimento S.A.',
  '422': 'Banco Safra S.A.',
  '450': 'Fits Instituição de Pagamento S.A.',
  '461': 'Asaas Gestão Financeira Instituição de Pagamento S.A.',
  '536': 'Neon Pagamentos S.A. - Instituição de Pagamento',
  '600': 'Banco Luso Brasileiro S.A.',
  '604': 'Banco Industrial do Brasil S.A.',
  '611': 'Banco Paulista S.A.',
  '612': 'Banco Guanabara S.A.',
  '623': 'Banco Pan S.A.',
  '633': 'Banco Rendimento S.A.',
  '634': 'Banco Triângulo S.A.',
  '637': 'Banco Sofisa S.A.',
  '643': 'Banco Pine S.A.',
  '654': 'Banco Digimais S.A.',
  '655': 'Banco Votorantim S.A.',
  '707': 'Banco Daycoval S.A.',
  '739': 'Banco Cetelem S.A.',
  '741': 'Banco Ribeirão Preto S.A.',
  '743': 'Banco Semear S.A.',
  '745': 'Banco Citibank S.A.',
  '748': 'Banco Cooperativo Sicredi S.A.',
  '756': 'Banco Cooperativo Sicoob S.A.',
};

/** The two kinds of account a payout can land in. */
export type BankAccountKind = 'checking' | 'savings';

/**
 * The contract's `account_type` is free text (proto ReceiverBankAccount), and
 * callers write it in English, in Portuguese or in Pagar.me v4's words: each
 * names a checking or a savings account. A joint account ('conjunta') is still
 * one of the two.
 */
const ACCOUNT_KINDS: Readonly<Record<string, BankAccountKind>> = {
  checking: 'checking',
  corrente: 'checking',
  conta_corrente: 'checking',
  conta_corrente_conjunta: 'checking',
  cc: 'checking',
  savings: 'savings',
  poupanca: 'savings',
  conta_poupanca: 'savings',
  conta_poupanca_conjunta: 'savings',
  cp: 'savings',
};

/** 'Conta Corrente', 'CHECKING', 'poupança' → checking or savings; undefined for anything else (the caller refuses it). */
export function bankAccountKind(value: string | undefined): BankAccountKind | undefined {
  const key = (value ?? '')
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
  return Object.hasOwn(ACCOUNT_KINDS, key) ? ACCOUNT_KINDS[key] : undefined;
}
