import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { CreateServiceTokenRequest } from '../../gen/ts-proto/gateway/v1/access_service.js';
import { CreateReceiverRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { CreateProviderAccountRequest } from '../../gen/ts-proto/gateway/v1/provider_account_service.js';
import { CreateDocumentReadLinkRequest, CreateUploadLinkRequest, ReceiverDocument } from '../../gen/ts-proto/gateway/v1/upload_service.js';
import { DOCUMENT_LINK_SECONDS } from '../../server/gateway/uploads.js';
import { ObjectStorage } from '../../server/lib/objectStorage.js';
import { connectDriver, failureOf, type Driver } from '../support/clients.js';
import { startFakeProvider, type FakeProvider } from '../support/fakeProvider.js';
import { startTestStack, TEST_TOKEN, type TestStack } from '../support/gateway.js';

/**
 * Issue 32, point 3: with UPLOADS_PRIVATE=true receivers' documents are uploaded without public-read, and reading one
 * takes a fresh presigned GET, handed to a caller with receivers:read by CreateDocumentReadLink (audited). The
 * provider that verifies receivers (IUGU) still gets the files: the gateway hands it presigned links of its own.
 */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const PDF = Buffer.from('%PDF-1.4\n% comprovante\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
let stack: TestStack;
let connect: Driver;
let fake: FakeProvider;
let db: pg.Client;
let sandboxAccountId: string;
let otherAccountId: string;
let iuguAccountId: string;
/** A SANDBOX receiver created with one private document. */
let receiverId: string;
let photo: { publicUrl: string; objectKey: string };

const s3Code = (xml: string) => /<Code>([^<]+)<\/Code>/.exec(xml)?.[1];
const answer = async (response: Response) => ({ status: response.status, code: s3Code(await response.text()) });

/** Uploads a file through a link of the gateway, as the back-office does. */
async function upload(fileName: string, contentType: string, body: Buffer<ArrayBuffer>) {
  const link = await stack.client.call('upload', 'createUploadLink', CreateUploadLinkRequest.fromPartial({ fileName, contentType, sizeBytes: body.length }));
  expect((await fetch(link.uploadUrl, { method: 'PUT', headers: link.headers, body })).status).toBe(200);
  return link;
}

const readLink = (driver: Driver, request: Partial<CreateDocumentReadLinkRequest>, token?: string) =>
  driver.call(
    'upload',
    'createDocumentReadLink',
    CreateDocumentReadLinkRequest.fromPartial({
      providerAccountId: sandboxAccountId,
      receiverId,
      document: ReceiverDocument.RECEIVER_DOCUMENT_DOCUMENT_PHOTO,
      ...request,
    }),
    token,
  );

beforeAll(async () => {
  stack = await startTestStack({ env: { UPLOADS_PRIVATE: 'true' } });
  connect = connectDriver(stack.gateway.httpUrl!, TEST_TOKEN);
  fake = await startFakeProvider();
  db = new pg.Client({ connectionString: stack.database.url });
  await db.connect();
  const account = async (provider: string, name: string, baseUrl?: string) =>
    (
      await stack.client.call(
        'accounts',
        'createProviderAccount',
        CreateProviderAccountRequest.fromPartial({ provider, name, publicKey: 'A083919DEE244A0FA2705E309B378CD0', secretKey: 'sk', baseUrl }),
      )
    ).providerAccount.id as string;
  sandboxAccountId = await account('SANDBOX', 'private documents');
  otherAccountId = await account('SANDBOX', 'another account');
  iuguAccountId = await account('IUGU', 'iugu marketplace', fake.url);
  photo = await upload('rg frente.png', 'image/png', PNG);
  const { receiver } = await stack.client.call(
    'gateway',
    'createReceiver',
    CreateReceiverRequest.fromPartial({
      providerAccountId: sandboxAccountId,
      receiver: { name: 'Maria Souza', document: '52998224725', email: 'maria@example.com', documents: { documentPhotoUrl: photo.publicUrl } },
    }),
  );
  receiverId = receiver.receiverId;
});
afterAll(async () => {
  connect?.close();
  await db?.end();
  await fake?.close();
  await stack?.close();
});

describe('an upload', () => {
  it('is signed without public-read and with a private, no-store cache header, and says it is not public', async () => {
    const link = await stack.client.call(
      'upload',
      'createUploadLink',
      CreateUploadLinkRequest.fromPartial({ fileName: 'selfie.png', contentType: 'image/png', sizeBytes: PNG.length }),
    );
    expect(link.headers).toEqual({ 'content-type': 'image/png', 'cache-control': 'private, no-store' });
    expect(link.publicRead).toBe(false);
    expect(new URL(link.uploadUrl).searchParams.get('X-Amz-SignedHeaders')!.split(';')).not.toContain('x-amz-acl');
    // The ACL cannot be added on the way: it is not signed, and the store serves no object without a signature anyway.
    expect((await fetch(link.uploadUrl, { method: 'PUT', headers: { ...link.headers, 'x-amz-acl': 'public-read' }, body: PNG })).status).toBe(200);
    expect(await answer(await fetch(link.publicUrl))).toEqual({ status: 403, code: 'AccessDenied' });
  });

  it('is not readable at its address, by GET or HEAD', async () => {
    expect(await answer(await fetch(photo.publicUrl))).toEqual({ status: 403, code: 'AccessDenied' });
    expect((await fetch(photo.publicUrl, { method: 'HEAD' })).status).toBe(403);
  });
});

describe.each([['gRPC'], ['Connect']])('CreateDocumentReadLink over %s', (transport) => {
  const driver = () => (transport === 'gRPC' ? stack.client : connect);

  it('hands a presigned GET valid 5 minutes that reads the document, marked private, no-store', async () => {
    const before = Date.now();
    const link = await readLink(driver(), {});
    const url = new URL(link.url);
    expect(`${url.origin}${url.pathname}`).toBe(photo.publicUrl);
    expect(url.searchParams.get('X-Amz-Expires')).toBe(String(DOCUMENT_LINK_SECONDS));
    expect(link.expiresAt!.getTime()).toBeGreaterThanOrEqual(before + (DOCUMENT_LINK_SECONDS - 1) * 1000);
    expect(link.expiresAt!.getTime()).toBeLessThanOrEqual(Date.now() + DOCUMENT_LINK_SECONDS * 1000);
    const read = await fetch(link.url);
    expect(read.status).toBe(200);
    expect(read.headers.get('content-type')).toBe('image/png');
    expect(read.headers.get('cache-control')).toBe('private, no-store');
    expect(read.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await read.arrayBuffer())).toEqual(PNG);
  });

  it('refuses a document the receiver does not have, an unknown receiver, and no document named', async () => {
    expect(await failureOf(readLink(driver(), { document: ReceiverDocument.RECEIVER_DOCUMENT_SELFIE_WITH_DOCUMENT }))).toEqual({
      code: 'NOT_FOUND',
      message: `receiver ${receiverId} has no selfie_with_document_url`,
    });
    expect(await failureOf(readLink(driver(), { receiverId: 'rcp_none' }))).toEqual({
      code: 'NOT_FOUND',
      message: `receiver rcp_none not found in provider account ${sandboxAccountId}`,
    });
    expect(await failureOf(readLink(driver(), { document: ReceiverDocument.RECEIVER_DOCUMENT_UNSPECIFIED }))).toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(await failureOf(readLink(driver(), { providerAccountId: 'not-an-account' }))).toEqual({
      code: 'NOT_FOUND',
      message: `receiver ${receiverId} not found in provider account not-an-account`,
    });
  });
});

it('a document is not readable without a fresh link: an expired one and one changed to another key are refused', async () => {
  const storage = new ObjectStorage({
    endpoint: stack.gateway.objectStoreUrl,
    region: 'us-east-1',
    bucket: 'gateway-uploads',
    accessKeyId: stack.gateway.config.s3.accessKeyId!,
    secretAccessKey: stack.gateway.config.s3.secretAccessKey!,
    forcePathStyle: true,
  });
  const signed = (secondsAgo: number) =>
    storage.signedRead({ key: photo.objectKey, expiresInSeconds: DOCUMENT_LINK_SECONDS, signedAt: new Date(Date.now() - secondsAgo * 1000) });
  expect((await fetch((await signed(DOCUMENT_LINK_SECONDS - 10)).url)).status).toBe(200);
  expect(await answer(await fetch((await signed(DOCUMENT_LINK_SECONDS + 1)).url))).toEqual({ status: 403, code: 'AccessDenied' });
  const other = await upload('outro.png', 'image/png', PNG);
  const fresh = new URL((await signed(0)).url);
  const moved = `${new URL(other.publicUrl).origin}${new URL(other.publicUrl).pathname}${fresh.search}`;
  expect(await answer(await fetch(moved))).toEqual({ status: 403, code: 'SignatureDoesNotMatch' });
  storage.close();
});

it('is for callers with receivers:read on the receiver’s account only, and every link handed out is in the audit trail', async () => {
  const token = async (scopes: string[], providerAccountIds: string[] = []) =>
    (
      await stack.client.call(
        'access',
        'createServiceToken',
        CreateServiceTokenRequest.fromPartial({ name: `documents ${scopes.join(' ')} ${providerAccountIds.length}`, scopes, providerAccountIds }),
      )
    ).secret as string;
  const payments = await token(['payments:read']);
  const elsewhere = await token(['receivers:read'], [otherAccountId]);
  const reader = await token(['receivers:read'], [sandboxAccountId]);
  expect(await failureOf(readLink(stack.client, {}, payments))).toMatchObject({ code: 'PERMISSION_DENIED' });
  expect(await failureOf(readLink(connect, {}, elsewhere))).toMatchObject({ code: 'PERMISSION_DENIED' });
  expect((await fetch((await readLink(connect, {}, reader)).url)).status).toBe(200);

  const { rows } = await db.query(
    `select actor_kind, actor_name, resource, outcome from audit_events where action = 'gateway.v1.UploadService/CreateDocumentReadLink' order by id`,
  );
  expect(rows).toEqual(
    expect.arrayContaining([
      { actor_kind: 'service', actor_name: 'documents receivers:read 1', resource: receiverId, outcome: 'OK' },
      { actor_kind: 'service', actor_name: 'documents receivers:read 1', resource: receiverId, outcome: 'PERMISSION_DENIED' },
      { actor_kind: 'bootstrap', actor_name: expect.any(String), resource: receiverId, outcome: 'OK' },
      { actor_kind: 'bootstrap', actor_name: expect.any(String), resource: 'rcp_none', outcome: 'NOT_FOUND' },
    ]),
  );
});

it('IUGU still gets the documents to verify a sub-account: the gateway hands it presigned links of its own, and keeps the addresses', async () => {
  const rg = await upload('rg.png', 'image/png', PNG);
  const proof = await upload('comprovante.pdf', 'application/pdf', PDF);
  const basic = (secret: string) => `Basic ${Buffer.from(`${secret}:`).toString('base64')}`;
  fake.expect({
    method: 'POST',
    path: '/marketplace/create_account',
    headers: { authorization: basic('sk') },
    reply: { body: { account_id: 'SUBPRIV', name: 'Ana Souza', live_api_token: 'live_sub', test_api_token: 't', user_token: 'user_priv' } },
  });
  fake.expect({ method: 'POST', path: '/accounts/SUBPRIV/request_verification', reply: { body: { id: 'V1' } } });
  const documents = { documentPhotoUrl: rg.publicUrl, selfieWithDocumentUrl: rg.publicUrl, addressProofUrl: proof.publicUrl, balanceSheetUrl: proof.publicUrl };
  const { receiver } = await stack.client.call(
    'gateway',
    'createReceiver',
    CreateReceiverRequest.fromPartial({
      providerAccountId: iuguAccountId,
      receiver: {
        name: 'Ana Souza',
        document: '12345678909',
        email: 'ana@example.com',
        bankAccount: { bankCode: '341', branchNumber: '1234', accountNumber: '12345', accountDigit: '6', accountType: 'checking' },
        address: { street: 'Rua Principal', number: '100', district: 'Centro', city: 'Campinas', state: 'SP', zipcode: '13056344' },
        documents,
      },
    }),
  );
  expect(receiver.documents).toEqual({ ...documents, socialContractUrl: '' });
  const verification = fake.received.find((request) => request.path === '/accounts/SUBPRIV/request_verification')!;
  const files = (verification.body as { files: Record<string, string> }).files;
  expect(files.identification).toBe(`data:image/png;name=rg.png;base64,${PNG.toString('base64')}`);
  expect(files.address_proof).toBe(`data:application/pdf;name=comprovante.pdf;base64,${PDF.toString('base64')}`);
});
