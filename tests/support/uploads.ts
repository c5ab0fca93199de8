import { expect } from '@jest/globals';
import { CreateUploadLinkRequest, UploadPurpose, type CreateUploadLinkResponse } from '../../gen/ts-proto/gateway/v1/upload_service.js';
import type { Driver } from './clients.js';

/** A document uploaded as the back-office does it: a signed PUT to the gateway's store; the gateway's link. */
export async function uploadLink(
  driver: Driver,
  fileName: string,
  bytes: Buffer,
  { contentType = 'application/pdf', purpose = UploadPurpose.UPLOAD_PURPOSE_UNSPECIFIED } = {},
): Promise<CreateUploadLinkResponse> {
  const link = await driver.call(
    'upload',
    'createUploadLink',
    CreateUploadLinkRequest.fromPartial({ fileName, contentType, sizeBytes: bytes.length, purpose }),
  );
  expect((await fetch(link.uploadUrl, { method: 'PUT', headers: link.headers, body: new Uint8Array(bytes) })).status).toBe(200);
  return link;
}

/** A receiver's document uploaded as the back-office does it; its address (public_url). */
export async function uploadDocument(driver: Driver, fileName: string, bytes: Buffer, contentType = 'application/pdf'): Promise<string> {
  return (await uploadLink(driver, fileName, bytes, { contentType })).publicUrl;
}

/** A dispute's evidence uploaded as the dispute's page does it (private); its address, what AddDisputeEvidence takes. */
export async function uploadEvidence(driver: Driver, fileName: string, bytes: Buffer, contentType = 'application/pdf'): Promise<string> {
  return (await uploadLink(driver, fileName, bytes, { contentType, purpose: UploadPurpose.UPLOAD_PURPOSE_DISPUTE_EVIDENCE })).publicUrl;
}
