import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CreateUploadLinkRequest } from '../../gen/ts-proto/gateway/v1/upload_service.js';
import { connectDriver, errorDetailsOf, failureOf, grpcDriver, type Driver } from '../support/clients.js';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { removeDir, startTestStack, TEST_OUTBOUND_SECRET, TEST_TOKEN, type TestStack } from '../support/gateway.js';
import { startGateway } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { createLogger } from '../../server/lib/logger.js';
import { ObjectStorage } from '../../server/lib/objectStorage.js';
import { UPLOAD_CACHE_CONTROL, UPLOAD_LINK_SECONDS } from '../../server/gateway/uploads.js';
import { rawRequest } from '../support/rawHttp.js';

/**
 * CreateUploadLink (issue "A back-office operators can run the business from",
 * point 2), against the embedded S3-compatible store npm start runs: a signed
 * PUT valid 60 seconds for one file, public-read, with the one-year immutable
 * cache header; bad names, types and sizes refused naming the field; an
 * expired link, a tampered link and a body larger than signed refused by the
 * store itself, with nothing stored.
 */
let stack: TestStack;
let connect: Driver;
beforeAll(async () => {
  stack = await startTestStack();
  connect = connectDriver(stack.gateway.httpUrl!, TEST_TOKEN);
});
afterAll(async () => {
  connect?.close();
  await stack?.close();
});

const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const link = (driver: Driver, request: Partial<CreateUploadLinkRequest>) =>
  driver.call(
    'upload',
    'createUploadLink',
    CreateUploadLinkRequest.fromPartial({ fileName: 'contrato social.pdf', contentType: 'application/pdf', sizeBytes: PDF.length, ...request }),
  );

describe.each([['gRPC'], ['Connect']])('over %s', (transport) => {
  const driver = () => (transport === 'gRPC' ? stack.client : connect);

  it('signs a 60-second PUT; the browser sends the file with the headers given, and the object is then public with the one-year cache header', async () => {
    const before = Date.now();
    const answer = await link(driver(), {});
    expect(answer.objectKey).toMatch(/^uploads\/[0-9a-f-]{36}\/contrato social\.pdf$/);
    expect(answer.headers).toEqual({ 'content-type': 'application/pdf', 'x-amz-acl': 'public-read', 'cache-control': 'public, max-age=31536000, immutable' });
    expect(answer.expiresAt.getTime()).toBeGreaterThanOrEqual(before + 59_000);
    expect(answer.expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + 60_000);
    const signed = new URL(answer.uploadUrl);
    expect(signed.searchParams.get('X-Amz-Expires')).toBe('60');
    expect(signed.searchParams.get('X-Amz-SignedHeaders')!.split(';')).toEqual(
      expect.arrayContaining(['content-length', 'content-type', 'cache-control', 'x-amz-acl']),
    );
    // No checksum of a body is signed into the link: the SDK's default would sign the empty body's, which S3 then holds every file to.
    expect([...signed.searchParams.keys()].filter((name) => /checksum/i.test(name))).toEqual([]);

    const put = await fetch(answer.uploadUrl, { method: 'PUT', headers: answer.headers, body: PDF });
    expect(put.status).toBe(200);
    expect(answer.publicUrl).toBe(`${stack.gateway.objectStoreUrl}/gateway-uploads/${answer.objectKey.split('/').map(encodeURIComponent).join('/')}`);
    const read = await fetch(answer.publicUrl);
    expect(read.status).toBe(200);
    expect(read.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(read.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await read.arrayBuffer())).toEqual(PDF);
  });

  it('refuses a path in the name, control and bidirectional-text characters, markup, another type and a size over 10 MiB, naming the field', async () => {
    for (const [request, field, message] of [
      [{ fileName: '../etc/passwd' }, 'file_name', "file_name must be a file's own name: at most 200 characters, no '/', '\\' or control characters"],
      [{ fileName: 'a\\b.pdf' }, 'file_name', "file_name must be a file's own name: at most 200 characters, no '/', '\\' or control characters"],
      [{ fileName: 'nota\u0007.pdf' }, 'file_name', "file_name must be a file's own name: at most 200 characters, no '/', '\\' or control characters"],
      [{ fileName: ' ' }, 'file_name', 'file_name is required'],
      ...['selfie\u202Efdp.exe', 'rg\u202A.pdf', 'rg\u2066frente\u2069.png', 'rg\u200F.pdf', 'rg\u200E.pdf'].map(
        (fileName) =>
          [{ fileName }, 'file_name', 'file_name must not contain bidirectional-text controls (U+200E, U+200F, U+061C, U+202A–U+202E, U+2066–U+2069)'] as const,
      ),
      ...['<img src=x onerror=alert(1)>.png', 'a&b.pdf', '"quoted".pdf', "o'brien.pdf"].map(
        (fileName) => [{ fileName }, 'file_name', `file_name must not contain markup characters: < > " ' &`] as const,
      ),
      [{ contentType: 'text/html' }, 'content_type', 'content_type must be one of application/pdf, image/jpeg, image/png'],
      [{ sizeBytes: 10 * 1024 * 1024 + 1 }, 'size_bytes', 'size_bytes must be from 1 to 10485760 (10 MiB)'],
      [{ sizeBytes: 0 }, 'size_bytes', 'size_bytes must be from 1 to 10485760 (10 MiB)'],
    ] as const) {
      expect(await failureOf(link(driver(), request))).toEqual({ code: 'INVALID_ARGUMENT', message });
      expect((await errorDetailsOf(link(driver(), request))).fields).toEqual([field]);
    }
  });
});

/** The code of the store's XML error (S3's: SignatureDoesNotMatch, AccessDenied…). */
const s3ErrorCode = (xml: string) => /<Code>([^<]+)<\/Code>/.exec(xml)?.[1];
const refusal = async (response: Response) => ({ status: response.status, code: s3ErrorCode(await response.text()) });
/** The link with one query parameter's raw value replaced, the rest byte for byte as signed. */
const withParam = (url: string, name: string, value: string) => url.replace(new RegExp(`([?&]${name}=)[^&]*`), `$1${value}`);
const readStatus = async (url: string) => (await fetch(url)).status;

it('the store refuses a link once its 60 seconds are over, and one whose lifetime was lengthened; nothing is stored', async () => {
  const storage = new ObjectStorage({
    endpoint: stack.gateway.objectStoreUrl,
    region: 'us-east-1',
    bucket: 'gateway-uploads',
    accessKeyId: stack.gateway.config.s3.accessKeyId!,
    secretAccessKey: stack.gateway.config.s3.secretAccessKey!,
    forcePathStyle: true,
  });
  const sign = (secondsAgo: number) =>
    storage.signedUpload({
      key: `uploads/expiry-${secondsAgo}/a.pdf`,
      contentType: 'application/pdf',
      sizeBytes: PDF.length,
      cacheControl: UPLOAD_CACHE_CONTROL,
      expiresInSeconds: UPLOAD_LINK_SECONDS,
      signedAt: new Date(Date.now() - secondsAgo * 1000),
    });
  const put = (url: string, headers: Record<string, string>) => fetch(url, { method: 'PUT', headers, body: PDF });
  const fresh = await sign(50);
  expect((await put(fresh.url, fresh.headers)).status).toBe(200);
  const expired = await sign(61);
  expect(await refusal(await put(expired.url, expired.headers))).toEqual({ status: 403, code: 'AccessDenied' });
  expect(await refusal(await put(withParam(expired.url, 'X-Amz-Expires', '3600'), expired.headers))).toEqual({ status: 403, code: 'SignatureDoesNotMatch' });
  expect(await readStatus(expired.publicUrl)).toBe(404);
  storage.close();
});

it('the store refuses a tampered link and stores nothing: another key, signature, lifetime, type, ACL or cache header', async () => {
  const answer = await link(stack.client, {});
  const otherName = (url: string) => url.replace(/contrato%20social\.pdf/, 'outro.pdf');
  const signature = new URL(answer.uploadUrl).searchParams.get('X-Amz-Signature')!;
  const flipped = `${signature.slice(0, -1)}${signature.endsWith('0') ? '1' : '0'}`;
  const { 'x-amz-acl': _acl, ...withoutAcl } = answer.headers;
  const tampered: [string, string, Record<string, string>][] = [
    ['another key', otherName(answer.uploadUrl), answer.headers],
    ['another signature', withParam(answer.uploadUrl, 'X-Amz-Signature', flipped), answer.headers],
    ['a longer lifetime', withParam(answer.uploadUrl, 'X-Amz-Expires', '3600'), answer.headers],
    ['another type', answer.uploadUrl, { ...answer.headers, 'content-type': 'text/html' }],
    ['another ACL', answer.uploadUrl, { ...answer.headers, 'x-amz-acl': 'public-read-write' }],
    ['no ACL', answer.uploadUrl, withoutAcl],
    ['another cache header', answer.uploadUrl, { ...answer.headers, 'cache-control': 'no-store' }],
  ];
  for (const [what, url, headers] of tampered) {
    const put = await fetch(url, { method: 'PUT', headers, body: PDF });
    expect({ what, ...(await refusal(put)) }).toEqual({ what, status: 403, code: 'SignatureDoesNotMatch' });
  }
  expect(await readStatus(answer.publicUrl)).toBe(404);
  expect(await readStatus(otherName(answer.publicUrl))).toBe(404);
  // The link itself was sound: as signed, it stores the file.
  expect((await fetch(answer.uploadUrl, { method: 'PUT', headers: answer.headers, body: PDF })).status).toBe(200);
});

it('the store refuses a body larger than signed and stores nothing: a larger Content-Length, chunked without one, bytes past it', async () => {
  const answer = await link(stack.client, {});
  const larger = `${PDF.toString('latin1')}<script>alert(1)</script>`;
  expect(await refusal(await fetch(answer.uploadUrl, { method: 'PUT', headers: answer.headers, body: larger }))).toEqual({
    status: 403,
    code: 'SignatureDoesNotMatch',
  });

  const { pathname, search, host } = new URL(answer.uploadUrl);
  const head = [`PUT ${pathname}${search} HTTP/1.1`, `Host: ${host}`, ...Object.entries(answer.headers).map(([name, value]) => `${name}: ${value}`)];
  const chunked = await rawRequest(
    answer.uploadUrl,
    [...head, 'Transfer-Encoding: chunked', 'Connection: close'],
    `${larger.length.toString(16)}\r\n${larger}\r\n0\r\n\r\n`,
  );
  expect({ status: chunked.status, code: s3ErrorCode(chunked.body) }).toEqual({ status: 403, code: 'SignatureDoesNotMatch' });
  // The signed length declared, and more bytes sent: Node frames the body by Content-Length, answers what follows 400 and drops
  // the connection mid-upload, which must leave no truncated object behind.
  const overrun = await rawRequest(answer.uploadUrl, [...head, `Content-Length: ${PDF.length}`, 'Connection: close'], larger);
  expect(overrun.status).toBe(400);

  expect(await readStatus(answer.publicUrl)).toBe(404);
});

it("lets the back-office's origin upload from the browser, and no other origin (CORS on the embedded store)", async () => {
  const preflight = (origin: string) =>
    fetch(`${stack.gateway.objectStoreUrl}/gateway-uploads/uploads/x/y.pdf`, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'PUT', 'access-control-request-headers': 'content-type,x-amz-acl,cache-control' },
    });
  // s3rver answers a matched preflight with "*"; what it checks is that the origin has a rule.
  expect((await preflight(stack.gateway.httpUrl!)).status).toBe(200);
  expect((await preflight('https://elsewhere.example')).status).toBe(403);

  const answer = await link(stack.client, {});
  const put = await fetch(answer.uploadUrl, { method: 'PUT', headers: { ...answer.headers, origin: stack.gateway.httpUrl! }, body: PDF });
  expect(put.headers.get('access-control-allow-origin')).toBe(stack.gateway.httpUrl);
});

it("lets the back-office page send files to the store and to no other address (its CSP's connect-src)", async () => {
  const csp = (await fetch(`${stack.gateway.httpUrl}/`)).headers.get('content-security-policy')!;
  const connectSrc = csp
    .split(';')
    .map((directive) => directive.trim().split(' '))
    .find(([name]) => name === 'connect-src');
  expect(connectSrc).toEqual(['connect-src', "'self'", new URL(stack.gateway.objectStoreUrl!).origin]);
});

it('a process without the back-office (npm run start:grpc) signs links for a configured S3_ENDPOINT', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'gateway-grpc-only-'));
  const config = loadConfig({
    HOST: '127.0.0.1',
    GRPC_PORT: '0',
    METRICS_PORT: 'off',
    DATA_DIR: dataDir,
    DATABASE_URL: stack.database.url,
    API_TOKENS: TEST_TOKEN,
    // A second process of the same database: its keys are the first's (it refuses to start otherwise).
    SECRETS_KEY: readFileSync(join(stack.gateway.dataDir, 'secrets.key'), 'utf8'),
    OUTBOUND_WEBHOOK_SECRET: TEST_OUTBOUND_SECRET,
    S3_ENDPOINT: stack.gateway.objectStoreUrl!,
    S3_ACCESS_KEY_ID: stack.gateway.config.s3.accessKeyId!,
    S3_SECRET_ACCESS_KEY: stack.gateway.config.s3.secretAccessKey!,
  });
  const grpcOnly = await startGateway(config, ['grpc'], createLogger('silent'));
  const client = grpcDriver(grpcOnly.grpcAddress!, TEST_TOKEN);
  try {
    const answer = await link(client, {});
    expect((await fetch(answer.uploadUrl, { method: 'PUT', headers: answer.headers, body: PDF })).status).toBe(200);
    expect((await fetch(answer.publicUrl)).status).toBe(200);
  } finally {
    client.close();
    await grpcOnly.close();
    removeDir(dataDir);
  }
});
