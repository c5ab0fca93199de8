import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { ReceiverInput } from '../../server/domain/types.js';
import { IuguAdapter } from '../../server/providers/families/iugu/index.js';
import {
  IUGU_BANKS,
  iuguBalanceCents,
  iuguReceiverStatus,
  planSubAccount,
  toIuguSubAccount,
  toIuguVerification,
} from '../../server/providers/families/iugu/subAccounts.js';
import { IUGU_CREATE_ACCOUNT_REQUEST, IUGU_VERIFICATION_REQUEST } from '../../server/providers/families/iugu/wire.js';
import { IUGU } from '../../server/providers/members/iugu.js';
import { startFileServer, type FileServer } from '../support/fakeProvider.js';
import { failure, providerHarness } from './conformance/harness.js';
import { expectBodiesOf } from './requestSchemas.js';

/** IUGU's receivers: Iugu sub-accounts, verified with document 1 §5's documents (dev.iugu.com). */

const KEYS = { publicKey: 'A083919DEE244A0FA2705E309B378CD0', secretKey: 'live_marketplace' };
const basic = (token: string) => ({ authorization: `Basic ${Buffer.from(`${token}:`).toString('base64')}` });
const PDF = Buffer.from('%PDF-1.4 verification document');
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const dataUri = (type: string, name: string, bytes: Buffer) => `data:${type};name=${name};base64,${bytes.toString('base64')}`;

describe('IUGU receivers: Iugu sub-accounts', () => {
  let files: FileServer;
  beforeAll(async () => {
    files = await startFileServer({
      '/docs/rg.png': PNG,
      '/docs/selfie.png': PNG,
      '/docs/endereco.pdf': PDF,
      '/docs/balanco.pdf': PDF,
      '/docs/contrato.pdf': PDF,
      '/docs/notes.txt': 'not a document',
    });
  });
  afterAll(() => files.close());

  const h = providerHarness({ create: (runtime) => new IuguAdapter(IUGU, runtime), account: () => KEYS });

  const person = (extra: Partial<ReceiverInput> = {}): ReceiverInput => ({
    name: 'Ana Souza',
    document: '123.456.789-09',
    email: 'ana@example.com',
    description: 'Artesanato',
    bankAccount: { bankCode: '341', branchNumber: '1234', branchDigit: '', accountNumber: '12345', accountDigit: '6', accountType: 'checking', pixCode: '' },
    address: { street: 'Rua Principal', number: '100', district: 'Centro', city: 'Campinas', state: 'SP', zipcode: '13056-344' },
    documents: {
      documentPhotoUrl: files.url('/docs/rg.png'),
      selfieWithDocumentUrl: files.url('/docs/selfie.png'),
      addressProofUrl: files.url('/docs/endereco.pdf'),
      balanceSheetUrl: files.url('/docs/balanco.pdf'),
    },
    ...extra,
  });

  const CREATED = {
    account_id: 'SUB9',
    name: 'Ana Souza',
    live_api_token: 'live_sub9',
    test_api_token: 'test_sub9',
    user_token: 'user_sub9',
    commissions: null,
  };

  it("builds bodies of the family's sub-account request schemas (wire.ts)", () => {
    const company = person({
      name: 'Loja Azul Ltda',
      document: '11.222.333/0001-81',
      bankAccount: { bankCode: '237', branchNumber: '1234', branchDigit: '5', accountNumber: '98765', accountDigit: '0', accountType: 'savings', pixCode: '' },
    });
    const documents = { identification: 'data:image/png;name=rg.png;base64,iVBORw0KGgo=' };
    expectBodiesOf(IUGU_CREATE_ACCOUNT_REQUEST, [toIuguSubAccount(person())]);
    expectBodiesOf(IUGU_VERIFICATION_REQUEST, [
      toIuguVerification(person(), planSubAccount(person()), documents),
      toIuguVerification(company, planSubAccount({ ...company, documents: { ...company.documents, socialContractUrl: files.url('/docs/contrato.pdf') } }), {}),
    ]);
  });

  it('offers receivers; IUGUBAAS does not', () => {
    expect(h.adapter.operations).toEqual(expect.arrayContaining(['createReceiver', 'getReceiver']));
  });

  it('creates the sub-account with the marketplace token, then sends it for verification with its own: documents as data URIs, the bank by its Iugu name', async () => {
    const create = h.fake.expect({
      method: 'POST',
      path: '/marketplace/create_account',
      headers: basic('live_marketplace'),
      body: { name: 'Ana Souza' },
      reply: { body: CREATED },
    });
    h.fake.expect({
      method: 'POST',
      path: '/accounts/SUB9/request_verification',
      headers: basic('user_sub9'),
      body: {
        data: {
          price_range: 'Entre R$ 100,00 e R$ 500,00',
          physical_products: false,
          business_type: 'Artesanato',
          person_type: 'Pessoa Física',
          automatic_transfer: false,
          cpf: '12345678909',
          name: 'Ana Souza',
          address: 'Rua Principal',
          street: 'Rua Principal',
          number: '100',
          district: 'Centro',
          cep: '13056344',
          city: 'Campinas',
          state: 'SP',
          bank: 'Itaú',
          bank_ag: '1234',
          account_type: 'Corrente',
          bank_cc: '12345-6',
        },
        files: {
          identification: dataUri('image/png', 'rg.png', PNG),
          selfie: dataUri('image/png', 'selfie.png', PNG),
          address_proof: dataUri('application/pdf', 'endereco.pdf', PDF),
          balance_sheet: dataUri('application/pdf', 'balanco.pdf', PDF),
        },
      },
      reply: { body: { id: 'VER1', account_id: 'SUB9', data: {}, created_at: '2025-03-10T09:00:00-03:00' } },
    });
    expect(await h.adapter.createReceiver(h.ctx, person())).toEqual({
      receiverId: 'SUB9',
      receiverProvider: 'IUGU',
      name: 'Ana Souza',
      document: '12345678909',
      documentType: 'CPF',
      email: 'ana@example.com',
      status: 'PENDING',
      balance: 0,
      secret: 'live_sub9',
    });
    expect(create.calls).toHaveLength(1);
  });

  it('sends a company as Pessoa Jurídica with its CNPJ and social contract, savings as Poupança, the branch digit after a dash', async () => {
    h.fake.expect({ method: 'POST', path: '/marketplace/create_account', reply: { body: CREATED } });
    h.fake.expect({
      method: 'POST',
      path: '/accounts/SUB9/request_verification',
      body: (body) => {
        const { data, files: sent } = body as { data: Record<string, unknown>; files: Record<string, string> };
        return (
          data.person_type === 'Pessoa Jurídica' &&
          data.cnpj === '12345678000195' &&
          data.company_name === 'Loja da Ana' &&
          data.cpf === undefined &&
          data.account_type === 'Poupança' &&
          data.bank === 'Banco do Brasil' &&
          data.bank_ag === '1234-5' &&
          sent.social_contract === dataUri('application/pdf', 'contrato.pdf', PDF)
        );
      },
      reply: { body: { id: 'VER2' } },
    });
    const company = person({
      name: 'Loja da Ana',
      document: '12.345.678/0001-95',
      bankAccount: { bankCode: '1', branchNumber: '1234', branchDigit: '5', accountNumber: '999', accountDigit: '0', accountType: 'savings', pixCode: '' },
      documents: { ...person().documents, socialContractUrl: files.url('/docs/contrato.pdf') },
    });
    expect(await h.adapter.createReceiver(h.ctx, company)).toMatchObject({ documentType: 'CNPJ', document: '12345678000195', status: 'PENDING' });
  });

  it.each([
    ['a missing document', () => ({ documents: { ...person().documents, balanceSheetUrl: undefined } }), 'receiver.documents.balance_sheet_url'],
    [
      'a document that is not a URL',
      () => ({ documents: { ...person().documents, addressProofUrl: 'file:///etc/passwd' } }),
      'receiver.documents.address_proof_url',
    ],
    ['no bank account', () => ({ bankAccount: undefined }), 'receiver.bank_account'],
    ['no address', () => ({ address: undefined }), 'receiver.address'],
    ['a bank Iugu does not take', () => ({ bankAccount: { ...person().bankAccount!, bankCode: '999' } }), 'receiver.bank_account.bank_code'],
    ['an account type Iugu does not know', () => ({ bankAccount: { ...person().bankAccount!, accountType: 'salary' } }), 'receiver.bank_account.account_type'],
  ] as const)('refuses %s, naming the field, before anything is sent', async (_label, extra, field) => {
    const refused = h.adapter.createReceiver(h.ctx, person(extra() as Partial<ReceiverInput>));
    await expect(refused).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', details: expect.objectContaining({ field }) });
    expect(h.fake.received).toHaveLength(0);
  });

  it('asks a CNPJ for the social contract', async () => {
    await expect(h.adapter.createReceiver(h.ctx, person({ document: '12345678000195' }))).rejects.toMatchObject({
      details: expect.objectContaining({ field: 'receiver.documents.social_contract_url' }),
    });
    expect(h.fake.received).toHaveLength(0);
  });

  it.each([
    ['not found', '/docs/missing.pdf'],
    ['not a PDF, JPEG or PNG', '/docs/notes.txt'],
  ])("is 'Error on upload pdf' for a document %s, and creates nothing", async (_label, path) => {
    const broken = person({ documents: { ...person().documents, addressProofUrl: files.url(path) } });
    expect(await failure(h.adapter.createReceiver(h.ctx, broken))).toEqual({ code: 'UNAVAILABLE', message: 'Error on upload pdf' });
    expect(h.fake.received).toHaveLength(0);
  });

  it("keeps Iugu's refusals under 'Erro ao criar recebedor', naming a sub-account created but not verified", async () => {
    h.fake.expect({ method: 'POST', path: '/marketplace/create_account', reply: { status: 422, body: { errors: { name: ['não pode ficar em branco'] } } } });
    expect((await failure(h.adapter.createReceiver(h.ctx, person()))).message).toBe('Erro ao criar recebedor: name: não pode ficar em branco');
    h.fake.expect({ method: 'POST', path: '/marketplace/create_account', reply: { body: CREATED } });
    h.fake.expect({ method: 'POST', path: '/accounts/SUB9/request_verification', reply: { status: 400, body: { errors: 'Conta bancária inválida' } } });
    expect(await failure(h.adapter.createReceiver(h.ctx, person()))).toEqual({
      code: 'INVALID_ARGUMENT',
      message: 'Erro ao criar recebedor: Conta bancária inválida (subconta SUB9 criada sem verificação)',
    });
    h.fake.expect({ method: 'POST', path: '/marketplace/create_account', reply: { body: { account_id: 'SUB9' } } });
    expect((await failure(h.adapter.createReceiver(h.ctx, person()))).code).toBe('UNAVAILABLE');
  });

  describe('reading a sub-account', () => {
    const account = (extra: Record<string, unknown>) => ({
      id: 'SUB9',
      name: 'Ana Souza',
      email: 'ana@example.com',
      cpf: '12345678909',
      balance: 'R$ 1.234,56',
      ...extra,
    });

    it.each([
      [{ 'can_receive?': true, last_verification_request_status: 'accepted' }, 'ACTIVE'],
      [{ 'can_receive?': false, last_verification_request_status: 'pending' }, 'PENDING'],
      [{ 'can_receive?': false, last_verification_request_status: 'rejected' }, 'REJECTED'],
      [{ 'can_receive?': false }, 'REJECTED'],
    ])('GET /accounts/{id} with its own token: %j is %s', async (state, expected) => {
      h.fake.expect({ method: 'GET', path: '/accounts/SUB9', headers: basic('live_sub9'), reply: { body: account(state) } });
      if (expected === 'ACTIVE') {
        h.fake.expect({ method: 'PUT', path: '/payments/pix', headers: basic('live_sub9'), body: { enable: true }, reply: { body: { success: true } } });
        h.fake.expect({
          method: 'POST',
          path: '/accounts/configuration',
          headers: basic('live_sub9'),
          body: { credit_card: { active: true, installments: true } },
          reply: { body: {} },
        });
      }
      expect(await h.adapter.getReceiver(h.ctx, 'SUB9', { secret: 'live_sub9' })).toEqual({
        receiverId: 'SUB9',
        receiverProvider: 'IUGU',
        name: 'Ana Souza',
        document: '12345678909',
        documentType: 'CPF',
        email: 'ana@example.com',
        status: expected,
        balance: 123456,
      });
    });

    it('switches PIX and installments on for an ACTIVE sub-account; PIX already on, or a refused setting, does not fail the read', async () => {
      h.fake.expect({ method: 'GET', path: '/accounts/SUB9', reply: { body: account({ 'can_receive?': true }) } });
      h.fake.expect({ method: 'PUT', path: '/payments/pix', reply: { status: 400, body: { errors: { base: ['Conta já possui Pix ativo'] } } } });
      h.fake.expect({ method: 'POST', path: '/accounts/configuration', reply: { status: 401, body: { errors: 'Assinatura RSA inválida' } } });
      expect((await h.adapter.getReceiver(h.ctx, 'SUB9', { secret: 'live_sub9' })).status).toBe('ACTIVE');
      expect(h.warn).toHaveBeenCalledTimes(1);
      expect(JSON.stringify(h.warn.mock.calls[0])).toContain('installments');
    });

    it("is 'Recebedor não encontrado.' for an unknown sub-account (document 1 §8's Portuguese text, Iugu's language); other failures keep 'Erro ao buscar recebedor'", async () => {
      h.fake.expect({ method: 'GET', path: '/accounts/SUB0', reply: { status: 404, body: { errors: 'Not Found' } } });
      expect(await failure(h.adapter.getReceiver(h.ctx, 'SUB0', { secret: 'live_sub9' }))).toEqual({ code: 'NOT_FOUND', message: 'Recebedor não encontrado.' });
      h.fake.expect({ method: 'GET', path: '/accounts/SUB9', reply: { status: 401, body: { errors: 'Unauthorized' } } });
      expect(await failure(h.adapter.getReceiver(h.ctx, 'SUB9', { secret: 'live_sub9' }))).toEqual({
        code: 'FAILED_PRECONDITION',
        message: 'Erro ao buscar recebedor: Unauthorized',
      });
    });

    it('refuses to read a sub-account whose token the gateway does not hold, and an answer without the account or its balance, or with a field of another type', async () => {
      await expect(h.adapter.getReceiver(h.ctx, 'SUB9')).rejects.toMatchObject({
        code: 'FAILED_PRECONDITION',
        details: { field: 'receiver_id', reason: 'RECEIVER_NOT_CREATED_HERE' },
      });
      expect(h.fake.received).toHaveLength(0);
      h.fake.expect({ method: 'GET', path: '/accounts/SUB9', reply: { body: '<html></html>' } });
      expect((await failure(h.adapter.getReceiver(h.ctx, 'SUB9', { secret: 'live_sub9' }))).code).toBe('UNAVAILABLE');
      h.fake.expect({ method: 'GET', path: '/accounts/SUB9', reply: { body: account({ balance: undefined, 'can_receive?': false }) } });
      expect((await failure(h.adapter.getReceiver(h.ctx, 'SUB9', { secret: 'live_sub9' }))).code).toBe('UNAVAILABLE');
      for (const odd of [{ 'can_receive?': 'yes' }, { balance: 'muito' }, { id: ['SUB9'] }]) {
        h.fake.expect({ method: 'GET', path: '/accounts/SUB9', reply: { body: account(odd) } });
        expect(await failure(h.adapter.getReceiver(h.ctx, 'SUB9', { secret: 'live_sub9' }))).toEqual({
          code: 'UNAVAILABLE',
          message: expect.stringContaining('Erro ao buscar recebedor: resposta do provedor em formato inesperado ('),
        });
      }
      expect(h.fake.received.filter((request) => request.method !== 'GET')).toHaveLength(0);
    });
  });

  it("reads Iugu's formatted balances", () => {
    expect(iuguBalanceCents('R$ 1.234,56')).toBe(123456);
    expect(iuguBalanceCents('R$ 0,00')).toBe(0);
    expect(iuguBalanceCents('12.50')).toBe(1250);
    expect(iuguBalanceCents(19.9)).toBe(1990);
    expect(iuguBalanceCents(undefined)).toBeUndefined();
    expect(() => iuguBalanceCents('muito')).toThrow(RangeError);
  });

  it('applies document 1 §4 first receiver rule to the account fields', () => {
    expect(iuguReceiverStatus({ 'can_receive?': true, last_verification_request_status: 'pending' })).toBe('ACTIVE');
    expect(iuguReceiverStatus({ last_verification_request_status: 'PENDING' })).toBe('PENDING');
    expect(iuguReceiverStatus({})).toBe('REJECTED');
  });

  it("keeps Iugu's bank names by compensation code, the spec's named codes among them", () => {
    for (const code of ['001', '033', '237', '341', '260', '077', '104']) expect(IUGU_BANKS[code]).toBeDefined();
    expect(Object.keys(IUGU_BANKS).every((code) => /^\d{3}$/.test(code))).toBe(true);
    expect(planSubAccount(person({ bankAccount: { ...person().bankAccount!, bankCode: '77' } })).bankName).toBe('Inter');
  });
});
