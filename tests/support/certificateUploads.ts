import { expect } from '@jest/globals';
import { CreateUploadLinkRequest, UploadPurpose } from '../../gen/ts-proto/gateway/v1/upload_service.js';
import type { TestStack } from './gateway.js';

/** A private upload link for a certificate file (UPLOAD_PURPOSE_CERTIFICATE), as the back-office asks for one. */
export const certificateLink = (client: TestStack['client'], fileName: string, contentType: string, sizeBytes: number) =>
  client.call(
    'upload',
    'createUploadLink',
    CreateUploadLinkRequest.fromPartial({ fileName, contentType, sizeBytes, purpose: UploadPurpose.UPLOAD_PURPOSE_CERTIFICATE }),
  );

/** Uploads a certificate file as the back-office does: a link from the gateway, then a PUT with exactly its headers. */
export async function uploadCertificate(client: TestStack['client'], fileName: string, contentType: string, content: string | Buffer) {
  const body = typeof content === 'string' ? Buffer.from(content) : content;
  const link = await certificateLink(client, fileName, contentType, body.length);
  expect((await fetch(link.uploadUrl, { method: 'PUT', headers: link.headers, body: new Uint8Array(body) })).status).toBe(200);
  return link;
}
