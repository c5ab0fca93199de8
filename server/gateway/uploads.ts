import { randomUUID } from 'node:crypto';
import {
  CERTIFICATE_CONTENT_TYPES,
  CERTIFICATE_EXTENSIONS,
  CERTIFICATE_MAX_BYTES,
  certificateContentType,
  extensionOf,
} from '../../shared/certificateFiles.js';
import type { Database } from '../db/orm.js';
import type { ReceiversRepository } from '../db/receiversRepository.js';
import type { ReceiverDocuments } from '../domain/types.js';
import { GatewayError, invalidArgument, notFound } from '../lib/errors.js';
import { displayUrl, joinCertificateAndKey, missingCertificatePart } from '../lib/http/clientCertificate.js';
import type { ObjectStorage, SignedUpload } from '../lib/objectStorage.js';
import { requireInRange, requireOneOf } from './validation.js';

/** What the specification fixes for uploads: a signed PUT valid 60 s (document 1 §7), a one-year immutable cache (document 3 §7). */
export const UPLOAD_LINK_SECONDS = 60;
export const UPLOAD_CACHE_CONTROL = 'public, max-age=31536000, immutable';
/** A private upload's cache header: no shared cache may keep it, and no browser either (a presigned link outlives nothing). */
export const PRIVATE_UPLOAD_CACHE_CONTROL = 'private, no-store';
/**
 * How long a link to read a document works: long enough for a browser's PDF viewer, which reads a large file in
 * ranges as it is scrolled, short enough that a link copied out of a page is soon worthless.
 */
export const DOCUMENT_LINK_SECONDS = 300;
/** How long the gateway's own read of one document may take (10 MiB from its store). */
const DOCUMENT_READ_MS = 30_000;
export const UPLOAD_MAX_BYTES = 10 * 1024 * 1024;
export const UPLOAD_CONTENT_TYPES = ['application/pdf', 'image/jpeg', 'image/png'] as const;
const FILE_NAME_MAX = 200;
/** How long the gateway's anonymous probe of an evidence document's plain address may take. */
const PRIVACY_PROBE_MS = 10_000;
/**
 * Where dispute evidence is kept, under the upload folder: its own prefix, so that a store or a bucket policy can keep
 * it private by prefix (the embedded store does, see privateKeyPrefixes), and the gateway can tell it from any other upload.
 */
export const EVIDENCE_PREFIX = 'dispute-evidence';
/**
 * Where provider accounts' client certificates (and their keys) are kept: private by prefix like evidence, and told
 * from any other upload so that an account may name only such an object of the gateway's store as a certificate.
 */
export const CERTIFICATE_PREFIX = 'certificates';
/** The key prefixes whose objects are never read without a signature, whatever UPLOADS_PRIVATE says. */
export const privateKeyPrefixes = (folder: string): string[] => [`${folder}/${EVIDENCE_PREFIX}/`, `${folder}/${CERTIFICATE_PREFIX}/`];

/**
 * What an upload is for: a receiver's document follows UPLOADS_PRIVATE, a dispute's evidence and a provider account's
 * client certificate are always private.
 */
export type UploadPurpose = 'RECEIVER_DOCUMENT' | 'DISPUTE_EVIDENCE' | 'CERTIFICATE';

/** Each purpose's folder under S3_FOLDER (none for a receiver's document). */
const PURPOSE_PREFIXES: Readonly<Record<UploadPurpose, string | undefined>> = {
  RECEIVER_DOCUMENT: undefined,
  DISPUTE_EVIDENCE: EVIDENCE_PREFIX,
  CERTIFICATE: CERTIFICATE_PREFIX,
};
/**
 * Bidirectional-text controls (LRM, RLM, ALM, the embeddings and overrides U+202A–U+202E, the isolates U+2066–U+2069):
 * invisible, they make a name display otherwise than it is (`selfie\u202Efdp.exe` shows as `selfieexe.pdf`).
 */
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;
/** What HTML and XML give a meaning to: a name is shown in pages and written into S3's XML answers. */
const MARKUP = /[<>"'&]/;

export interface UploadLink extends SignedUpload {
  key: string;
  /** Whether the object is public-read (false with UPLOADS_PRIVATE). */
  publicRead: boolean;
}

/** A receiver's documents, as ReceiverDocuments names them. */
export type ReceiverDocumentField = keyof ReceiverDocuments;

export interface DocumentReadLink {
  url: string;
  /** Undefined for a URL outside the gateway's store: the gateway does not sign it. */
  expiresAt?: Date;
}

export interface UploadsOptions {
  /** S3_FOLDER: the first part of every key. */
  folder: string;
  /** UPLOADS_PRIVATE: uploads without public-read, read through presigned links only. */
  privateUploads: boolean;
}

/** A client certificate's name, type and size: a certificate file's extension, the type it gives, at most 64 KiB. */
function checkCertificate(fileName: string, contentType: string, sizeBytes: number): void {
  const expected = certificateContentType(fileName);
  if (!expected)
    throw invalidArgument('file_name', `a certificate must be a .${CERTIFICATE_EXTENSIONS.join(', .')} file: ${fileName} is not one`, 'UNKNOWN_VALUE');
  requireOneOf('content_type', contentType, [expected], `content_type must be ${expected} for a .${extensionOf(fileName)} certificate`);
  requireInRange('size_bytes', sizeBytes, 1, CERTIFICATE_MAX_BYTES, `size_bytes must be from 1 to ${CERTIFICATE_MAX_BYTES} (64 KiB) for a certificate`);
}

/**
 * Signed links for the back-office to upload receivers' documents straight to object storage, and to read them again
 * (which, with private uploads, is the only way to read them).
 */
export class UploadsService {
  private storage?: ObjectStorage;
  private origin?: string;
  private readonly folder: string;
  private readonly privateUploads: boolean;

  constructor(
    options: UploadsOptions,
    private readonly deps: { db: Database; receivers: ReceiversRepository },
  ) {
    this.folder = options.folder;
    this.privateUploads = options.privateUploads;
  }

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

  /** Whether `url` is an object of this store uploaded as dispute evidence (under the evidence prefix). */
  isEvidenceObject(url: string): boolean {
    return this.isUnder(url, EVIDENCE_PREFIX);
  }

  /** Whether `url` is an object of this store uploaded as a client certificate (under the certificate prefix). */
  isCertificateObject(url: string): boolean {
    return this.isUnder(url, CERTIFICATE_PREFIX);
  }

  private isUnder(url: string, prefix: string): boolean {
    const key = this.storage?.keyOf(url);
    return key !== undefined && key.startsWith(`${this.folder}/${prefix}/`) && !key.split('/').includes('..');
  }

  /**
   * Refuses an evidence document that anyone can read at its plain address: the key prefix and the missing ACL keep it
   * private on a store configured as the gateway expects, this probe proves it on the store as it is (a bucket policy
   * or a CDN in front may publish what the ACL does not). An address that cannot be probed is refused too.
   */
  async assertPrivate(url: string, fileName: string): Promise<void> {
    const answer = await fetch(url, { method: 'HEAD', redirect: 'manual', signal: AbortSignal.timeout(PRIVACY_PROBE_MS) }).catch((error: unknown) => {
      throw new GatewayError(
        'UNAVAILABLE',
        `${fileName} could not be checked to be private (${error instanceof Error ? error.message : String(error)}): it was not added`,
        { reason: 'STORAGE_UNAVAILABLE' },
      );
    });
    if (answer.status < 300)
      throw new GatewayError(
        'FAILED_PRECONDITION',
        `${fileName} can be read at its address without a signed link: evidence must be private, so it was not added (check the bucket's policy for the ${EVIDENCE_PREFIX}/ prefix)`,
        { reason: 'EVIDENCE_NOT_PRIVATE' },
      );
  }

  async createUploadLink(input: { fileName: string; contentType: string; sizeBytes: number; purpose?: UploadPurpose }): Promise<UploadLink> {
    const fileName = input.fileName.trim();
    if (!fileName) throw invalidArgument('file_name', 'file_name is required', 'REQUIRED');
    if (fileName.length > FILE_NAME_MAX || /[/\\\p{Cc}]/u.test(fileName) || fileName === '.' || fileName === '..')
      throw invalidArgument(
        'file_name',
        `file_name must be a file's own name: at most ${FILE_NAME_MAX} characters, no '/', '\\' or control characters`,
        'INVALID_VALUE',
      );
    // Refused, not stripped: the key is the name the caller sent, so what it keeps and shows is the object's name; and
    // a bidi override in a name is an attempt to disguise it, which the caller should learn of rather than have hidden.
    if (BIDI_CONTROLS.test(fileName))
      throw invalidArgument(
        'file_name',
        'file_name must not contain bidirectional-text controls (U+200E, U+200F, U+061C, U+202A–U+202E, U+2066–U+2069)',
        'INVALID_VALUE',
      );
    if (MARKUP.test(fileName)) throw invalidArgument('file_name', `file_name must not contain markup characters: < > " ' &`, 'INVALID_VALUE');
    const purpose = input.purpose ?? 'RECEIVER_DOCUMENT';
    if (purpose === 'CERTIFICATE') checkCertificate(fileName, input.contentType, input.sizeBytes);
    else {
      requireOneOf('content_type', input.contentType, UPLOAD_CONTENT_TYPES);
      requireInRange('size_bytes', input.sizeBytes, 1, UPLOAD_MAX_BYTES, `size_bytes must be from 1 to ${UPLOAD_MAX_BYTES} (10 MiB)`);
    }
    if (!this.storage)
      throw new GatewayError('UNAVAILABLE', 'object storage is not configured: set S3_ENDPOINT and its credentials', { reason: 'STORAGE_UNAVAILABLE' });
    const prefix = PURPOSE_PREFIXES[purpose];
    const key = [this.folder, ...(prefix ? [prefix] : []), randomUUID(), fileName].join('/');
    const publicRead = purpose === 'RECEIVER_DOCUMENT' && !this.privateUploads;
    const signed = await this.storage.signedUpload({
      key,
      contentType: input.contentType,
      sizeBytes: input.sizeBytes,
      cacheControl: publicRead ? UPLOAD_CACHE_CONTROL : PRIVATE_UPLOAD_CACHE_CONTROL,
      expiresInSeconds: UPLOAD_LINK_SECONDS,
      publicRead,
    });
    return { ...signed, key, publicRead };
  }

  /**
   * A link to read one of a receiver's documents (the receiver as stored: by its provider account and the provider's
   * id): a presigned GET for an object of the gateway's own store, the URL as given for any other.
   */
  async createDocumentReadLink(providerAccountId: string, receiverId: string, document: ReceiverDocumentField | undefined): Promise<DocumentReadLink> {
    if (!providerAccountId) throw invalidArgument('provider_account_id', 'provider_account_id is required', 'REQUIRED');
    if (!receiverId) throw invalidArgument('receiver_id', 'receiver_id is required', 'REQUIRED');
    if (!document) throw invalidArgument('document', 'document is required: which of the receiver’s documents to read', 'REQUIRED');
    const documents = await this.deps.receivers.documentsOf(this.deps.db.em(), providerAccountId, receiverId);
    if (!documents) throw notFound(`receiver ${receiverId} not found in provider account ${providerAccountId}`);
    const url = documents[document];
    if (!url) throw notFound(`receiver ${receiverId} has no ${document.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)}`);
    return (await this.signedReadOf(url, DOCUMENT_LINK_SECONDS)) ?? { url };
  }

  /**
   * A URL the gateway itself can read a receiver's document from, to hand it to a provider (createReceiver): a
   * presigned GET for an object of its own store (unreadable otherwise once uploads are private), else the URL as given.
   */
  async readableUrl(url: string): Promise<string> {
    return (await this.signedReadOf(url, DOCUMENT_LINK_SECONDS))?.url ?? url;
  }

  /**
   * Refuses a certificate of this store (`field` of an account names it) that cannot be presented alone: the gateway
   * needs the certificate and its private key in one file (a PEM holding both, or a PKCS#12 bundle), which a .crt
   * named without its .key (the account's key field, see joinCertificateFiles) is not. Read when the account is saved, so that it does not fail at its first call.
   */
  async assertCompleteCertificate(field: string, url: string): Promise<void> {
    const { content } = await this.readDocument(url, displayUrl(url), {
      consequence: 'the account was not saved',
      missing: () =>
        new GatewayError(
          'FAILED_PRECONDITION',
          `${field} names ${displayUrl(url)}, which the gateway's store does not hold: upload the certificate (UploadService.CreateUploadLink, then its PUT) before naming it`,
          { reason: 'CERTIFICATE_NOT_UPLOADED', field },
        ),
    });
    const missing = missingCertificatePart(url, Buffer.from(content));
    if (missing)
      throw new GatewayError(
        'FAILED_PRECONDITION',
        `${field} names ${displayUrl(url)}, which holds ${missing}: the gateway needs the certificate and its private key in one file. Upload one PEM file holding both (the .crt's contents followed by the .key's), the .key as a file of its own (${field.replace(/_url$/, '_key_url')}) beside the .crt, or a .p12/.pfx bundle`,
        { reason: 'CERTIFICATE_INCOMPLETE', field },
      );
  }

  /**
   * A certificate and its private key uploaded as two files of this store (`certificateField` and `keyField` of an
   * account name them), joined into one new private file under the certificate prefix, whose address is returned: what
   * the account then names as its certificate, so that every adapter reads one file as before. The key must be the
   * certificate's (INVALID_ARGUMENT, rule CERTIFICATE_KEY_MISMATCH, on `keyField`). The two files are left as they are.
   */
  async joinCertificateFiles(certificateField: string, certificateUrl: string, keyField: string, keyUrl: string): Promise<string> {
    if (!this.isCertificateObject(keyUrl))
      throw new GatewayError(
        'FAILED_PRECONDITION',
        `${keyField} names a file that was not uploaded to the gateway's store as a certificate, so it may be readable by anyone: upload the key as a certificate (UploadService.CreateUploadLink, purpose UPLOAD_PURPOSE_CERTIFICATE)`,
        { reason: 'CERTIFICATE_NOT_PRIVATE', field: keyField },
      );
    const read = async (field: string, url: string) =>
      Buffer.from(
        (
          await this.readDocument(url, displayUrl(url), {
            consequence: 'the account was not saved',
            missing: () =>
              new GatewayError(
                'FAILED_PRECONDITION',
                `${field} names ${displayUrl(url)}, which the gateway's store does not hold: upload the file (UploadService.CreateUploadLink, then its PUT) before naming it`,
                { reason: 'CERTIFICATE_NOT_UPLOADED', field },
              ),
          })
        ).content,
      );
    const joined = joinCertificateAndKey(certificateUrl, await read(certificateField, certificateUrl), keyUrl, await read(keyField, keyUrl));
    if ('problem' in joined) {
      if (joined.problem === 'MISMATCH')
        throw invalidArgument(
          keyField,
          `${keyField} names ${displayUrl(keyUrl)}, a private key that does not match the public key of the certificate ${certificateField} names: upload the key that belongs to this certificate`,
          'CERTIFICATE_KEY_MISMATCH',
        );
      const [field, url, holds] =
        joined.problem === 'NO_CERTIFICATE' ? [certificateField, certificateUrl, 'no PEM certificate'] : [keyField, keyUrl, 'no PEM private key'];
      throw new GatewayError(
        'FAILED_PRECONDITION',
        `${field} names ${displayUrl(url)}, which holds ${holds}: a certificate and its key given as two files must be PEM files (.crt/.pem and .key)`,
        {
          reason: 'CERTIFICATE_INCOMPLETE',
          field,
        },
      );
    }
    const name = (displayUrl(certificateUrl).split('/').pop() ?? 'certificate').replace(/\.[^.]*$/, '');
    const body = Buffer.from(joined.pem);
    const key = [this.folder, CERTIFICATE_PREFIX, randomUUID(), `${decodeURIComponent(name)}-with-key.pem`].join('/');
    const signed = await this.storage!.signedUpload({
      key,
      contentType: CERTIFICATE_CONTENT_TYPES.pem!,
      sizeBytes: body.length,
      cacheControl: PRIVATE_UPLOAD_CACHE_CONTROL,
      expiresInSeconds: UPLOAD_LINK_SECONDS,
      publicRead: false,
    });
    const answer = await fetch(signed.url, { method: 'PUT', headers: signed.headers, body, signal: AbortSignal.timeout(DOCUMENT_READ_MS) }).catch(
      (error: unknown) => ({ ok: false, status: error instanceof Error ? error.message : String(error) }),
    );
    if (!answer.ok)
      throw new GatewayError('UNAVAILABLE', `the certificate joined with its key could not be stored (${answer.status}): the account was not saved`, {
        reason: 'STORAGE_UNAVAILABLE',
      });
    return signed.publicUrl;
  }

  /**
   * An object of the gateway's own store, read by the gateway itself (to send its bytes to a provider, or to check a
   * certificate): its content type as stored and its bytes. UNAVAILABLE, naming the file and what did not happen
   * (`consequence`), when the store does not answer it; `missing`'s error when the store has no such object.
   */
  async readDocument(
    url: string,
    fileName: string,
    { consequence = 'nothing was sent', missing }: { consequence?: string; missing?: () => GatewayError } = {},
  ): Promise<{ contentType: string; content: Uint8Array<ArrayBuffer> }> {
    const unreadable = (why: string) =>
      new GatewayError('UNAVAILABLE', `${fileName} could not be read from the gateway's store (${why}): ${consequence}`, {
        reason: 'DOCUMENT_UNREADABLE',
        values: { fileName },
      });
    if (!this.isOwnObject(url)) throw unreadable('not an object of this store');
    const answer = await fetch(await this.readableUrl(url), { signal: AbortSignal.timeout(DOCUMENT_READ_MS) }).catch((error: unknown) => {
      throw unreadable(error instanceof Error ? error.message : String(error));
    });
    if (answer.status === 404 && missing) throw missing();
    if (!answer.ok) throw unreadable(`HTTP ${answer.status}`);
    const contentType = (answer.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    return { contentType, content: new Uint8Array(await answer.arrayBuffer()) };
  }

  private async signedReadOf(url: string, expiresInSeconds: number): Promise<DocumentReadLink | undefined> {
    const key = this.isOwnObject(url) ? this.storage!.keyOf(url) : undefined;
    return key === undefined ? undefined : this.storage!.signedRead({ key, expiresInSeconds });
  }
}
