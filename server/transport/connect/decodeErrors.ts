import { create, toBinary, type DescMessage } from '@bufbuild/protobuf';
import type { UniversalServerResponse } from '@connectrpc/connect/protocol';
import { BadRequestSchema, ErrorInfoSchema } from '../../../gen/es/google/rpc/error_details_pb.js';
import { ERROR_DOMAIN } from '../errors.js';
import type { FieldRule } from '../../lib/errors.js';

/**
 * Connect answers a request body it cannot decode (`{"amount":"abc"}`) with
 * invalid_argument and a text naming the protobuf field, but without the
 * google.rpc.BadRequest detail every other bad-input error carries. This adds
 * it, with the field as the contract spells it (`transaction.amount`).
 */

/** The dotted path from `root` to a field of message `typeName` (breadth first; the first match). */
function pathTo(root: DescMessage, typeName: string, fieldName?: string): string | undefined {
  const queue: [DescMessage, string][] = [[root, '']];
  const seen = new Set<string>();
  while (queue.length) {
    const [desc, prefix] = queue.shift()!;
    if (seen.has(desc.typeName)) continue;
    seen.add(desc.typeName);
    if (desc.typeName === typeName) return fieldName ? (prefix ? `${prefix}.${fieldName}` : fieldName) : prefix || undefined;
    for (const field of desc.fields) {
      const message =
        field.fieldKind === 'message'
          ? field.message
          : field.fieldKind === 'list' && field.listKind === 'message'
            ? field.message
            : field.fieldKind === 'map' && field.mapKind === 'message'
              ? field.message
              : undefined;
      if (message) queue.push([message, prefix ? `${prefix}.${field.name}` : field.name]);
    }
  }
  return undefined;
}

/** The request field a protobuf-JSON decode message names, or `request` when it names none. */
export function decodeErrorField(input: DescMessage, message: string): string {
  const field = /cannot decode field ([\w.]+)\.(\w+) from JSON/.exec(message);
  if (field) return pathTo(input, field[1]!, field[2]!) ?? field[2]!;
  const unknownKey = /cannot decode message ([\w.]+) from JSON: key "([^"]{0,64})" is unknown/.exec(message);
  if (unknownKey) return pathTo(input, unknownKey[1]!, unknownKey[2]!) ?? unknownKey[2]!;
  const whole = /cannot decode message ([\w.]+) from JSON/.exec(message);
  return (whole && pathTo(input, whole[1]!)) || 'request';
}

/** The rule a value Connect could not decode broke: the nearest general one (the message says which). */
const UNDECODABLE: FieldRule = 'INVALID_VALUE';

const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64').replace(/=+$/, '');

/** The same response, with ErrorInfo and BadRequest added to a Connect unary invalid_argument error that has no details. */
export async function withDecodeErrorDetails(input: DescMessage, response: UniversalServerResponse): Promise<UniversalServerResponse> {
  if (response.status !== 400 || !response.body || !response.header?.get('content-type')?.startsWith('application/json')) return response;
  const chunks: Uint8Array[] = [];
  for await (const chunk of response.body) chunks.push(chunk);
  const original = Buffer.concat(chunks);
  let error: { code?: string; message?: string; details?: unknown[] };
  try {
    error = JSON.parse(original.toString('utf8'));
  } catch {
    return { ...response, body: once(original) };
  }
  if (error.code !== 'invalid_argument' || error.details?.length) return { ...response, body: once(original) };
  const message = error.message ?? 'the request cannot be decoded';
  const field = decodeErrorField(input, message);
  const details = [
    {
      type: 'google.rpc.ErrorInfo',
      value: base64(toBinary(ErrorInfoSchema, create(ErrorInfoSchema, { reason: 'INVALID_ARGUMENT', domain: ERROR_DOMAIN, metadata: { field } }))),
    },
    {
      type: 'google.rpc.BadRequest',
      value: base64(toBinary(BadRequestSchema, create(BadRequestSchema, { fieldViolations: [{ field, description: message, reason: UNDECODABLE }] }))),
    },
  ];
  const body = new TextEncoder().encode(JSON.stringify({ ...error, details }));
  const header = new Headers(response.header);
  if (header.has('content-length')) header.set('content-length', String(body.byteLength));
  return { ...response, header, body: once(body) };
}

async function* once(bytes: Uint8Array): AsyncIterable<Uint8Array> {
  yield bytes;
}
