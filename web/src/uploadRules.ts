import { CERTIFICATE_MAX_BYTES, certificateContentType, CERTIFICATE_EXTENSIONS, CERTIFICATE_CONTENT_TYPES } from '../../shared/certificateFiles.js';
import { isPdf } from './format.js';

/**
 * What the back-office lets an operator upload, checked before a link is asked
 * for (the gateway refuses the rest too: server/gateway/uploads.ts): PDF, JPEG
 * or PNG, 1 byte to 10 MiB. A name ending in .pdf is a PDF whatever type the
 * browser guessed; an image is what the browser says, or its extension when it says nothing.
 */
export const UPLOAD_MAX_BYTES = 10 * 1024 * 1024;

const IMAGE_TYPES: Readonly<Record<string, string>> = { 'image/jpeg': 'image/jpeg', 'image/png': 'image/png' };
const IMAGE_EXTENSIONS: Readonly<Record<string, string>> = { jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png' };

/** The content type a file is uploaded as, or undefined when it is not a PDF, JPEG or PNG. */
export function uploadContentType(fileName: string, browserType: string): string | undefined {
  if (isPdf(fileName)) return 'application/pdf';
  if (browserType) return IMAGE_TYPES[browserType.toLowerCase()];
  return IMAGE_EXTENSIONS[fileName.trim().split('.').pop()?.toLowerCase() ?? ''];
}

export type UploadRefusal = 'badType' | 'tooLarge' | 'empty' | 'certificateType' | 'certificateTooLarge';

/** Why a file cannot be uploaded, or undefined when it can. */
export function uploadRefusal(file: { name: string; type: string; size: number }): UploadRefusal | undefined {
  if (!uploadContentType(file.name, file.type)) return 'badType';
  if (file.size > UPLOAD_MAX_BYTES) return 'tooLarge';
  if (file.size < 1) return 'empty';
  return undefined;
}

/** Why a client certificate file cannot be uploaded (a .p12, .pfx, .pem, .crt or .key file up to 64 KiB), or undefined. */
export function certificateRefusal(file: { name: string; size: number }): UploadRefusal | undefined {
  if (!certificateContentType(file.name)) return 'certificateType';
  if (file.size > CERTIFICATE_MAX_BYTES) return 'certificateTooLarge';
  if (file.size < 1) return 'empty';
  return undefined;
}

/** What one kind of upload accepts: the file picker's filter, the type a file is sent as, and why one is refused. */
export interface UploadRules {
  accept: string;
  contentType: (fileName: string, browserType: string) => string | undefined;
  refusal: (file: { name: string; type: string; size: number }) => UploadRefusal | undefined;
}

/** A receiver's document or a dispute's evidence: PDF, JPEG or PNG up to 10 MiB. */
export const DOCUMENT_RULES: UploadRules = { accept: 'application/pdf,.pdf,image/jpeg,image/png', contentType: uploadContentType, refusal: uploadRefusal };

/** A provider account's client certificate: its type from its extension alone (browsers guess these differently). */
export const CERTIFICATE_RULES: UploadRules = {
  accept: [...CERTIFICATE_EXTENSIONS.map((extension) => `.${extension}`), ...new Set(Object.values(CERTIFICATE_CONTENT_TYPES))].join(','),
  contentType: (fileName) => certificateContentType(fileName),
  refusal: certificateRefusal,
};

/** Bidirectional-text controls: invisible, they make a name display otherwise than it is. */
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/gu;
/** What the gateway refuses in a name besides them: markup characters, a backslash, control characters. */
const REFUSED = /[<>"'&\\\p{Cc}]/gu;

/**
 * The name a file is uploaded under: the gateway refuses names with bidirectional-text controls or markup characters
 * (server/gateway/uploads.ts), and an operator's file may well be called `Contrato "final" & anexo.pdf`. The controls
 * are dropped (they show nothing), the other characters become `_`.
 */
export function uploadFileName(name: string): string {
  return name.replace(BIDI_CONTROLS, '').replace(REFUSED, '_');
}
