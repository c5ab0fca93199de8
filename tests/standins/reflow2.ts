import { randomUUID } from 'node:crypto';
import { createStaticPix, hasError } from 'pix-utils';
import { startStandIn, type StandIn, type StandInReply, type StandInRequest } from './standIn.js';

/**
 * REFLOW2's platform as its documentation describes it, for the gateway's
 * acceptance test (tests/standins/reflow2.test.ts). Reflow2 runs on the
 * IntegraPay / SafePayments white-label platform (research F6); the pages below
 * are that platform's own reference, read for this stand-in.
 *
 * What the platform's pages show and the stand-in enforces:
 * - Authentication: every request carries `Authorization: Bearer <API key>`;
 *   a missing or wrong key is HTTP 401 `{message: "Invalid token."}`.
 * - Cash-In: `POST /transaction/qrcode/cashin` with `payerName`,
 *   `payerDocument`, `payerEmail`, `payerPhone`, `productName`,
 *   `productDescription` (all required text) and `value` (required, an integer
 *   in cents); `postbackUrl`, `orderId` and `splits` optional. Answered 200
 *   `{transactionId (a number), externalId (a UUID), orderId, qrCode (the
 *   copy-and-paste code), qrCodeBase64 (a PNG)}`. Errors are 400 with
 *   `{message}`, e.g. "No active acquirer".
 * - Cash-Out: `POST /transaction/cashout` with `value` (integer cents),
 *   `pixKeyType` (an integer: 0 CPF, 1 CNPJ, 2 EMAIL, 3 TELEFONE, 4
 *   RANDOM_KEY), `pixKey`, `cpfCnpj`, `person {name, email, phone}` and
 *   `orderId`, all required; `postbackUrl` optional. Answered 200
 *   `{transactionId, orderId, gross (cents), tax, liquid (texts), status "0",
 *   createdAt, success "true", description null}`; the status codes 0 Pending,
 *   1 Paid, 2 Failed, 3 Canceled, 4 Refund. A refusal is `{message:
 *   "Validation Failed - value is required"}` (the sibling instance's page of
 *   the same platform shows that text; the stand-in answers it with 400, the
 *   status the Cash-In page gives its errors).
 * - Get transaction (on both pages): `GET /transaction/get/by/id/{id}` with
 *   the Authorization header (the heading says POST; the prose and the curl
 *   example send a GET, and so does the stand-in).
 * - Webhooks: sent by POST to the postback URL (or the dashboard's webhook) as
 *   `{transactionId, object "cashin" | "transfer", status, method "pix", value
 *   (cents), endToEndId, processedAt, payer {…} | destinationBank {…},
 *   orderId, observation}`: cashin `created` when the QR code is generated,
 *   `paid` when paid, `refund` when given back; transfer `created` and `paid`.
 *   The page offers an optional validation header chosen on the dashboard and
 *   no signature.
 *
 * The stand-in's own readings, where the stored copies stop or are silent:
 * - the lookup's answer breaks off after `{transactionId, orderId, object, …}`;
 *   its remaining fields are taken from the webhook the same object produces
 *   (`status` as the webhook's word, `method`, `value` in cents, `endToEndId`,
 *   `processedAt`);
 * - the words of the other outcomes (`failed`, `canceled`), as the status codes
 *   name them; an unknown id answers 404 `{message: "Transaction not found"}`;
 * - the tax (30 cents a payout, as in the example); payerDocument, cpfCnpj and
 *   the PIX key are checked only for presence (the examples use documents with
 *   wrong check digits);
 * - one server answers for the cash-in and the cash-out hosts (the platform
 *   documents one API behind `URL_API`; the two hosts come from the research).
 */
export const REFLOW2_SOURCES = [
  'https://docs.integrapay.io/docs/Authentication',
  'https://docs.integrapay.io/docs/Cash-In',
  'https://docs.integrapay.io/docs/Cash-Out',
  'https://docs.integrapay.io/docs/Webhooks',
  'https://docs.paguemaster.com.br/docs/Cash-Out',
] as const;

export type Reflow2Word = 'created' | 'paid' | 'failed' | 'canceled' | 'refund';

export interface Reflow2Record {
  transactionId: number;
  object: 'cashin' | 'transfer';
  orderId: string | null;
  /** Cents. */
  value: number;
  status: Reflow2Word;
  postbackUrl: string | null;
  endToEndId: string | null;
  processedAt: string;
  /** A cash-in's request: payer, product, copy-and-paste code. */
  cashIn?: {
    payerName: string;
    payerDocument: string;
    payerEmail: string;
    payerPhone: string;
    productName: string;
    productDescription: string;
    externalId: string;
    qrCode: string;
  };
  /** A cash-out's request. */
  cashOut?: { pixKeyType: number; pixKey: string; cpfCnpj: string; person: { name: string; email: string; phone: string } };
}

export interface Reflow2StandIn extends StandIn {
  readonly records: ReadonlyMap<string, Reflow2Record>;
  /** A webhook URL set on the dashboard (Settings => Webhooks), for records created without a postback URL. */
  registerWebhook(url: string): void;
  /** The account has (or has not) an acquirer behind it: without one, a cash-in is refused. */
  setAcquirer(active: boolean): void;
  /** The payer pays the QR code: `paid`, and the webhook sent; the HTTP statuses the receivers answered. */
  pay(transactionId: string): Promise<number[]>;
  /** The payout is settled at the bank: `paid`, and the webhook sent. */
  settleTransfer(transactionId: string): Promise<number[]>;
  /** The record moves to `status` on the platform's side (a refund, a failed payout), and the webhook is sent. */
  move(transactionId: string, status: Reflow2Word): Promise<number[]>;
  /** A webhook in the platform's format claiming `status`, sent by someone else: the record does not change. */
  forge(transactionId: string, status: Reflow2Word): Promise<number[]>;
}

const CODES: Record<Reflow2Word, string> = { created: '0', paid: '1', failed: '2', canceled: '3', refund: '4' };

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() ? value.trim() : undefined);
const refused = (message: string, status = 400): StandInReply => ({ status, body: { message } });
const missing = (field: string): StandInReply => refused(`Validation Failed - ${field} is required`);

/** A BR Code for the amount, its CRC valid, as the payer's bank reads it. */
function brCode(cents: number, reference: string): string {
  const pix = createStaticPix({
    merchantName: 'SAFE PAYMENTS',
    merchantCity: 'SAO PAULO',
    pixKey: '7d9f0e52-3c1a-4b8e-9f26-5a0c4d7e1b38',
    infoAdicional: reference.slice(0, 25),
    transactionAmount: cents / 100,
  });
  if (hasError(pix)) throw new Error('could not build a BR Code');
  return pix.toBRCode();
}

/** A 1x1 PNG, base64: the QR image the answer carries beside the code. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

export async function startReflow2StandIn(options: { apiKey: string }): Promise<Reflow2StandIn> {
  const records = new Map<string, Reflow2Record>();
  const webhooks: string[] = [];
  const state = { acquirer: true, nextId: 4100 };

  const authenticate = (request: StandInRequest): StandInReply | undefined =>
    request.headers.authorization === `Bearer ${options.apiKey}` ? undefined : refused('Invalid token.', 401);

  /** The fields a webhook and (the stand-in's reading) a lookup show of a record. */
  function event(record: Reflow2Record): Record<string, unknown> {
    const common = {
      transactionId: record.transactionId,
      object: record.object,
      status: record.status,
      method: 'pix',
      value: record.value,
      ...(record.endToEndId ? { endToEndId: record.endToEndId } : {}),
      processedAt: record.processedAt,
    };
    const party =
      record.object === 'cashin'
        ? record.status === 'paid'
          ? {
              payer: {
                transactionId: record.transactionId,
                name: 'Fulano Pagador',
                documentId: '80683806556',
                bankName: null,
                bankCode: null,
                bankIspb: '18236120',
              },
            }
          : {}
        : {
            destinationBank:
              record.status === 'paid'
                ? {
                    name: record.cashOut!.person.name,
                    cpfCnpj: record.cashOut!.cpfCnpj,
                    email: null,
                    pixKey: record.cashOut!.pixKey,
                    pixKeyType: '',
                    bank: null,
                    bankId: null,
                    ispb: null,
                  }
                : null,
          };
    return { ...common, ...party, orderId: record.orderId, observation: null };
  }

  async function deliver(record: Reflow2Record, body: Record<string, unknown>): Promise<number[]> {
    const targets = record.postbackUrl ? [record.postbackUrl] : webhooks;
    return Promise.all(
      targets.map(async (url) => {
        const response = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(10_000),
        });
        await response.arrayBuffer();
        return response.status;
      }),
    );
  }

  /** The platform's own webhooks go out once its answer is on the wire, as a separate request. */
  const notifyLater = (record: Reflow2Record) => {
    const body = event(record);
    setTimeout(() => void deliver(record, body).catch(() => undefined), 20);
  };

  const known = (transactionId: string): Reflow2Record => {
    const record = records.get(transactionId);
    if (!record) throw new Error(`no Reflow2 record ${transactionId}`);
    return record;
  };

  function moveTo(record: Reflow2Record, status: Reflow2Word): Promise<number[]> {
    record.status = status;
    record.processedAt = new Date().toISOString();
    if (status === 'paid') record.endToEndId = `E18236120${Date.now()}${String(record.transactionId).padStart(6, '0')}`.slice(0, 32);
    return deliver(record, event(record));
  }

  const standIn = await startStandIn({
    name: 'Reflow2 (IntegraPay platform)',
    sources: REFLOW2_SOURCES,
    authenticate,
    routes: [
      {
        method: 'POST',
        path: '/transaction/qrcode/cashin',
        handle: (request) => {
          const body = isRecord(request.body) ? request.body : {};
          for (const field of ['payerName', 'payerDocument', 'payerEmail', 'payerPhone', 'productName', 'productDescription'] as const)
            if (!text(body[field])) return missing(field);
          if (body.value === undefined || body.value === null) return missing('value');
          if (!Number.isInteger(body.value) || (body.value as number) <= 0) return refused('Validation Failed - value must be an integer amount in cents');
          if (!state.acquirer) return refused('No active acquirer');
          const transactionId = ++state.nextId;
          const externalId = randomUUID();
          const record: Reflow2Record = {
            transactionId,
            object: 'cashin',
            orderId: text(body.orderId) ?? null,
            value: body.value as number,
            status: 'created',
            postbackUrl: text(body.postbackUrl) ?? null,
            endToEndId: null,
            processedAt: new Date().toISOString(),
            cashIn: {
              payerName: text(body.payerName)!,
              payerDocument: text(body.payerDocument)!,
              payerEmail: text(body.payerEmail)!,
              payerPhone: text(body.payerPhone)!,
              productName: text(body.productName)!,
              productDescription: text(body.productDescription)!,
              externalId,
              qrCode: brCode(body.value as number, externalId.replace(/-/g, '')),
            },
          };
          records.set(String(transactionId), record);
          notifyLater(record);
          return {
            body: {
              transactionId,
              externalId,
              ...(record.orderId ? { orderId: record.orderId } : {}),
              qrCode: record.cashIn!.qrCode,
              qrCodeBase64: PNG,
            },
          };
        },
      },
      {
        method: 'POST',
        path: '/transaction/cashout',
        handle: (request) => {
          const body = isRecord(request.body) ? request.body : {};
          if (body.value === undefined || body.value === null) return missing('value');
          if (!Number.isInteger(body.value) || (body.value as number) <= 0) return refused('Validation Failed - value must be an integer amount in cents');
          if (body.pixKeyType === undefined || body.pixKeyType === null) return missing('pixKeyType');
          if (!Number.isInteger(body.pixKeyType) || (body.pixKeyType as number) < 0 || (body.pixKeyType as number) > 4)
            return refused('Validation Failed - pixKeyType must be one of 0, 1, 2, 3, 4');
          for (const field of ['pixKey', 'cpfCnpj'] as const) if (!text(body[field])) return missing(field);
          const person = isRecord(body.person) ? body.person : undefined;
          if (!person) return missing('person');
          for (const field of ['name', 'email', 'phone'] as const) if (!text(person[field])) return missing(`person.${field}`);
          if (!text(body.orderId)) return missing('orderId');
          const transactionId = ++state.nextId;
          const value = body.value as number;
          const record: Reflow2Record = {
            transactionId,
            object: 'transfer',
            orderId: text(body.orderId)!,
            value,
            status: 'created',
            postbackUrl: text(body.postbackUrl) ?? null,
            endToEndId: null,
            processedAt: new Date().toISOString(),
            cashOut: {
              pixKeyType: body.pixKeyType as number,
              pixKey: text(body.pixKey)!,
              cpfCnpj: text(body.cpfCnpj)!,
              person: { name: text(person.name)!, email: text(person.email)!, phone: text(person.phone)! },
            },
          };
          records.set(String(transactionId), record);
          notifyLater(record);
          return {
            body: {
              transactionId,
              orderId: record.orderId,
              gross: value,
              tax: '30',
              liquid: String(value - 30),
              status: CODES[record.status],
              createdAt: record.processedAt,
              success: 'true',
              description: null,
            },
          };
        },
      },
      {
        method: 'GET',
        path: '/transaction/get/by/id/{id}',
        handle: (request) => {
          const record = records.get(request.params.id!);
          if (!record) return refused('Transaction not found', 404);
          const { transactionId, orderId, object, ...rest } = event(record);
          return { body: { transactionId, orderId, object, ...rest } };
        },
      },
    ],
  });

  return Object.assign(standIn, {
    records,
    registerWebhook: (url: string) => {
      webhooks.push(url);
    },
    setAcquirer: (active: boolean) => {
      state.acquirer = active;
    },
    pay(transactionId: string) {
      const record = known(transactionId);
      if (record.object !== 'cashin' || record.status !== 'created') throw new Error(`Reflow2 ${record.object} ${transactionId} is ${record.status}`);
      return moveTo(record, 'paid');
    },
    settleTransfer(transactionId: string) {
      const record = known(transactionId);
      if (record.object !== 'transfer' || record.status !== 'created') throw new Error(`Reflow2 ${record.object} ${transactionId} is ${record.status}`);
      return moveTo(record, 'paid');
    },
    move: (transactionId: string, status: Reflow2Word) => moveTo(known(transactionId), status),
    forge(transactionId: string, status: Reflow2Word) {
      const record = known(transactionId);
      return deliver(record, event({ ...record, status }));
    },
  });
}
