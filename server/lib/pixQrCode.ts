import QRCode from 'qrcode';

/** The PIX copy-and-paste code as a PNG data URL, for providers that send only the code (the spec wants an image). */
export const pixQrCodeDataUrl = (pixCode: string): Promise<string> => QRCode.toDataURL(pixCode, { errorCorrectionLevel: 'M', margin: 1 });
