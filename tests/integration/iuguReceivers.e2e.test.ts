import { afterAll, beforeAll, expect, it } from '@jest/globals';
import pg from 'pg';
import { ReceiverStatus } from '../../gen/es/gateway/v1/types_pb.js';
import { CreateReceiverRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { connectDriver, type Driver } from '../support/clients.js';
import { startTestStack, TEST_TOKEN, type TestStack } from '../support/gateway.js';
import { startFakeProvider, startFileServer, type FakeProvider, type FileServer } from '../support/fakeProvider.js';

// An IUGU receiver end to end, over both transports: the sub-account's API token Iugu issues at creation is kept sealed
// in the database (never in clear, never in an answer) and opened for the adapter to read the sub-account again.
let stack: TestStack;
let fake: FakeProvider;
let files: FileServer;
let db: pg.Client;
let connect: Driver;
let accountId: string;
const SUB_TOKEN = 'live_subaccount_token_e2e';
const basic = (token: string) => `Basic ${Buffer.from(`${token}:`).toString('base64')}`;

beforeAll(async () => {
  stack = await startTestStack();
  fake = await startFakeProvider();
  files = await startFileServer({ '/d/rg.png': Buffer.from([0x89, 0x50, 0x4e, 0x47]), '/d/doc.pdf': Buffer.from('%PDF-1.4') });
  db = new pg.Client({ connectionString: stack.database.url });
  await db.connect();
  connect = connectDriver(stack.gateway.httpUrl!, TEST_TOKEN);
  ({
    providerAccount: { id: accountId },
  } = await stack.client.call('accounts', 'createProviderAccount', {
    provider: 'IUGU',
    name: 'iugu marketplace',
    publicKey: 'A083919DEE244A0FA2705E309B378CD0',
    secretKey: 'live_marketplace_e2e',
    baseUrl: fake.url,
  }));
});
afterAll(async () => {
  connect?.close();
  await db?.end();
  await files?.close();
  await fake?.close();
  await stack?.close();
});

const receiver = () => ({
  name: 'Ana Souza',
  document: '12345678909',
  email: 'ana@example.com',
  bankAccount: { bankCode: '341', branchNumber: '1234', accountNumber: '12345', accountDigit: '6', accountType: 'checking' },
  address: { street: 'Rua Principal', number: '100', district: 'Centro', city: 'Campinas', state: 'SP', zipcode: '13056344' },
  documents: {
    documentPhotoUrl: files.url('/d/rg.png'),
    selfieWithDocumentUrl: files.url('/d/rg.png'),
    addressProofUrl: files.url('/d/doc.pdf'),
    balanceSheetUrl: files.url('/d/doc.pdf'),
  },
});

it('creates a sub-account, keeps its token sealed, and reads it back with that token', async () => {
  fake.expect({
    method: 'POST',
    path: '/marketplace/create_account',
    headers: { authorization: basic('live_marketplace_e2e') },
    reply: { body: { account_id: 'SUBE2E', name: 'Ana Souza', live_api_token: SUB_TOKEN, test_api_token: 't', user_token: 'user_e2e' } },
  });
  fake.expect({ method: 'POST', path: '/accounts/SUBE2E/request_verification', headers: { authorization: basic('user_e2e') }, reply: { body: { id: 'V1' } } });
  const created = await stack.client.call(
    'gateway',
    'createReceiver',
    CreateReceiverRequest.fromPartial({ providerAccountId: accountId, receiver: receiver() }),
  );
  expect(created.receiver).toMatchObject({ receiverId: 'SUBE2E', provider: 'IUGU', receiverToken: '' });
  expect(JSON.stringify(created)).not.toContain(SUB_TOKEN);

  const { rows } = await db.query('select secret_sealed, receiver_token from receivers where receiver_id = $1', ['SUBE2E']);
  expect(rows).toHaveLength(1);
  expect(rows[0].secret_sealed).toEqual(expect.any(String));
  expect(rows[0].secret_sealed).not.toContain(SUB_TOKEN);
  expect(rows[0].receiver_token).toBeNull();

  // Read over Connect this time: the adapter gets the token opened, and the status moves to ACTIVE.
  fake.expect({
    method: 'GET',
    path: '/accounts/SUBE2E',
    headers: { authorization: basic(SUB_TOKEN) },
    reply: { body: { id: 'SUBE2E', name: 'Ana Souza', email: 'ana@example.com', cpf: '12345678909', 'can_receive?': true, balance: 'R$ 10,00' } },
  });
  fake.expect({ method: 'PUT', path: '/payments/pix', headers: { authorization: basic(SUB_TOKEN) }, reply: { body: { success: true } } });
  fake.expect({ method: 'POST', path: '/accounts/configuration', headers: { authorization: basic(SUB_TOKEN) }, reply: { body: {} } });
  const read = await connect.call('gateway', 'getReceiver', { providerAccountId: accountId, receiverId: 'SUBE2E' });
  expect(read.receiver).toMatchObject({ receiverId: 'SUBE2E', status: ReceiverStatus.ACTIVE });
  expect(Number(read.receiver.balance)).toBe(1000);
  expect(JSON.stringify(read, (_k, v) => (typeof v === 'bigint' ? String(v) : v))).not.toContain(SUB_TOKEN);
  // The read did not carry the token again: the one sealed at creation is still there.
  const after = await db.query('select secret_sealed from receivers where receiver_id = $1', ['SUBE2E']);
  expect(after.rows[0].secret_sealed).toBe(rows[0].secret_sealed);
});
