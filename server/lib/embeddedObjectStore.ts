import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import type S3rver from '@20minutes/s3rver';

/**
 * The embedded default's object store: s3rver on loopback, objects kept in a folder. The maintained fork
 * (@20minutes/s3rver) verifies AWS signature version 4, header- and query-signed, and a presigned link's expiry.
 */
export interface EmbeddedObjectStore {
  endpoint: string;
  accessKeyId: string;
  secretAccessKey: string;
  close(): Promise<void>;
}

/** s3rver's built-in account; the store is on loopback and for development only. */
const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

const corsXml = (origins: readonly string[]) =>
  `<CORSConfiguration>${origins
    .map(
      (origin) =>
        `<CORSRule><AllowedOrigin>${origin}</AllowedOrigin><AllowedMethod>PUT</AllowedMethod><AllowedMethod>GET</AllowedMethod><AllowedMethod>HEAD</AllowedMethod><AllowedHeader>*</AllowedHeader><ExposeHeader>ETag</ExposeHeader><MaxAgeSeconds>3000</MaxAgeSeconds></CORSRule>`,
    )
    .join('')}</CORSConfiguration>`;

/** What s3rver's filesystem store writes an object's bytes with (lib/stores/filesystem.js). */
interface ObjectContentWriter {
  putContent(objectPath: string, content: unknown): Promise<[size: number, md5: string]>;
}

/**
 * s3rver streams an upload straight into the object's file, so an upload cut short (the client gone, or bytes past
 * its Content-Length that make Node answer 400 and drop the connection) left a truncated object readable at its key.
 * The bytes go to a file aside and take the object's place only once the whole body arrived.
 */
function writeObjectsWhole(server: S3rver): void {
  const store = (server as unknown as { store?: Partial<ObjectContentWriter> }).store;
  if (typeof store?.putContent !== 'function') throw new Error("s3rver's store no longer has putContent: revisit writeObjectsWhole");
  const putContent = store.putContent.bind(store);
  store.putContent = async (objectPath, content) => {
    const partial = `${objectPath}.partial-${randomUUID()}`;
    try {
      const written = await putContent(partial, content);
      await rename(partial, objectPath);
      return written;
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
  };
}

/** Starts s3rver with `bucket` created and CORS open to `origins` (the back-office's). */
export async function startEmbeddedObjectStore(options: {
  host: string;
  port: number;
  directory: string;
  bucket: string;
  origins: readonly string[];
}): Promise<EmbeddedObjectStore> {
  mkdirSync(options.directory, { recursive: true });
  // Loaded here, not with the gateway: loading it takes 0.15-0.25 s of a start's CPU on this project's 2-core machine,
  // and the store starts after the back-office answers /healthz.
  const { default: S3rverServer } = await import('@20minutes/s3rver');
  const server = new S3rverServer({
    address: options.host,
    port: options.port,
    directory: options.directory,
    silent: true,
    configureBuckets: [{ name: options.bucket, configs: [corsXml(options.origins)] }],
  });
  writeObjectsWhole(server);
  const address = (await server.run()) as AddressInfo;
  return {
    endpoint: `http://${options.host}:${address.port}`,
    ...CREDENTIALS,
    close: () => server.close(),
  };
}
