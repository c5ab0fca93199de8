import { randomUUID } from 'node:crypto';
import { GatewayError, invalidArgument } from '../lib/errors.js';
import type { ObjectStorage, SignedUpload } from '../lib/objectStorage.js';

/** What the specification fixes for uploads: a signed PUT valid 60 s (document 1 §7), a one-year immutable cache (document 3 §7). */
export const UPLOAD_LINK_SECONDS = 60;
export const UPLOAD_CACHE_CONTROL = 'public, max-age=31536000, immutable';
export const UPLOAD_MAX_BYTES = 10 * 1024 * 1024;
export const UPLOAD_CONTENT_TYPES = ['application/pdf', 'image/jpeg', 'image/png'] as const;
const FILE_NAME_MAX = 200;
/**
 * Bidirectional-text controls (LRM, RLM, ALM, the embeddings and overrides U+202A–U+202E, the isolates U+2066–U+2069):
 * invisible, they make a name display otherwise than it is (`selfie\u202Efdp.exe` shows as `selfieexe.pdf`).
 */
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;
/** What HTML and XML give a meaning to: a name is shown in pages and written into S3's XML answers. */
const MARKUP = /[<>"'&]/;

export interface UploadLink extends SignedUpload {
  key: string;
}

/** Signed links for the back-office to upload receivers' documents straight to object storage. */
export class UploadsService {
  private storage?: ObjectStorage;
  private origin?: string;

  constructor(private readonly folder: string) {}

  /** The store, once it is known (the embedded one starts after the back-office's address is). */
  async attach(storage: ObjectStorage): Promise<void> {
    this.origin = await storage.uploadOrigin();
    this.storage = storage;
  }

  /** Where the browser sends the files (the back-office's CSP lets it connect there); undefined without a store. */
  get uploadOrigin(): string | undefined {
    return this.origin;
  }

  /** Whether `url` is the public URL of an object in this gateway's own store, under its upload folder. */
  isOwnObject(url: string): boolean {
    return this.storage !== undefined && this.storage.ownsUrl(url) && new URL(url).pathname.includes(`/${this.folder}/`);
  }

  async createUploadLink(input: { fileName: string; contentType: string; sizeBytes: number }): Promise<UploadLink> {
    const fileName = input.fileName.trim();
    if (!fileName) throw invalidArgument('file_name', 'file_name is required');
    if (fileName.length > FILE_NAME_MAX || /[/\\\p{Cc}]/u.test(fileName) || fileName === '.' || fileName === '..')
      throw invalidArgument('file_name', `file_name must be a file's own name: at most ${FILE_NAME_MAX} characters, no '/', '\\' or control characters`);
    // Refused, not stripped: the key is the name the caller sent, so what it keeps and shows is the object's name; and
    // a bidi override in a name is an attempt to disguise it, which the caller should learn of rather than have hidden.
    if (BIDI_CONTROLS.test(fileName))
      throw invalidArgument('file_name', 'file_name must not contain bidirectional-text controls (U+200E, U+200F, U+061C, U+202A–U+202E, U+2066–U+2069)');
    if (MARKUP.test(fileName)) throw invalidArgument('file_name', `file_name must not contain markup characters: < > " ' &`);
    if (!(UPLOAD_CONTENT_TYPES as readonly string[]).includes(input.contentType))
      throw invalidArgument('content_type', `content_type must be one of ${UPLOAD_CONTENT_TYPES.join(', ')}`);
    if (!Number.isSafeInteger(input.sizeBytes) || input.sizeBytes < 1 || input.sizeBytes > UPLOAD_MAX_BYTES)
      throw invalidArgument('size_bytes', `size_bytes must be from 1 to ${UPLOAD_MAX_BYTES} (10 MiB)`);
    if (!this.storage)
      throw new GatewayError('UNAVAILABLE', 'object storage is not configured: set S3_ENDPOINT and its credentials', { reason: 'STORAGE_UNAVAILABLE' });
    const key = `${this.folder}/${randomUUID()}/${fileName}`;
    const signed = await this.storage.signedUpload({
      key,
      contentType: input.contentType,
      sizeBytes: input.sizeBytes,
      cacheControl: UPLOAD_CACHE_CONTROL,
      expiresInSeconds: UPLOAD_LINK_SECONDS,
    });
    return { ...signed, key };
  }
}
