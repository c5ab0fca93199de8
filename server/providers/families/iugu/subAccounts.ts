import axios from 'axios';
import type { ReceiverDocuments, ReceiverInput, ReceiverStatus } from '../../../domain/types.js';
import { bankAccountKind, compensationCode, isListedBank, type BankAccountKind, type BankList } from '../../../lib/banks.js';
import { digitsOnly, inferDocumentType } from '../../../lib/documents.js';
import { invalidArgument } from '../../../lib/errors.js';
import { catalogueError } from '../../../lib/providerMessages.js';
import type { IUGU_ACCOUNT_TYPE, IuguAccount, IuguCreateAccountRequest, IuguCreatedAccount, IuguVerificationRequest } from './wire.js';
import type { z } from 'zod';

export { iuguBalanceCents } from './wire.js';

/**
 * Iugu sub-accounts as receivers (dev.iugu.com: "Criar Subconta", "Enviar
 * Verificação de Subconta", "Informações da Conta", "Ativar/desativar Pix",
 * "Configurar Conta"; "Lista de bancos iugu"):
 * 1. `POST /marketplace/create_account {name}` with the marketplace's API
 *    token, answered `{account_id, name, live_api_token, test_api_token, user_token}`;
 * 2. `POST /accounts/{account_id}/request_verification {data{…}, files{…}}`
 *    with the sub-account's token, within 24 hours, once: the holder, the
 *    address, the bank domicile (Iugu's bank *name*) and the verification
 *    documents as base64 data URIs;
 * 3. `GET /accounts/{account_id}` with the sub-account's token: `can_receive?`,
 *    `last_verification_request_status`, `balance` ("R$ 1.234,56").
 */

export const IUGU_SUBACCOUNT_PATHS = {
  createAccount: '/marketplace/create_account',
  requestVerification: '/accounts/{id}/request_verification',
  account: '/accounts/{id}',
  pix: '/payments/pix',
  configuration: '/accounts/configuration',
} as const;

/**
 * The banks Iugu takes for a sub-account's bank domicile, by compensation
 * code (COMPE, Banco Central do Brasil), with the name Iugu expects in
 * `data.bank`. Document 1 §4 speaks of "a bank list of about 70 entries (name
 * and compensation code …)"; Iugu publishes its list ("Lista de bancos iugu",
 * dev.iugu.com/reference/lista-de-bancos-iugu, with the agency and account
 * formats on "Enviar Verificação de Subconta"). The entries below are those
 * the stored copies of that page and Iugu's changelog show (the page's table
 * is cut short there); the codes are the Banco Central's. A bank missing here
 * is one line to add; none is guessed.
 */
export const IUGU_BANKS: BankList = {
  '001': 'Banco do Brasil',
  '004': 'Banco do Nordeste',
  '021': 'Banestes',
  '033': 'Santander',
  '037': 'Banpará',
  '041': 'Banrisul',
  '070': 'BRB',
  '077': 'Inter',
  '082': 'Banco Topazio',
  '084': 'Uniprime',
  '085': 'Via Credi/Civia Cooperativa',
  '097': 'Cooperativa Central de Credito Noroeste Brasileiro',
  '104': 'Caixa Econômica',
  '121': 'Agibank',
  '136': 'Unicred',
  '197': 'Stone',
  '212': 'Banco Original',
  '218': 'BS2',
  '224': 'BCO FIBRA S.A.',
  '237': 'Bradesco',
  '260': 'Nubank',
  '274': 'Money Plus',
  '290': 'Pagseguro',
  '301': 'PJBank',
  '336': 'Banco C6',
  '340': 'SUPERDIGITAL I.P. S.A.',
  '341': 'Itaú',
  '364': 'Gerencianet Pagamentos do Brasil',
  '376': 'JP Morgan',
  '389': 'Mercantil do Brasil',
  '422': 'Safra',
  '529': 'Pinbank',
  '536': 'Neon Pagamentos S.A. IP',
  '633': 'Rendimento',
  '655': 'Neon/Votorantim',
  '707': 'Banco Daycoval',
  '745': 'Citibank',
  '746': 'Modal',
  '756': 'Sicoob',
};

/** The verification documents document 1 §5 asks for, as Iugu names its `files`; the social contract only for a CNPJ. */
const DOCUMENT_FILES = [
  ['documentPhotoUrl', 'identification', 'document_photo_url'],
  ['selfieWithDocumentUrl', 'selfie', 'selfie_with_document_url'],
  ['addressProofUrl', 'address_proof', 'address_proof_url'],
  ['balanceSheetUrl', 'balance_sheet', 'balance_sheet_url'],
  ['socialContractUrl', 'social_contract', 'social_contract_url'],
] as const satisfies ReadonlyArray<readonly [keyof ReceiverDocuments, string, string]>;

export type IuguFileName = (typeof DOCUMENT_FILES)[number][1];

/** Iugu's names of the two account kinds. */
const IUGU_ACCOUNT_TYPES: Readonly<Record<BankAccountKind, z.infer<typeof IUGU_ACCOUNT_TYPE>>> = { checking: 'Corrente', savings: 'Poupança' };

/** What a sub-account needs before anything is sent: the documents to fetch, by Iugu's file name, and Iugu's name of the bank. */
export interface SubAccountPlan {
  isCompany: boolean;
  bankName: string;
  accountType: z.infer<typeof IUGU_ACCOUNT_TYPE>;
  documents: Array<{ file: IuguFileName; url: string; field: string }>;
}

/**
 * The receiver checked before anything is sent: a bank account at a bank
 * Iugu takes, an address, and every verification document (document 1 §5)
 * as an https URL. A refusal names the field.
 */
export function planSubAccount(input: ReceiverInput): SubAccountPlan {
  const isCompany = (input.documentType ?? inferDocumentType(input.document)) === 'CNPJ';
  const account = input.bankAccount ?? missing('receiver.bank_account', 'the bank domicile Iugu pays the sub-account to');
  if (!input.address) missing('receiver.address', "the holder's address, part of Iugu's verification");
  const code = compensationCode(account.bankCode);
  if (!isListedBank(IUGU_BANKS, code))
    throw invalidArgument(
      'receiver.bank_account.bank_code',
      `receiver.bank_account.bank_code ${code} is not a bank Iugu takes for a sub-account's bank domicile`,
      'INVALID_VALUE',
    );
  const kind = bankAccountKind(account.accountType);
  if (!kind)
    throw invalidArgument(
      'receiver.bank_account.account_type',
      'receiver.bank_account.account_type must name a checking or a savings account',
      'UNKNOWN_VALUE',
    );
  const accountType = IUGU_ACCOUNT_TYPES[kind];
  const documents = DOCUMENT_FILES.filter(([, file]) => isCompany || file !== 'social_contract').map(([key, file, field]) => {
    const url = input.documents?.[key]?.trim() ?? '';
    const fieldName = `receiver.documents.${field}`;
    if (!url) missing(fieldName, `Iugu verifies a ${isCompany ? 'CNPJ' : 'CPF'} sub-account with it (document 1 §5)`);
    if (!/^https?:\/\//i.test(url)) throw invalidArgument(fieldName, `${fieldName} must be an http(s) URL`, 'INVALID_URL');
    return { file, url, field: fieldName };
  });
  return { isCompany, bankName: IUGU_BANKS[code]!, accountType, documents };
}

function missing(field: string, why: string): never {
  throw invalidArgument(field, `${field} is required for IUGU sub-accounts (${why})`, 'REQUIRED');
}

/** The largest verification document read (the back-office's uploads are refused above 10 MiB too). */
export const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;

const DOCUMENT_TYPES: Readonly<Record<string, string>> = { pdf: 'application/pdf', jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png' };

/**
 * One verification document read from its URL as Iugu takes files: a data
 * URI `data:<type>;name=<file name>;base64,…`. PDF, JPEG and PNG only. Any
 * failure (unreachable, not found, too large, another type) is document 1
 * §8's 'Error on upload pdf', naming the field; nothing has been sent to Iugu.
 */
export async function readDocument(document: { url: string; field: string }, timeoutMs: number): Promise<string> {
  const refuse = () => catalogueError('ERROR_ON_UPLOAD_PDF', { field: document.field });
  let response;
  try {
    response = await axios.get<ArrayBuffer>(document.url, {
      responseType: 'arraybuffer',
      timeout: timeoutMs,
      maxContentLength: MAX_DOCUMENT_BYTES,
      maxRedirects: 0,
    });
  } catch {
    throw refuse();
  }
  const name = decodeURIComponent(new URL(document.url).pathname.split('/').pop() ?? '') || 'documento';
  const declared = String(response.headers['content-type'] ?? '')
    .split(';')[0]!
    .trim()
    .toLowerCase();
  const byName = DOCUMENT_TYPES[name.split('.').pop()?.toLowerCase() ?? ''];
  const type = Object.values(DOCUMENT_TYPES).includes(declared) ? declared : byName;
  const bytes = Buffer.from(response.data);
  if (!type || bytes.length === 0) throw refuse();
  return `data:${type};name=${name.replace(/[;,\s]/g, '_')};base64,${bytes.toString('base64')}`;
}

/** The body of create_account: the receiver's name. */
export const toIuguSubAccount = (input: Pick<ReceiverInput, 'name'>): IuguCreateAccountRequest => ({ name: input.name });

/** The body of request_verification: `data` as Iugu's example shows it, `files` the documents read. */
export function toIuguVerification(input: ReceiverInput, plan: SubAccountPlan, files: Partial<Record<IuguFileName, string>>): IuguVerificationRequest {
  const account = input.bankAccount!;
  const address = input.address!;
  const document = digitsOnly(input.document);
  const agency = account.branchDigit?.trim() ? `${account.branchNumber}-${account.branchDigit.trim()}` : account.branchNumber;
  return {
    data: {
      // Iugu's own example value: "information internal to Iugu; it does not limit the invoices' values".
      price_range: 'Entre R$ 100,00 e R$ 500,00',
      physical_products: false,
      business_type: input.description?.trim() || 'Vendas online',
      person_type: plan.isCompany ? 'Pessoa Jurídica' : 'Pessoa Física',
      automatic_transfer: false,
      ...(plan.isCompany ? { cnpj: document, company_name: input.name } : { cpf: document }),
      name: input.name,
      // `address` as Iugu's 2024 example; `street` and `number` as its 2025 changelog asks.
      address: address.street,
      street: address.street,
      number: address.number,
      district: address.district,
      cep: digitsOnly(address.zipcode),
      city: address.city,
      state: address.state,
      bank: plan.bankName,
      bank_ag: agency,
      account_type: plan.accountType,
      bank_cc: `${account.accountNumber}-${account.accountDigit}`,
    },
    files,
  };
}

/** The answer of create_account: the sub-account's id and the tokens the gateway uses (the live one kept, sealed, to read it). */
export const fromIuguCreatedAccount = (account: IuguCreatedAccount): { accountId: string; liveToken: string; userToken: string } => ({
  accountId: account.account_id,
  liveToken: account.live_api_token,
  userToken: account.user_token,
});

/**
 * Document 1 §4's first receiver rule, Iugu's: ACTIVE when the account can
 * receive (`can_receive?`); PENDING while its verification request is
 * pending; otherwise REJECTED.
 */
export function iuguReceiverStatus(account: Pick<IuguAccount, 'can_receive?' | 'can_receive' | 'last_verification_request_status'>): ReceiverStatus {
  if (account['can_receive?'] === true || account.can_receive === true) return 'ACTIVE';
  return (account.last_verification_request_status ?? '').trim().toLowerCase() === 'pending' ? 'PENDING' : 'REJECTED';
}
