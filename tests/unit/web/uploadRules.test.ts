import { expect, it } from '@jest/globals';
import { UPLOAD_MAX_BYTES, uploadContentType, uploadFileName, uploadRefusal } from '../../../web/src/uploadRules.js';

it('uploads a name ending in .pdf as a PDF whatever the browser guessed, and JPEG or PNG images; nothing else', () => {
  expect(uploadContentType('contrato social.PDF', 'application/octet-stream')).toBe('application/pdf');
  expect(uploadContentType('balanço.pdf', '')).toBe('application/pdf');
  expect(uploadContentType('rg.jpg', 'image/jpeg')).toBe('image/jpeg');
  expect(uploadContentType('selfie.png', 'image/png')).toBe('image/png');
  expect(uploadContentType('selfie.JPEG', '')).toBe('image/jpeg');
  expect(uploadContentType('foto.gif', 'image/gif')).toBeUndefined();
  expect(uploadContentType('nota.pdf.exe', 'application/x-msdownload')).toBeUndefined();
  expect(uploadContentType('page.html', 'text/html')).toBeUndefined();
  expect(uploadContentType('disguised.png', 'text/html')).toBeUndefined();
});

it('refuses another type, more than 10 MiB and an empty file before asking for a link', () => {
  expect(uploadRefusal({ name: 'a.pdf', type: 'application/pdf', size: UPLOAD_MAX_BYTES })).toBeUndefined();
  expect(uploadRefusal({ name: 'a.pdf', type: 'application/pdf', size: UPLOAD_MAX_BYTES + 1 })).toBe('tooLarge');
  expect(uploadRefusal({ name: 'a.png', type: 'image/png', size: 0 })).toBe('empty');
  expect(uploadRefusal({ name: 'a.txt', type: 'text/plain', size: 10 })).toBe('badType');
});

it('uploads under a name the gateway takes: bidirectional-text controls dropped, markup characters and backslashes replaced', () => {
  expect(uploadFileName('balanço 2025.pdf')).toBe('balanço 2025.pdf');
  expect(uploadFileName('Contrato "final" & anexo.pdf')).toBe('Contrato _final_ _ anexo.pdf');
  expect(uploadFileName("<img src=x onerror=alert(1)>'.png")).toBe('_img src=x onerror=alert(1)__.png');
  expect(uploadFileName('selfie\u202Efdp.exe')).toBe('selfiefdp.exe');
  expect(uploadFileName('\u2066rg\u2069\u200E.png')).toBe('rg.png');
  expect(uploadFileName('a\\b\u0007.pdf')).toBe('a_b_.pdf');
});
