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

/** Each segment of a key percent-encoded, the slashes kept. */
const encodeKey = (key: string) => key.split('/').map(encodeURIComponent).join('/');

/** Signs PUTs of one object each, public-read, with their type, size and cache header bound into the signature. */
export class ObjectStorage {
  /**
   * The SDK and its client, loaded on the first signature rather than with the gateway: loading them takes 0.1-0.2 s
   * of a start's CPU on this project's 2-core machine, and the first signature comes after /healthz answers.
   */
  private sdk?: Promise<{
    client: S3Client;
    sign: typeof import('@aws-sdk/s3-request-presigner').getSignedUrl;
    put: typeof import('@aws-sdk/client-s3').PutObjectCommand;
  }>;
  private closed = false;

  constructor(private readonly settings: ObjectStorageSettings) {}

  private loadSdk() {
    this.sdk ??= (async () => {
      const [{ PutObjectCommand, S3Client }, { getSignedUrl }] = await Promise.all([import('@aws-sdk/client-s3'), import('@aws-sdk/s3-request-presigner')]);
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
      return { client, sign: getSignedUrl, put: PutObjectCommand };
    })();
    return this.sdk;
  }

  /** `signedAt` is now unless given (tests sign in the past to see the store refuse an expired link). */
  async signedUpload(upload: {
    key: string;
    contentType: string;
    sizeBytes: number;
    cacheControl: string;
    expiresInSeconds: number;
    signedAt?: Date;
  }): Promise<SignedUpload> {
    const headers = { 'content-type': upload.contentType, 'x-amz-acl': 'public-read', 'cache-control': upload.cacheControl };
    const { client, sign, put: PutObjectCommand } = await this.loadSdk();
    const command = new PutObjectCommand({
      Bucket: this.settings.bucket,
      Key: upload.key,
      ContentType: upload.contentType,
      ContentLength: upload.sizeBytes,
      ACL: 'public-read',
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
   * The origin (scheme, host, port) signed PUTs go to: what a browser page
   * uploading to this store must be allowed to connect to (its CSP). Read from
   * a signed URL, so that it is the SDK's own choice of path or virtual-hosted style.
   */
  async uploadOrigin(): Promise<string> {
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

  close(): void {
    this.closed = true;
    void this.sdk?.then(
      ({ client }) => client.destroy(),
      () => undefined,
    );
  }
}
