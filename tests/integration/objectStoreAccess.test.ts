import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { CreateUploadLinkRequest } from '../../gen/ts-proto/gateway/v1/upload_service.js';
import { rawRequest } from '../support/rawHttp.js';
import { startTestStack, type TestStack } from '../support/gateway.js';

/**
 * Issue 32, point 3: the embedded object store keeps its promises. s3rver checks a signature only when a request
 * carries one; the layer in front of it refuses what an unsigned request may not do (write, delete, list, change the
 * bucket) with S3's AccessDenied, and the account it checks signatures against is this data folder's own key pair,
 * never the well-known S3RVER/S3RVER. Public objects are served with `nosniff`.
 */
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const BUCKET = 'gateway-uploads';
let stack: TestStack;
let store: string;
let publicUrl: string;

const s3Code = (xml: string) => /<Code>([^<]+)<\/Code>/.exec(xml)?.[1];
const answer = async (response: Response) => ({ status: response.status, code: s3Code(await response.text()) });
const sdk = (accessKeyId: string, secretAccessKey: string) =>
  new S3Client({ region: 'us-east-1', endpoint: store, forcePathStyle: true, credentials: { accessKeyId, secretAccessKey } });

beforeAll(async () => {
  stack = await startTestStack();
  store = stack.gateway.objectStoreUrl!;
  const link = await stack.client.call(
    'upload',
    'createUploadLink',
    CreateUploadLinkRequest.fromPartial({ fileName: 'selfie.pdf', contentType: 'application/pdf', sizeBytes: PDF.length }),
  );
  expect((await fetch(link.uploadUrl, { method: 'PUT', headers: link.headers, body: PDF })).status).toBe(200);
  publicUrl = link.publicUrl;
});
afterAll(async () => {
  await stack?.close();
});

describe('unsigned requests', () => {
  it('may not put, overwrite or delete an object: 403 AccessDenied, and the object stays as uploaded', async () => {
    const html = '<script>alert(document.domain)</script>';
    expect(
      await answer(await fetch(`${store}/${BUCKET}/uploads/new/page.html`, { method: 'PUT', headers: { 'content-type': 'text/html' }, body: html })),
    ).toEqual({
      status: 403,
      code: 'AccessDenied',
    });
    expect(await answer(await fetch(publicUrl, { method: 'PUT', headers: { 'content-type': 'text/html' }, body: html }))).toEqual({
      status: 403,
      code: 'AccessDenied',
    });
    expect(await answer(await fetch(publicUrl, { method: 'DELETE' }))).toEqual({ status: 403, code: 'AccessDenied' });
    const multiDelete = `<Delete><Object><Key>${new URL(publicUrl).pathname.slice(BUCKET.length + 2)}</Key></Object></Delete>`;
    expect(await answer(await fetch(`${store}/${BUCKET}?delete`, { method: 'POST', body: multiDelete }))).toEqual({ status: 403, code: 'AccessDenied' });
    const form = new FormData();
    form.set('key', 'uploads/form/page.html');
    form.set('Content-Type', 'text/html');
    form.set('file', new Blob([html], { type: 'text/html' }), 'page.html');
    expect(await answer(await fetch(`${store}/${BUCKET}`, { method: 'POST', body: form }))).toEqual({ status: 403, code: 'AccessDenied' });

    // Nothing was stored in their place.
    expect((await fetch(`${store}/${BUCKET}/uploads/new/page.html`)).status).toBe(404);
    expect((await fetch(`${store}/${BUCKET}/uploads/form/page.html`)).status).toBe(404);
    const read = await fetch(publicUrl);
    expect(read.status).toBe(200);
    expect(Buffer.from(await read.arrayBuffer())).toEqual(PDF);
  });

  it('may not list the bucket or the buckets, nor read an object subresource', async () => {
    for (const target of [`/${BUCKET}`, `/${BUCKET}/`, `/${BUCKET}?list-type=2`, `/${BUCKET}?prefix=uploads/`, '/', `${new URL(publicUrl).pathname}?acl`])
      expect({ target, ...(await answer(await fetch(`${store}${target}`))) }).toEqual({ target, status: 403, code: 'AccessDenied' });
  });

  it('may not change the bucket: CORS, website, creation, deletion', async () => {
    const cors =
      '<CORSConfiguration><CORSRule><AllowedOrigin>*</AllowedOrigin><AllowedMethod>PUT</AllowedMethod><AllowedMethod>GET</AllowedMethod></CORSRule></CORSConfiguration>';
    const website = '<WebsiteConfiguration><IndexDocument><Suffix>index.html</Suffix></IndexDocument></WebsiteConfiguration>';
    const changes: [string, string, string?][] = [
      ['PUT', `/${BUCKET}?cors`, cors],
      ['DELETE', `/${BUCKET}?cors`],
      ['PUT', `/${BUCKET}?website`, website],
      ['DELETE', `/${BUCKET}`],
      ['PUT', '/another-bucket'],
    ];
    for (const [method, target, body] of changes)
      expect({ method, target, ...(await answer(await fetch(`${store}${target}`, { method, body }))) }).toEqual({
        method,
        target,
        status: 403,
        code: 'AccessDenied',
      });
    // The back-office's origin still has its CORS rule, and no other origin got one.
    const preflight = (origin: string) =>
      fetch(`${store}/${BUCKET}/uploads/x/y.pdf`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'PUT' } });
    expect((await preflight(stack.gateway.httpUrl!)).status).toBe(200);
    expect((await preflight('https://elsewhere.example')).status).toBe(403);
  });

  it('may read a public object, served with nosniff and the type it was signed with', async () => {
    const read = await fetch(publicUrl);
    expect(read.status).toBe(200);
    expect(read.headers.get('x-content-type-options')).toBe('nosniff');
    expect(read.headers.get('content-type')).toBe('application/pdf');
    expect((await fetch(publicUrl, { method: 'HEAD' })).headers.get('x-content-type-options')).toBe('nosniff');
  });
});

describe('signed requests', () => {
  it('are checked against the key pair generated into the data folder; S3RVER/S3RVER opens nothing', async () => {
    const [accessKeyId, secretAccessKey] = readFileSync(join(stack.gateway.dataDir, 's3-credentials'), 'utf8').trim().split(':') as [string, string];
    expect(accessKeyId).toMatch(/^GW[0-9A-F]{18}$/);
    expect(secretAccessKey.length).toBeGreaterThanOrEqual(40);
    expect(stack.gateway.config.s3).toMatchObject({ accessKeyId, secretAccessKey });

    const wellKnown = sdk('S3RVER', 'S3RVER');
    await expect(wellKnown.send(new ListObjectsV2Command({ Bucket: BUCKET }))).rejects.toMatchObject({ name: 'InvalidAccessKeyId' });
    await expect(wellKnown.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'uploads/x/y.pdf', Body: PDF }))).rejects.toMatchObject({
      name: 'InvalidAccessKeyId',
    });
    const wrongSecret = sdk(accessKeyId, 'not-the-secret-0123456789');
    await expect(wrongSecret.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: 'uploads/x/y.pdf' }))).rejects.toMatchObject({
      name: 'SignatureDoesNotMatch',
    });
    wellKnown.destroy();
    wrongSecret.destroy();

    // The owner's key writes, reads and deletes, as on S3.
    const owner = sdk(accessKeyId, secretAccessKey);
    await owner.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'uploads/owner/a.pdf', Body: PDF, ContentType: 'application/pdf' }));
    const read = await owner.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'uploads/owner/a.pdf' }));
    expect(Buffer.from(await read.Body!.transformToByteArray())).toEqual(PDF);
    await owner.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: 'uploads/owner/a.pdf' }));
    expect((await fetch(`${store}/${BUCKET}/uploads/owner/a.pdf`)).status).toBe(404);
    owner.destroy();
  });

  it('must be AWS signature version 4: a version 2 signature is refused', async () => {
    const v2 = await fetch(`${store}/${BUCKET}/uploads/x/y.pdf`, {
      method: 'PUT',
      headers: { authorization: `AWS ${stack.gateway.config.s3.accessKeyId}:c2lnbmF0dXJl`, date: new Date().toUTCString() },
      body: PDF,
    });
    expect(await answer(v2)).toEqual({ status: 403, code: 'AccessDenied' });
  });
});

describe('names', () => {
  it('stores a file under the longest name the gateway signs (200 characters): the upload in progress has a short name of its own', async () => {
    const fileName = `${'n'.repeat(196)}.pdf`;
    const link = await stack.client.call(
      'upload',
      'createUploadLink',
      CreateUploadLinkRequest.fromPartial({ fileName, contentType: 'application/pdf', sizeBytes: PDF.length }),
    );
    expect((await fetch(link.uploadUrl, { method: 'PUT', headers: link.headers, body: PDF })).status).toBe(200);
    expect((await fetch(link.publicUrl)).status).toBe(200);
  });
});

describe('request targets', () => {
  it('answers 400, never 500, to a target that is not a path of the store', async () => {
    const { host } = new URL(store);
    const targets = [
      '*',
      '//x',
      'http://evil/',
      '/%',
      '/%FF',
      `/${BUCKET}/uploads/%E0%A4%A`,
      `/${BUCKET}/../etc/passwd`,
      `/${'a'.repeat(8000)}`,
      `/${BUCKET}/uploads/${'a'.repeat(3000)}`,
    ];
    for (const target of targets) {
      const response = await rawRequest(store, [`GET ${target} HTTP/1.1`, `Host: ${host}`, 'Connection: close']);
      expect({ target: target.slice(0, 40), status: response.status }).toEqual({ target: target.slice(0, 40), status: 400 });
    }
  });
});
