import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { dirname, join } from 'node:path';
import { parse as parseQuery } from 'node:querystring';
import type S3rver from '@20minutes/s3rver';
import { BadHttpRequest, checkedTarget, listen } from './httpServer.js';

/**
 * The embedded default's object store: s3rver on loopback, objects kept in a folder. The maintained fork
 * (@20minutes/s3rver) verifies AWS signature version 4, header- and query-signed, and a presigned link's expiry, but
 * only of a request that is signed: an unsigned one it serves as the owner. A layer in front of it therefore decides
 * what an unsigned request may do (see `refusal`), and the account it checks signatures against is a key pair
 * generated for this data folder, never s3rver's well-known S3RVER/S3RVER.
 */
export interface EmbeddedObjectStore {
  endpoint: string;
  close(): Promise<void>;
}

export interface ObjectStoreCredentials {
  accessKeyId: string;
  secretAccessKey: string;
}

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
 * The bytes go to a file aside and take the object's place only once the whole body arrived. The file aside has a
 * short name of its own: named after the object, it would be the longest name in the folder and run past the
 * filesystem's 255 bytes before the object's own files do.
 */
function writeObjectsWhole(server: S3rver): void {
  const store = (server as unknown as { store?: Partial<ObjectContentWriter> }).store;
  if (typeof store?.putContent !== 'function') throw new Error("s3rver's store no longer has putContent: revisit writeObjectsWhole");
  const putContent = store.putContent.bind(store);
  store.putContent = async (objectPath, content) => {
    const partial = join(dirname(objectPath), `.partial-${randomUUID()}`);
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

/**
 * The longest name a key's part may have: s3rver keeps an object as files named after the key's last part plus up to
 * 22 bytes (`._S3rver_metadata.json`), and a filesystem name is at most 255 bytes. Longer, S3's KeyTooLongError (400)
 * instead of the filesystem's error as a 500.
 */
const KEY_PART_MAX_BYTES = 255 - '._S3rver_metadata.json'.length;

interface S3Refusal {
  status: number;
  code: string;
  message: string;
}

const refused = (status: number, code: string, message: string): S3Refusal => ({ status, code, message });
const ACCESS_DENIED = refused(403, 'AccessDenied', 'Access Denied');

/** The access key a SigV4 request names (Authorization header or presigned query), or undefined when it is not SigV4. */
function sigV4AccessKey(req: IncomingMessage, query: NodeJS.Dict<string | string[]>): string | undefined {
  const authorization = req.headers.authorization;
  if (authorization !== undefined) {
    if (!authorization.startsWith('AWS4-HMAC-SHA256 ')) return undefined;
    return /(?:^|[\s,])Credential=([^/,\s]+)\//.exec(authorization.slice('AWS4-HMAC-SHA256 '.length))?.[1];
  }
  const credential = query['X-Amz-Credential'];
  if (query['X-Amz-Algorithm'] !== 'AWS4-HMAC-SHA256' || typeof credential !== 'string') return undefined;
  return credential.split('/')[0];
}

/**
 * Why the request is refused before s3rver sees it, or undefined to let it through:
 * - a target that is not a path of this store (`*`, an absolute URL, `//x`, a malformed escape, a `..` part) is a 400,
 *   a part too long to be a file name a 400 KeyTooLongError;
 * - the store holds one bucket: anything else is refused;
 * - a signed request must be SigV4 with this store's own key (s3rver then checks the signature, the expiry and the
 *   signed headers); s3rver would take another key it knows of (another store in this process) as well;
 * - unsigned, only a CORS preflight, and, while uploads are public-read, a GET or HEAD of one object with no query
 *   (no subresource such as ?acl, no listing, no response-header overrides) outside the private prefixes. Writes,
 *   deletes, listings and bucket settings are refused whoever asks without a signature.
 * A request counts as signed exactly when s3rver's authentication would check it (an Authorization header, or the
 * Signature or X-Amz-Algorithm query parameter, case as written): anything else it serves as anonymous.
 */
function refusal(
  req: IncomingMessage,
  options: { bucket: string; credentials: ObjectStoreCredentials; publicReads: boolean; privatePrefixes?: readonly string[] },
): S3Refusal | undefined {
  let target: string;
  try {
    target = checkedTarget(req);
  } catch (error) {
    if (error instanceof BadHttpRequest) return refused(400, 'InvalidURI', "Couldn't parse the specified URI.");
    throw error;
  }
  const [rawPath = '', search = ''] = target.split(/\?(.*)/s);
  const [bucket = '', ...key] = rawPath.slice(1).split('/').map(decodeURIComponent);
  const keyParts = key.join('/').split('/');
  if (keyParts.some((part) => part === '.' || part === '..')) return refused(400, 'InvalidURI', "Couldn't parse the specified URI.");
  if ([bucket, ...keyParts].some((part) => Buffer.byteLength(part) > KEY_PART_MAX_BYTES)) return refused(400, 'KeyTooLongError', 'Your key is too long');
  if (bucket !== options.bucket) return ACCESS_DENIED;
  if (req.method === 'OPTIONS') return undefined;
  const query = parseQuery(search);
  if (req.headers.authorization !== undefined || 'Signature' in query || 'X-Amz-Algorithm' in query) {
    const accessKey = sigV4AccessKey(req, query);
    if (accessKey === undefined) return refused(403, 'AccessDenied', 'Only AWS Signature Version 4 is accepted');
    if (accessKey !== options.credentials.accessKeyId)
      return refused(403, 'InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.');
    return undefined;
  }
  const objectKey = key.join('/');
  const objectRead = (req.method === 'GET' || req.method === 'HEAD') && objectKey !== '' && search === '';
  const privateObject = options.privatePrefixes?.some((prefix) => objectKey.startsWith(prefix)) ?? false;
  return options.publicReads && objectRead && !privateObject ? undefined : ACCESS_DENIED;
}

function answerRefusal(res: ServerResponse, { status, code, message }: S3Refusal): void {
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`;
  res.writeHead(status, { 'content-type': 'application/xml', 'x-amz-error-code': code, ...(status === 400 ? { connection: 'close' } : {}) }).end(body);
}

/**
 * Starts s3rver with `bucket` created and CORS open to `origins` (the back-office's), checking signatures against
 * `credentials` only. `publicReads`: whether an object may be read without a signature (uploads are public-read, as
 * the specification has them); false keeps every object behind a signed (presigned) GET. `privatePrefixes`: keys
 * kept behind a signed GET even so (S3 would keep them private by their missing ACL, which s3rver does not enforce).
 */
export async function startEmbeddedObjectStore(options: {
  host: string;
  port: number;
  directory: string;
  bucket: string;
  origins: readonly string[];
  credentials: ObjectStoreCredentials;
  publicReads: boolean;
  privatePrefixes?: readonly string[];
}): Promise<EmbeddedObjectStore> {
  mkdirSync(options.directory, { recursive: true });
  // Loaded here, not with the gateway: loading it takes 0.15-0.25 s of a start's CPU on this project's 2-core machine,
  // and the store starts after the back-office answers /healthz.
  const [{ default: S3rverServer }, { default: accounts }] = await Promise.all([
    import('@20minutes/s3rver'),
    import('@20minutes/s3rver/lib/models/account.js'),
  ]);
  // The registry is s3rver's, shared by every store in the process: the well-known pair goes for good, this store's
  // own pair comes and goes with it.
  accounts.DUMMY_ACCOUNT.revokeAccessKey('S3RVER');
  accounts.DUMMY_ACCOUNT.createKeyPair(options.credentials.accessKeyId, options.credentials.secretAccessKey);
  const app = new S3rverServer({
    directory: options.directory,
    silent: true,
    // Path style only (the gateway signs path-style links): with virtual hosts on, a Host header would choose the bucket.
    vhostBuckets: false,
    configureBuckets: [{ name: options.bucket, configs: [corsXml(options.origins)] }],
  });
  writeObjectsWhole(app);
  await app.configureBuckets();
  const serve = app.callback();
  const server = createServer((req, res) => {
    const refuse = refusal(req, options);
    if (refuse) return answerRefusal(res, refuse);
    // Objects are served with the type they were signed with, and a browser must not guess another.
    res.setHeader('x-content-type-options', 'nosniff');
    serve(req, res);
  });
  const listening = await listen(server, options.host, options.port);
  return {
    endpoint: listening.url,
    close: async () => {
      await listening.close();
      accounts.DUMMY_ACCOUNT.revokeAccessKey(options.credentials.accessKeyId);
      (app as unknown as { logger?: { close(): void } }).logger?.close();
    },
  };
}
