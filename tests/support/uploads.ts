import { expect } from '@jest/globals';
import { CreateUploadLinkRequest } from '../../gen/ts-proto/gateway/v1/upload_service.js';
import type { Driver } from './clients.js';

/** A document uploaded as the back-office does it: a signed PUT to the gateway's store; its address (public_url). */
export async function uploadDocument(driver: Driver, fileName: string, bytes: Buffer, contentType = 'application/pdf'): Promise<string> {
  const link = await driver.call('upload', 'createUploadLink', CreateUploadLinkRequest.fromPartial({ fileName, contentType, sizeBytes: bytes.length }));
  expect((await fetch(link.uploadUrl, { method: 'PUT', headers: link.headers, body: new Uint8Array(bytes) })).status).toBe(200);
  return link.publicUrl;
}
