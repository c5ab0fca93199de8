import { describe, expect, it } from '@jest/globals';
import { PNG } from 'pngjs';
import QRCode from 'qrcode';
import { pixCodeOnly, pixQrCodeDataUrl, pixQrImage, pixQrImagesDrawn, qrPng } from '../../../server/lib/pixQrCode.js';

const CODE =
  '00020101021226860014br.gov.bcb.pix2564qrcode.sandbox.example/pix/v2/cobv/9d36b84fc70b478fb95c12729b90ca255204000053039865406123.455802BR5913LOJA UM LTDA6009SAO PAULO62070503***6304ABCD';

/** The image's pixels as black (true) or white (false), refusing any other colour or transparency. */
function pixels(png: Buffer): { width: number; height: number; dark: boolean[] } {
  const image = PNG.sync.read(png);
  const dark: boolean[] = [];
  const others = new Set<string>();
  for (let i = 0; i < image.data.length; i += 4) {
    const rgba = image.data.readUInt32BE(i);
    if (rgba !== 0x000000ff && rgba !== 0xffffffff) others.add(rgba.toString(16));
    dark.push(rgba === 0x000000ff);
  }
  expect([...others]).toEqual([]);
  return { width: image.width, height: image.height, dark };
}

describe('PIX QR image', () => {
  it.each([
    ['a provider’s BR Code', CODE],
    ['a short code (small symbol, width not a multiple of 8)', '0002012636br.gov.bcb.pix'],
    ['a long code (larger symbol)', `${CODE}${'X'.repeat(300)}`],
  ])('is, for %s, the same picture as the qrcode library’s own PNG (error correction M, 4 px per module, 1 module of margin)', async (_, code) => {
    const ours = pixels(qrPng(code));
    const theirs = pixels(await QRCode.toBuffer(code, { errorCorrectionLevel: 'M', margin: 1, type: 'png' }));
    expect(ours.width).toBe(theirs.width);
    expect(ours.height).toBe(theirs.height);
    expect(ours.dark).toEqual(theirs.dark);
    const { modules } = QRCode.create(code, { errorCorrectionLevel: 'M' });
    expect(ours.width).toBe((modules.size + 2) * 4);
  });

  it.each([
    ['a provider’s BR Code', CODE],
    ['a short code', '0002012636br.gov.bcb.pix'],
  ])('with 4 modules of margin is, for %s, the picture of the qrcode library’s defaults (the SANDBOX PSP’s image)', async (_, code) => {
    const ours = pixels(qrPng(code, 4));
    const theirs = pixels(Buffer.from((await QRCode.toDataURL(code)).split(',')[1]!, 'base64'));
    expect({ width: ours.width, height: ours.height }).toEqual({ width: theirs.width, height: theirs.height });
    expect(ours.dark).toEqual(theirs.dark);
  });

  it('is a base64 PNG data URL; a code drawn again is taken from the last thousand kept, least recently used dropped first', async () => {
    const url = await pixQrCodeDataUrl(CODE);
    expect(url).toMatch(/^data:image\/png;base64,[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(url.slice('data:image/png;base64,'.length), 'base64')).toEqual(qrPng(CODE));
    let before = pixQrImagesDrawn();
    await expect(pixQrCodeDataUrl(CODE)).resolves.toBe(url);
    expect(pixQrImagesDrawn()).toBe(before);

    await pixQrCodeDataUrl('0002first');
    await pixQrCodeDataUrl('0002second');
    // With CODE, 1,002 codes: CODE and then 'second' are the two least recently used, and dropped.
    for (let i = 0; i < 999; i += 1) {
      // 'first' is used again half way, so 'second' is the least recently used when the cache overflows.
      if (i === 500) await pixQrCodeDataUrl('0002first');
      await pixQrCodeDataUrl(`0002filler${i}`);
    }
    before = pixQrImagesDrawn();
    await pixQrCodeDataUrl('0002first');
    expect(pixQrImagesDrawn()).toBe(before);
    await pixQrCodeDataUrl('0002second');
    expect(pixQrImagesDrawn()).toBe(before + 1);
  });
});

describe("an adapter's PIX result", () => {
  const result = { paymentMethod: 'PIX', transactionId: 't1', pixCode: CODE, pixQrCode: 'https://provider.example/qr.png' };

  it('keeps its code and drops the image, which the edge draws from the code (the same picture as the async form)', async () => {
    expect(await pixCodeOnly(result)).toEqual({ paymentMethod: 'PIX', transactionId: 't1', pixCode: CODE });
    expect(pixQrImage(CODE)).toBe(await pixQrCodeDataUrl(CODE));
  });

  it("keeps a provider's image when there is no code to draw from, and leaves other methods alone", async () => {
    const noCode = { paymentMethod: 'PIX', pixQrCode: 'https://provider.example/qr.png' };
    expect(await pixCodeOnly(noCode)).toBe(noCode);
    const boleto = { paymentMethod: 'BILLET', pixCode: CODE, pixQrCode: 'x' };
    expect(await pixCodeOnly(boleto)).toBe(boleto);
  });
});
