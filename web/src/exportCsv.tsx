import { useEffect, useRef, useState } from 'react';
import { Button, Group, Loader, Text } from '@mantine/core';
import { Code, ConnectError } from '@connectrpc/connect';
import { csvFile, csvFileName } from './csv.js';
import { ErrorAlert } from './errors.js';
import { useI18n } from './i18n.js';

/** The export reads a list 200 records a call (the most the payment list RPCs answer). */
export const EXPORT_PAGE_SIZE = 200;

/** One page of an export: its rows, and the token of the next page (empty on the last). */
export type ExportPage = (pageToken: string, signal: AbortSignal) => Promise<{ rows: string[][]; nextPageToken: string }>;

/**
 * Exports what a list's filters select as a spreadsheet: pages through the
 * list's RPC in the browser (`page`), counting as it goes (cancel stops it),
 * then downloads `<prefix>-YYYY-MM-DD.csv` with `header`.
 */
export function ExportCsv({ page, header, prefix }: { page: ExportPage; header: string[]; prefix: string }) {
  const { t } = useI18n();
  const [exported, setExported] = useState<number | null>(null);
  const [error, setError] = useState<unknown>(null);
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);

  async function run() {
    const controller = new AbortController();
    abort.current = controller;
    setError(null);
    setExported(0);
    const rows: string[][] = [];
    try {
      let pageToken = '';
      do {
        const next = await page(pageToken, controller.signal);
        rows.push(...next.rows);
        setExported(rows.length);
        pageToken = next.nextPageToken;
      } while (pageToken);
      download(csvFile(header, rows), csvFileName(prefix, new Date()));
    } catch (err) {
      if (!controller.signal.aborted && ConnectError.from(err).code !== Code.Canceled) setError(err);
    } finally {
      if (abort.current === controller) {
        abort.current = null;
        setExported(null);
      }
    }
  }

  return (
    <>
      <Group mb="md" gap="sm">
        <Button variant="default" onClick={() => void run()} disabled={exported !== null}>
          {t.export.button}
        </Button>
        {exported !== null && (
          <>
            <Loader size="sm" aria-hidden />
            <Text role="status" data-testid="export-progress">
              {t.export.progress(exported)}
            </Text>
            <Button variant="subtle" color="red" onClick={() => abort.current?.abort()}>
              {t.export.cancel}
            </Button>
          </>
        )}
      </Group>
      <ErrorAlert error={error} />
    </>
  );
}

/** Saves text as a UTF-8 file through a temporary link. */
function download(text: string, fileName: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
