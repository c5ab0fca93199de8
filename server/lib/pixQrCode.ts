import QRCode from 'qrcode';

/** The PIX copy-and-paste code as a PNG data URL, for providers that send only the code (the spec wants an image). */
export const pixQrCodeDataUrl = (pixCode: string): Promise<string> => QRCode.toDataURL(pixCode, { errorCorrectionLevel: 'M', margin: 1 });

/**
 * A PIX result with its QR image (spec doc 2 §3: an image data URL) rendered
 * from the copy-and-paste code, so it never depends on a provider's image host.
 * Results without a code are returned as they are.
 */
export async function withPixQrImage<T extends { paymentMethod: string; pixCode?: string; pixQrCode?: string }>(result: T): Promise<T> {
  if (result.paymentMethod !== 'PIX' || !result.pixCode) return result;
  return { ...result, pixQrCode: await pixQrCodeDataUrl(result.pixCode) };
}
