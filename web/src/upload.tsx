import { useEffect, useRef, useState } from 'react';
import { Alert, Anchor, FileInput, Progress, Stack, Text } from '@mantine/core';
import { ConnectError } from '@connectrpc/connect';
import { useMutation } from '@connectrpc/connect-query';
import { UploadPurpose, UploadService } from '../../gen/es/gateway/v1/upload_service_pb.js';
import { fileNameOf } from './format.js';
import { useI18n } from './i18n.js';
import { DOCUMENT_RULES, uploadFileName, type UploadRefusal, type UploadRules } from './uploadRules.js';

/**
 * PUTs a file's bytes to a signed URL with exactly the headers signed with it
 * (document 3 §7: type, public-read ACL, one-year immutable cache), reporting
 * how much was sent. XMLHttpRequest, because fetch reports no upload progress.
 * Resolves on a 2xx answer; anything else, or no answer, rejects.
 */
function putFile(url: string, headers: Record<string, string>, file: File, onProgress: (percent: number) => void, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('PUT', url);
    for (const [name, value] of Object.entries(headers)) request.setRequestHeader(name, value);
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(Math.round((event.loaded / event.total) * 100));
    };
    request.onload = () => (request.status >= 200 && request.status < 300 ? resolve() : reject(new Error(`the store answered HTTP ${request.status}`)));
    request.onerror = () => reject(new Error('the store could not be reached'));
    request.onabort = () => reject(new Error('aborted'));
    signal.addEventListener('abort', () => request.abort());
    request.send(file);
  });
}

type Upload =
  | { state: 'idle' }
  | { state: 'refused'; reason: UploadRefusal }
  | { state: 'uploading'; percent: number }
  | { state: 'done'; percent: number; url: string; publicRead: boolean }
  | { state: 'failed'; error: unknown };

/**
 * One file uploaded from the browser straight to object storage: checked here
 * (PDF, JPEG or PNG up to 10 MiB), a signed link asked of the gateway
 * (UploadService.CreateUploadLink), the bytes PUT with a progress bar, then the
 * specification's success or failure message. `onUploaded` gets the file's
 * public URL (undefined while there is none); `onBusy` whether it is uploading.
 * `purpose` tells the gateway what the file is for (dispute evidence and certificates are kept private whatever the
 * store's default); `rules` what the file may be (a certificate is not a document).
 */
export function DocumentUpload({
  label,
  error,
  onUploaded,
  onBusy,
  purpose = UploadPurpose.UNSPECIFIED,
  rules = DOCUMENT_RULES,
  description,
}: {
  label: string;
  purpose?: UploadPurpose;
  /** What the file may be (default: a document, PDF, JPEG or PNG up to 10 MiB). */
  rules?: UploadRules;
  description?: string;
  /** The gateway's refusal of this document in the form's own call (a field violation). */
  error?: string;
  onUploaded: (url: string | undefined) => void;
  onBusy: (busy: boolean) => void;
}) {
  const { t } = useI18n();
  const [file, setFile] = useState<File | null>(null);
  const [upload, setUpload] = useState<Upload>({ state: 'idle' });
  const createLink = useMutation(UploadService.method.createUploadLink);
  const current = useRef<AbortController | null>(null);
  const uploading = upload.state === 'uploading';

  useEffect(() => onBusy(uploading), [uploading, onBusy]);
  // Leaving the form (or the field going away) stops the upload and holds nothing busy.
  useEffect(
    () => () => {
      current.current?.abort();
      onBusy(false);
    },
    [onBusy],
  );

  async function choose(chosen: File | null) {
    current.current?.abort();
    const abort = new AbortController();
    current.current = abort;
    setFile(chosen);
    onUploaded(undefined);
    if (!chosen) return setUpload({ state: 'idle' });
    const refusal = rules.refusal(chosen);
    if (refusal) return setUpload({ state: 'refused', reason: refusal });
    setUpload({ state: 'uploading', percent: 0 });
    let percent = 0;
    try {
      const link = await createLink.mutateAsync({
        fileName: uploadFileName(chosen.name),
        contentType: rules.contentType(chosen.name, chosen.type) ?? '',
        sizeBytes: BigInt(chosen.size),
        purpose,
      });
      if (abort.signal.aborted) return;
      await putFile(
        link.uploadUrl,
        link.headers,
        chosen,
        (sent) => {
          percent = sent;
          setUpload({ state: 'uploading', percent });
        },
        abort.signal,
      );
      setUpload({ state: 'done', percent, url: link.publicUrl, publicRead: link.publicRead });
      onUploaded(link.publicUrl);
    } catch (err) {
      if (!abort.signal.aborted) setUpload({ state: 'failed', error: err });
    }
  }

  const refused = upload.state === 'refused' ? t.upload[upload.reason] : undefined;
  // A refusal of the link itself (CreateUploadLink's message) goes beside the field, under the failure message.
  const linkRefused = upload.state === 'failed' && upload.error instanceof ConnectError ? upload.error.rawMessage : undefined;

  return (
    <Stack gap={6} role="group" aria-label={label}>
      <FileInput
        label={label}
        description={description}
        placeholder={t.upload.choose}
        accept={rules.accept}
        value={file}
        onChange={(chosen) => void choose(chosen)}
        clearable
        clearButtonProps={{ 'aria-label': t.upload.clear }}
        error={refused ?? linkRefused ?? error}
      />
      {(upload.state === 'uploading' || upload.state === 'done') && <Progress value={upload.percent} aria-label={t.upload.progress} />}
      {upload.state === 'done' && (
        <Alert color="green" role="status" p="xs">
          {t.upload.success} {/* A private upload has no address anyone can open: its name only (the receiver's page opens it through a link). */}
          {upload.publicRead ? (
            <Anchor href={upload.url} target="_blank" rel="noopener noreferrer" size="sm">
              {t.upload.uploaded}: {fileNameOf(upload.url)}
            </Anchor>
          ) : (
            <Text span size="sm" data-testid="uploaded-name">
              {t.upload.uploaded}: {fileNameOf(upload.url)}
            </Text>
          )}
        </Alert>
      )}
      {upload.state === 'failed' && (
        <Alert color="red" role="alert" p="xs">
          {t.upload.failure}
        </Alert>
      )}
    </Stack>
  );
}
