import { expect, it } from '@jest/globals';
import { UploadsService } from '../../server/gateway/uploads.js';
import { isGatewayError } from '../../server/lib/errors.js';

it("a document the gateway cannot read from its store is UNAVAILABLE DOCUMENT_UNREADABLE, naming the file as a value the back-office's text quotes", async () => {
  // No store attached: no URL is one of its objects, so nothing is fetched.
  const uploads = new UploadsService({ folder: 'uploads', privateUploads: false }, { db: {} as never, receivers: {} as never });
  const failure = await uploads.readDocument('https://elsewhere.example/uploads/nota.pdf', 'nota fiscal.pdf').catch((error: unknown) => error);
  expect(isGatewayError(failure) && [failure.code, failure.details.reason, failure.details.values]).toEqual([
    'UNAVAILABLE',
    'DOCUMENT_UNREADABLE',
    { fileName: 'nota fiscal.pdf' },
  ]);
});
