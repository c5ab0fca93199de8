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

export type UploadRefusal = 'badType' | 'tooLarge' | 'empty';

/** Why a file cannot be uploaded, or undefined when it can. */
export function uploadRefusal(file: { name: string; type: string; size: number }): UploadRefusal | undefined {
  if (!uploadContentType(file.name, file.type)) return 'badType';
  if (file.size > UPLOAD_MAX_BYTES) return 'tooLarge';
  if (file.size < 1) return 'empty';
  return undefined;
}

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
