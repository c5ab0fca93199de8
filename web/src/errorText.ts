import { ConnectError } from '@connectrpc/connect';
import { ErrorInfoSchema } from '../../gen/es/google/rpc/error_details_pb.js';

/**
 * A failed call's text for the reader: the catalogue's, in the UI's language, for an ErrorInfo reason it has a
 * text for; otherwise the gateway's own message (the specification's texts stay as the gateway wrote them).
 */
export function errorText(error: unknown, reasons: Readonly<Record<string, string>>): string {
  const failure = ConnectError.from(error);
  const reason = failure.findDetails(ErrorInfoSchema)[0]?.reason;
  return (reason && reasons[reason]) || failure.rawMessage;
}
