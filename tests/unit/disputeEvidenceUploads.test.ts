import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer } from 'node:http';
import { UploadsService } from '../../server/gateway/uploads.js';
import { listen, type ListeningServer } from '../../server/lib/httpServer.js';
import { ObjectStorage } from '../../server/lib/objectStorage.js';
import { closedPort } from '../support/closedPort.js';

/**
 * What AddDisputeEvidence relies on (issue 33 §3, "through the private document flow"): an evidence upload is signed
 * without public-read under its own prefix, only such an object counts as evidence, and one that the store serves
 * without a signature all the same (a bucket policy, a CDN) is refused.
 */
const STORE = 'http://127.0.0.1:9/gateway-uploads';
let storage: ObjectStorage;
let uploads: UploadsService;
/** Answers a HEAD of `/public/…` with 200, anything else with S3's 403. */
let store: ListeningServer;

beforeAll(async () => {
  storage = new ObjectStorage({
    region: 'us-east-1',
    endpoint: 'http://127.0.0.1:9',
    bucket: 'gateway-uploads',
    forcePathStyle: true,
    accessKeyId: 'k',
    secretAccessKey: 's',
  });
  uploads = new UploadsService({ folder: 'uploads', privateUploads: false }, { db: undefined as never, receivers: undefined as never });
  await uploads.attach(storage);
  store = await listen(
    createServer((req, res) => res.writeHead(req.url!.startsWith('/public/') ? 200 : 403).end()),
    '127.0.0.1',
    0,
  );
});
afterAll(async () => {
  storage.close();
  await store.close();
});

describe('an evidence upload', () => {
  it('is private under the evidence prefix while receivers’ documents stay public-read', async () => {
    const evidence = await uploads.createUploadLink({ fileName: 'nota.pdf', contentType: 'application/pdf', sizeBytes: 10, purpose: 'DISPUTE_EVIDENCE' });
    expect(evidence).toMatchObject({ publicRead: false, key: expect.stringMatching(/^uploads\/dispute-evidence\/[0-9a-f-]{36}\/nota\.pdf$/) });
    expect(evidence.headers).toEqual({ 'content-type': 'application/pdf', 'cache-control': 'private, no-store' });
    expect(uploads.isEvidenceObject(evidence.publicUrl)).toBe(true);

    const receiverDocument = await uploads.createUploadLink({ fileName: 'nota.pdf', contentType: 'application/pdf', sizeBytes: 10 });
    expect(receiverDocument.publicRead).toBe(true);
    expect(uploads.isEvidenceObject(receiverDocument.publicUrl)).toBe(false);
  });

  it('counts only as an object of this store under the evidence prefix, however the address is spelled', () => {
    expect(uploads.isEvidenceObject(`${STORE}/uploads/dispute-evidence/0f0e/nota.pdf`)).toBe(true);
    expect(uploads.isEvidenceObject(`${STORE}/uploads/0f0e/nota.pdf`)).toBe(false);
    expect(uploads.isEvidenceObject(`${STORE}/uploads/dispute-evidence/%2e%2e/0f0e/nota.pdf`)).toBe(false);
    expect(uploads.isEvidenceObject(`${STORE}/other/dispute-evidence/0f0e/nota.pdf`)).toBe(false);
    expect(uploads.isEvidenceObject('https://example.com/gateway-uploads/uploads/dispute-evidence/0f0e/nota.pdf')).toBe(false);
  });

  it('is refused where its plain address answers without a signature, or cannot be probed', async () => {
    await expect(uploads.assertPrivate(`${store.url}/private/nota.pdf`, 'nota.pdf')).resolves.toBeUndefined();
    await expect(uploads.assertPrivate(`${store.url}/public/nota.pdf`, 'nota.pdf')).rejects.toMatchObject({
      code: 'FAILED_PRECONDITION',
      details: { reason: 'EVIDENCE_NOT_PRIVATE' },
      message: expect.stringMatching(/^nota\.pdf can be read at its address without a signed link/),
    });
    await expect(uploads.assertPrivate(`http://127.0.0.1:${await closedPort()}/nota.pdf`, 'nota.pdf')).rejects.toMatchObject({ code: 'UNAVAILABLE' });
  });
});

describe('an upload link', () => {
  const link = (input: Partial<{ fileName: string; contentType: string; sizeBytes: number }>, service = uploads) =>
    service.createUploadLink({ fileName: 'nota.pdf', contentType: 'application/pdf', sizeBytes: 10, ...input });
  const refusal = async (promise: Promise<unknown>) => {
    const error = (await promise.then(
      () => undefined,
      (caught: unknown) => caught,
    )) as { code?: string; details?: { field?: string } } | undefined;
    return { code: error?.code, field: error?.details?.field };
  };

  it.each([
    ['a blank name', { fileName: '  ' }, 'file_name'],
    ['a name with a folder', { fileName: 'a/nota.pdf' }, 'file_name'],
    ['a name that is a dot folder', { fileName: '..' }, 'file_name'],
    ['a name over 255 characters', { fileName: `${'a'.repeat(300)}.pdf` }, 'file_name'],
    ['a bidirectional override', { fileName: 'nota\u202Efdp.exe' }, 'file_name'],
    ['markup', { fileName: '<b>nota.pdf' }, 'file_name'],
    ['a type not taken', { contentType: 'text/html' }, 'content_type'],
    ['an empty file', { sizeBytes: 0 }, 'size_bytes'],
    ['more than 10 MiB', { sizeBytes: 10 * 1024 * 1024 + 1 }, 'size_bytes'],
    ['a fractional size', { sizeBytes: 1.5 }, 'size_bytes'],
  ])('refuses %s before anything is signed', async (_what, input, field) => {
    expect(await refusal(link(input))).toEqual({ code: 'INVALID_ARGUMENT', field });
  });

  it('is UNAVAILABLE while no object store is attached', async () => {
    const detached = new UploadsService({ folder: 'uploads', privateUploads: true }, { db: undefined as never, receivers: undefined as never });
    expect(await refusal(link({}, detached))).toMatchObject({ code: 'UNAVAILABLE' });
  });
});
