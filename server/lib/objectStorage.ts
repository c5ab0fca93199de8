import type { S3Client } from '@aws-sdk/client-s3';

/** Where uploads go: any S3-compatible store (S3_* settings). */
export interface ObjectStorageSettings {
  endpoint?: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Where objects are read publicly; default: the endpoint's path-style address of the bucket. */
  publicUrl?: string;
  forcePathStyle: boolean;
}

export interface SignedUpload {
  url: string;
  /** Exactly what the PUT must carry; they are signed. */
  headers: Record<string, string>;
  publicUrl: string;
  expiresAt: Date;
}

export interface SignedRead {
  url: string;
  expiresAt: Date;
}

/** Each segment of a key percent-encoded, the slashes kept. */
const encodeKey = (key: string) => key.split('/').map(encodeURIComponent).join('/');

/**
 * Signs PUTs of one object each (public-read, or private), with their type, size, ACL and cache header bound into the
 * signature; and GETs of one object, for reading a private one.
 */
export class ObjectStorage {
  /**
   * The SDK and its client, loaded on the first signature rather than with the gateway: loading them takes 0.1-0.2 s
   * of a start's CPU on this project's 2-core machine, and the first signature comes after /healthz answers.
   */
  private sdk?: Promise<{
    client: S3Client;
    sign: typeof import('@aws-sdk/s3-request-presigner').getSignedUrl;
    put: typeof import('@aws-sdk/client-s3').PutObjectCommand;
    get: typeof import('@aws-sdk/client-s3').GetObjectCommand;
  }>;
  private closed = false;

  constructor(private readonly settings: ObjectStorageSettings) {}

  private loadSdk() {
    this.sdk ??= (async () => {
      const [{ GetObjectCommand, PutObjectCommand, S3Client }, { getSignedUrl }] = await Promise.all([
        import('@aws-sdk/client-s3'),
        import('@aws-sdk/s3-request-presigner'),
      ]);
      const client = new S3Client({
        region: this.settings.region,
        endpoint: this.settings.endpoint,
        forcePathStyle: this.settings.forcePathStyle,
        // By default the SDK signs a CRC32 of the body into a PUT link; presigned without a body that is the empty body's
        // (AAAAAA==), and S3 (and R2) then refuse every real file uploaded through the link.
        requestChecksumCalculation: 'WHEN_REQUIRED',
        credentials: { accessKeyId: this.settings.accessKeyId, secretAccessKey: this.settings.secretAccessKey },
      });
      if (this.closed) client.destroy();
      return { client, sign: getSignedUrl, put: PutObjectCommand, get: GetObjectCommand };
    })();
    return this.sdk;
  }

  /**
   * `publicRead` (default true) signs the public-read ACL; false signs no ACL, so the object is the bucket owner's only
   * (an explicit `private` ACL would be refused by buckets whose ACLs are disabled, AWS's default for new buckets).
   * `signedAt` is now unless given (tests sign in the past to see the store refuse an expired link).
   */
  async signedUpload(upload: {
    key: string;
    contentType: string;
    sizeBytes: number;
    cacheControl: string;
    expiresInSeconds: number;
    publicRead?: boolean;
    signedAt?: Date;
  }): Promise<SignedUpload> {
    const publicRead = upload.publicRead ?? true;
    const headers: Record<string, string> = {
      'content-type': upload.contentType,
      ...(publicRead ? { 'x-amz-acl': 'public-read' } : {}),
      'cache-control': upload.cacheControl,
    };
    const { client, sign, put: PutObjectCommand } = await this.loadSdk();
    const command = new PutObjectCommand({
      Bucket: this.settings.bucket,
      Key: upload.key,
      ContentType: upload.contentType,
      ContentLength: upload.sizeBytes,
      ...(publicRead ? { ACL: 'public-read' as const } : {}),
      CacheControl: upload.cacheControl,
    });
    const signedAt = upload.signedAt?.getTime() ?? Date.now();
    const url = await sign(client, command, {
      expiresIn: upload.expiresInSeconds,
      signingDate: new Date(signedAt),
      // Kept as signed headers, not hoisted into the query: the store then refuses a PUT whose type, ACL, cache header or size differ.
      signableHeaders: new Set(['content-type', 'content-length', 'x-amz-acl', 'cache-control']),
      unhoistableHeaders: new Set(['x-amz-acl']),
    });
    return { url, headers, publicUrl: `${this.publicBase()}/${encodeKey(upload.key)}`, expiresAt: new Date(signedAt + upload.expiresInSeconds * 1000) };
  }

  /**
   * A GET of one object signed for `expiresInSeconds`: how a private object is read. The answer is marked
   * `private, no-store` whatever cache header the object was stored with, so that no cache keeps it past the link.
   */
  async signedRead(read: { key: string; expiresInSeconds: number; signedAt?: Date }): Promise<SignedRead> {
    const { client, sign, get: GetObjectCommand } = await this.loadSdk();
    const signedAt = read.signedAt?.getTime() ?? Date.now();
    const command = new GetObjectCommand({ Bucket: this.settings.bucket, Key: read.key, ResponseCacheControl: 'private, no-store' });
    const url = await sign(client, command, { expiresIn: read.expiresInSeconds, signingDate: new Date(signedAt) });
    return { url, expiresAt: new Date(signedAt + read.expiresInSeconds * 1000) };
  }

  /** The key of the object a public URL of this store names (see ownsUrl), or undefined for any other URL. */
  keyOf(url: string): string | undefined {
    if (!this.ownsUrl(url)) return undefined;
    try {
      const { pathname } = new URL(url);
      const basePath = new URL(`${this.publicBase()}/`).pathname;
      if (!pathname.startsWith(basePath)) return undefined;
      return pathname.slice(basePath.length).split('/').map(decodeURIComponent).join('/') || undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * The origin (scheme, host, port) signed PUTs go to: what a browser page
   * uploading to this store must be allowed to connect to (its CSP). In path style against an endpoint of its own
   * (the embedded default's store) that is the endpoint's origin, and the SDK stays unloaded until the first upload:
   * it is about 10 MB of resident memory. Otherwise it is read from a signed URL, so that it is the SDK's own choice
   * of path or virtual-hosted style and of the region's domain.
   */
  async uploadOrigin(): Promise<string> {
    if (this.settings.forcePathStyle && this.settings.endpoint) return new URL(this.settings.endpoint).origin;
    const probe = await this.signedUpload({ key: 'origin-probe', contentType: 'application/pdf', sizeBytes: 1, cacheControl: 'no-store', expiresInSeconds: 1 });
    return new URL(probe.url).origin;
  }

  /** Whether `url` names an object of this store, as its public URLs do (the links signed here point there). */
  ownsUrl(url: string): boolean {
    return url.startsWith(`${this.publicBase()}/`) && !url.slice(this.publicBase().length).includes('/../');
  }

  private publicBase(): string {
    if (this.settings.publicUrl) return this.settings.publicUrl.replace(/\/+$/, '');
    const endpoint = (this.settings.endpoint ?? `https://s3.${this.settings.region}.amazonaws.com`).replace(/\/+$/, '');
    return `${endpoint}/${this.settings.bucket}`;
  }

  /** Whether the SDK was loaded (tests: the embedded default loads it on the first upload, not at start). */
  get sdkLoaded(): boolean {
    return this.sdk !== undefined;
  }

  close(): void {
    this.closed = true;
    void this.sdk?.then(
      ({ client }) => client.destroy(),
      () => undefined,
    );
  }
}
