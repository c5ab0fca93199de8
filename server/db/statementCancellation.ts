import { connect } from 'node:net';
import type pg from 'pg';
import { readCancelled, readSignal } from '../lib/callScope.js';

/** PostgreSQL's CancelRequest code (protocol: message formats, CancelRequest). */
const CANCEL_REQUEST_CODE = 80877102;
/** How long a cancel request may take before the connection is given back anyway. */
const CANCEL_TIMEOUT_MS = 2_000;
/** How long after a cancel request a statement still running is sent another (the first may have come too early). */
const CANCEL_REPEAT_MS = 500;

type Query = (...args: unknown[]) => unknown;
type Backend = pg.PoolClient & { host?: string; port?: number; processID?: number | null; secretKey?: number | null };

const instrumented = new WeakSet<pg.PoolClient>();

/**
 * Ties the statements of read-only calls (lib/callScope.ts cancellableRead) on this pool to their caller: a statement
 * asked for after the caller has gone (it waited for a connection meanwhile) is refused without being sent, and, with
 * `cancelRunning`, one running when the caller goes is cancelled with PostgreSQL's cancel request. Statements outside
 * a read-only call (every write) are never touched.
 *
 * A cancel request reaches whatever statement its connection runs when it arrives, so the connection is not given
 * back to the pool until the request has been delivered: it cannot land on the next borrower's statement.
 * `cancelRunning` is off for the embedded database, which serves one connection at a time.
 */
export function cancelReadsWithTheirCaller(pool: pg.Pool, { cancelRunning }: { cancelRunning: boolean }): void {
  pool.on('acquire', (client) => {
    if (instrumented.has(client)) return;
    instrumented.add(client);
    const query = client.query.bind(client) as Query;
    (client as unknown as { query: Query }).query = (...args: unknown[]) => {
      const signal = readSignal();
      // Statements as text (how kysely sends MikroORM's) or as a config (preparedSql.ts's named statements), in the
      // promise form or the callback form (preparedSql.ts's); cursors pass.
      if (!signal || !isStatement(args[0])) return query(...args);
      const last = args.at(-1);
      const callback = typeof last === 'function' ? (last as Callback) : undefined;
      if (signal.aborted) {
        if (!callback) return Promise.reject(readCancelled());
        process.nextTick(callback, readCancelled());
        return undefined;
      }
      if (!cancelRunning) return query(...args);
      const settled = cancelOnAbort(signal, client as Backend);
      // A statement that failed once its caller had gone failed because it was cancelled; one that answered stands.
      const failure = (error: unknown) => (signal.aborted ? readCancelled() : error);
      if (callback) {
        return query(...args.slice(0, -1), (error: unknown, result: unknown) => {
          void settled().then(() => (error ? callback(failure(error)) : callback(undefined, result)));
        });
      }
      return (query(...args) as Promise<unknown>).then(
        async (result) => (await settled(), result),
        async (error: unknown) => {
          await settled();
          throw failure(error);
        },
      );
    };
  });
}

type Callback = (error: unknown, result?: unknown) => void;

/**
 * While the statement runs, the caller's going sends PostgreSQL's cancel request for the connection's backend. The
 * function returned is called once the statement has answered: it stops listening and resolves once a cancel request
 * sent meanwhile has been delivered, so that the connection is not given back before it has.
 *
 * A backend that has not yet read the statement when the request reaches it (the caller went just as it was sent)
 * ignores the request and then runs the statement in full, so the request is sent again every CANCEL_REPEAT_MS until
 * the statement answers.
 */
function cancelOnAbort(signal: AbortSignal, client: Backend): () => Promise<void> {
  let delivered: Promise<void> | undefined;
  let repeat: NodeJS.Timeout | undefined;
  let answered = false;
  const cancel = () => {
    delivered = sendCancelRequest(client).then(() => {
      if (!answered) repeat = setTimeout(cancel, CANCEL_REPEAT_MS);
    });
  };
  signal.addEventListener('abort', cancel, { once: true });
  return async () => {
    answered = true;
    signal.removeEventListener('abort', cancel);
    clearTimeout(repeat);
    await delivered;
  };
}

function isStatement(first: unknown): boolean {
  if (typeof first === 'string') return true;
  const config = first as { text?: unknown; submit?: unknown } | null;
  return typeof config === 'object' && config !== null && typeof config.text === 'string' && typeof config.submit !== 'function';
}

/** Sends PostgreSQL's cancel request for the backend of `client`; resolves once the server has closed it (or on failure). */
function sendCancelRequest(client: Backend): Promise<void> {
  const { host, port, processID, secretKey } = client;
  if (!processID || secretKey === null || secretKey === undefined || !port) return Promise.resolve();
  return new Promise((resolve) => {
    const socket = host?.startsWith('/') ? connect(`${host}/.s.PGSQL.${port}`) : connect(port, host ?? 'localhost');
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve();
    };
    const timer = setTimeout(done, CANCEL_TIMEOUT_MS);
    socket.once('connect', () => {
      const request = Buffer.alloc(16);
      request.writeInt32BE(16, 0);
      request.writeInt32BE(CANCEL_REQUEST_CODE, 4);
      request.writeInt32BE(processID, 8);
      request.writeInt32BE(secretKey, 12);
      socket.end(request);
    });
    // The server closes the connection once it has signalled the backend.
    socket.once('close', done);
    socket.once('error', done);
  });
}
