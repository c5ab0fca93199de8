import { expect, it } from '@jest/globals';
import { ObjectStorage } from '../../../server/lib/objectStorage.js';

const storage = (settings: { endpoint?: string; forcePathStyle: boolean }) =>
  new ObjectStorage({ region: 'sa-east-1', bucket: 'gateway-uploads', accessKeyId: 'key', secretAccessKey: 'secret', ...settings });

it('names the origin signed PUTs go to, the one the back-office page must be allowed to connect to: the endpoint in path style, the bucket host otherwise', async () => {
  for (const [settings, origin] of [
    [{ endpoint: 'http://127.0.0.1:4569', forcePathStyle: true }, 'http://127.0.0.1:4569'],
    [{ endpoint: 'https://minio.example.com/', forcePathStyle: true }, 'https://minio.example.com'],
    [{ endpoint: 'https://minio.example.com:443/store', forcePathStyle: true }, 'https://minio.example.com'],
    [{ endpoint: 'http://objects.internal:9000/', forcePathStyle: true }, 'http://objects.internal:9000'],
    [{ forcePathStyle: false }, 'https://gateway-uploads.s3.sa-east-1.amazonaws.com'],
  ] as const) {
    const store = storage(settings);
    // Path style against an endpoint: named without the SDK, which the embedded default then loads only to sign.
    await expect(store.uploadOrigin()).resolves.toBe(origin);
    expect(store.sdkLoaded).toBe(!settings.forcePathStyle);
    const signed = await store.signedUpload({ key: 'a/b.pdf', contentType: 'application/pdf', sizeBytes: 1, cacheControl: 'no-store', expiresInSeconds: 60 });
    await expect(store.uploadOrigin()).resolves.toBe(origin);
    expect(new URL(signed.url).origin).toBe(origin);
    store.close();
  }
});
