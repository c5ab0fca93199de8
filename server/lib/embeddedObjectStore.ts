import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import S3rver from 's3rver';

/** The embedded default's object store: s3rver on loopback, objects kept in a folder. */
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

/** Starts s3rver with `bucket` created and CORS open to `origins` (the back-office's). */
export async function startEmbeddedObjectStore(options: {
  host: string;
  port: number;
  directory: string;
  bucket: string;
  origins: readonly string[];
}): Promise<EmbeddedObjectStore> {
  mkdirSync(options.directory, { recursive: true });
  const server = new S3rver({
    address: options.host,
    port: options.port,
    directory: options.directory,
    silent: true,
    configureBuckets: [{ name: options.bucket, configs: [corsXml(options.origins)] }],
  });
  const address = (await server.run()) as AddressInfo;
  return {
    endpoint: `http://${options.host}:${address.port}`,
    ...CREDENTIALS,
    close: () => server.close(),
  };
}
