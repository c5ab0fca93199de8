import { describe, expect, it } from '@jest/globals';
import type { DefenseDocument } from '../../server/domain/disputes.js';
import { checkedDefenseDocuments, defenseForm, type DefenseDocumentLimits } from '../../server/providers/kit/defenseDocuments.js';
import { isGatewayError } from '../../server/lib/errors.js';

const LIMITS: DefenseDocumentLimits = { provider: 'Acme', types: { 'application/pdf': '.pdf', 'image/png': '.png' }, maxFiles: 2, maxTotalBytes: 1000 };
const doc = (fileName: string, contentType: string, size: number): DefenseDocument => ({
  fileName,
  contentType,
  url: `https://store.example/${fileName}`,
  content: new Uint8Array(new ArrayBuffer(size)),
});

function refusal(documents: DefenseDocument[]): { code: string; message: string; reason?: string; values?: Readonly<Record<string, string>> } {
  try {
    checkedDefenseDocuments(documents, LIMITS, 'Erro ao enviar defesa');
  } catch (error) {
    if (!isGatewayError(error)) throw error;
    return { code: error.code, message: error.message, reason: error.details.reason, values: error.details.values };
  }
  throw new Error('the documents were taken, a refusal was expected');
}

describe("a defence's documents against the provider's limits", () => {
  it('takes what is within them, each name ending in the extension of its type', () => {
    expect(checkedDefenseDocuments([doc('nota.PDF', 'application/pdf', 10), doc('foto', 'image/png', 10)], LIMITS, 'x').map((d) => d.fileName)).toEqual([
      'nota.PDF',
      'foto.png',
    ]);
  });

  it('refuses, naming the file or the limit, a type not taken, too many files, too many bytes in all', () => {
    // The provider also as a value: the back-office's own text for the reason names it.
    expect(refusal([doc('foto.jpg', 'image/jpeg', 10)])).toEqual({
      code: 'FAILED_PRECONDITION',
      reason: 'DEFENSE_DOCUMENTS_REFUSED',
      values: { provider: 'Acme' },
      message: 'Erro ao enviar defesa: Acme takes only .pdf, .png files; foto.jpg is image/jpeg; nothing was sent',
    });
    expect(refusal([doc('a.pdf', 'application/pdf', 1), doc('b.pdf', 'application/pdf', 1), doc('c.pdf', 'application/pdf', 1)]).message).toBe(
      'Erro ao enviar defesa: Acme takes at most 2 files in a defence; this one has 3; nothing was sent',
    );
    expect(refusal([doc('a.pdf', 'application/pdf', 600), doc('b.pdf', 'application/pdf', 600)]).message).toBe(
      'Erro ao enviar defesa: Acme takes at most 1000 bytes of files in all; this defence has 1200 bytes; nothing was sent',
    );
  });

  it('says sizes in MB from a million bytes, a file of no type as such, and has no limit the provider did not say', () => {
    const megabytes = { ...LIMITS, maxTotalBytes: 10_000_000 };
    const over = () => checkedDefenseDocuments([doc('a.pdf', 'application/pdf', 12_500_000)], megabytes, 'Erro');
    expect(over).toThrow('Acme takes at most 10 MB of files in all; this defence has 12.5 MB; nothing was sent');
    expect(refusal([doc('sem-tipo', '', 1)]).message).toBe(
      'Erro ao enviar defesa: Acme takes only .pdf, .png files; sem-tipo is of no known type; nothing was sent',
    );
    const unbounded = { provider: 'Acme', types: { 'application/pdf': '.pdf' } };
    expect(
      checkedDefenseDocuments(
        [doc('a.pdf', 'application/pdf', 5_000), doc('b.pdf', 'application/pdf', 5_000), doc('c.pdf', 'application/pdf', 5_000)],
        unbounded,
        'x',
      ),
    ).toHaveLength(3);
  });

  it('makes a multipart body of files under one field, names and types kept', async () => {
    const form = defenseForm([doc('a.pdf', 'application/pdf', 3), doc('b.png', 'image/png', 4)], 'files[]');
    const files = form.getAll('files[]') as File[];
    expect(files.map((file) => [file.name, file.type, file.size])).toEqual([
      ['a.pdf', 'application/pdf', 3],
      ['b.png', 'image/png', 4],
    ]);
  });
});
