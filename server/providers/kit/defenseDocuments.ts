import type { DefenseDocument } from '../../domain/disputes.js';
import { GatewayError } from '../../lib/errors.js';

/** What a provider's documentation says its defence upload takes; every limit is optional (left out: none said). */
export interface DefenseDocumentLimits {
  /** The provider, as its error messages name it. */
  provider: string;
  /** The content types taken, each with the file extension the documentation names for it. */
  types: Readonly<Record<string, string>>;
  maxFiles?: number;
  /** All the files together, in bytes. */
  maxTotalBytes?: number;
}

/** A size as a person reads it: MB (10^6 bytes, as the providers' documents write them) with one decimal, bytes below 1 MB. */
const sizeOf = (bytes: number) => (bytes >= 1_000_000 ? `${(bytes / 1_000_000).toLocaleString('en-US', { maximumFractionDigits: 1 })} MB` : `${bytes} bytes`);

const refused = (prefix: string, provider: string, message: string): GatewayError =>
  new GatewayError('FAILED_PRECONDITION', `${prefix}: ${message}; nothing was sent`, {
    reason: 'DEFENSE_DOCUMENTS_REFUSED',
    outcome: 'failed',
    values: { provider },
  });

/**
 * The evidence checked against the provider's documented limits before anything is sent, so that an operator learns
 * which file to change instead of reading the provider's refusal (or having part of a defence taken): FAILED_PRECONDITION
 * `DEFENSE_DOCUMENTS_REFUSED`, naming the file and the limit. Each file's name carries the extension of its type.
 */
export function checkedDefenseDocuments(documents: readonly DefenseDocument[], limits: DefenseDocumentLimits, prefix: string): DefenseDocument[] {
  const taken = Object.values(limits.types).join(', ');
  if (limits.maxFiles !== undefined && documents.length > limits.maxFiles)
    throw refused(prefix, limits.provider, `${limits.provider} takes at most ${limits.maxFiles} files in a defence; this one has ${documents.length}`);
  const total = documents.reduce((sum, document) => sum + document.content.byteLength, 0);
  if (limits.maxTotalBytes !== undefined && total > limits.maxTotalBytes)
    throw refused(
      prefix,
      limits.provider,
      `${limits.provider} takes at most ${sizeOf(limits.maxTotalBytes)} of files in all; this defence has ${sizeOf(total)}`,
    );
  return documents.map((document) => {
    const extension = limits.types[document.contentType];
    if (!extension)
      throw refused(
        prefix,
        limits.provider,
        `${limits.provider} takes only ${taken} files; ${document.fileName} is ${document.contentType || 'of no known type'}`,
      );
    const fileName = document.fileName.toLowerCase().endsWith(extension) ? document.fileName : `${document.fileName}${extension}`;
    return { ...document, fileName };
  });
}

/** The documents as a multipart body, each under `field` as a file with its name and type. */
export function defenseForm(documents: readonly DefenseDocument[], field: string): FormData {
  const form = new FormData();
  for (const document of documents) form.append(field, new Blob([document.content], { type: document.contentType }), document.fileName);
  return form;
}
