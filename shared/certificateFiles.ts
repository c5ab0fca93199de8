/**
 * Which client-certificate files may be uploaded for a provider account (UploadService.CreateUploadLink, purpose
 * UPLOAD_PURPOSE_CERTIFICATE), and the one content type each is stored as: plain data shared by the gateway
 * (server/gateway/uploads.ts refuses the rest) and the back-office, which checks a file before asking for a link. It
 * lives in shared/, the one folder both sides may import, and imports nothing.
 *
 * The extensions are those providers hand certificates out as: PKCS#12 bundles (.p12, .pfx), PEM files (.pem, and
 * .key for a key kept beside its certificate) and X.509 certificates (.crt). The type follows the name, since browsers
 * guess these types differently from one system to another, or not at all.
 */
export const CERTIFICATE_CONTENT_TYPES: Readonly<Record<string, string>> = {
  p12: 'application/x-pkcs12',
  pfx: 'application/x-pkcs12',
  pem: 'application/x-pem-file',
  key: 'application/x-pem-file',
  crt: 'application/x-x509-ca-cert',
};

/** A client certificate file is a few KiB (a PEM chain with its key, or a PKCS#12 bundle); more is not a certificate. */
export const CERTIFICATE_MAX_BYTES = 64 * 1024;

/** The accepted extensions, lower case, without their dot. */
export const CERTIFICATE_EXTENSIONS = Object.keys(CERTIFICATE_CONTENT_TYPES);

/** A file name's extension, lower case, without its dot ('' without one). */
export const extensionOf = (fileName: string): string => /\.([^.]+)$/.exec(fileName.trim())?.[1]?.toLowerCase() ?? '';

/** The content type a certificate file is uploaded as, or undefined when its name is not a certificate file's. */
export const certificateContentType = (fileName: string): string | undefined => CERTIFICATE_CONTENT_TYPES[extensionOf(fileName)];
