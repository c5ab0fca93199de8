import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import type { DescMethodUnary } from '@bufbuild/protobuf';
import { Code, ConnectError, createClient } from '@connectrpc/connect';
import { createConnectQueryKey, useTransport } from '@connectrpc/connect-query';
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { PaymentGatewayService } from '../../gen/es/gateway/v1/payment_gateway_service_pb.js';
import { ProviderAccountService } from '../../gen/es/gateway/v1/provider_account_service_pb.js';
import { WebhookService } from '../../gen/es/gateway/v1/webhook_service_pb.js';
import { EventSubject, type StatusEvent } from '../../gen/es/gateway/v1/types_pb.js';

/** How many of the latest status changes of charges and payouts the dashboard's feed keeps. */
const FEED_SIZE = 20;
/** Wait before reconnecting a stream that ended or failed. */
const RECONNECT_MS = 2000;

const LiveContext = createContext<StatusEvent[]>([]);

const { listTransactions, getTransaction, getTransactionStats, listWithdrawals, getWithdraw, listReceivers, getReceiver } = PaymentGatewayService.method;
const keyOf = (schema: DescMethodUnary) => createConnectQueryKey({ schema, cardinality: undefined });

/**
 * What an event of each subject makes stale. A charge's change: its lists, detail and counts, its notifications
 * (one was probably just applied) and outbound deliveries (one was just queued); a payout's: the payouts' list and
 * detail and the notifications; a receiver's: the receivers' list and page; an account's: every account query (the
 * accounts' page and the filters' and forms' choices).
 */
const STALE: Record<EventSubject, QueryKey[]> = {
  [EventSubject.UNSPECIFIED]: [],
  [EventSubject.TRANSACTION]: [
    keyOf(listTransactions),
    keyOf(getTransaction),
    keyOf(getTransactionStats),
    keyOf(WebhookService.method.listWebhookNotifications),
    keyOf(WebhookService.method.listOutboundDeliveries),
  ],
  [EventSubject.WITHDRAWAL]: [keyOf(listWithdrawals), keyOf(getWithdraw), keyOf(WebhookService.method.listWebhookNotifications)],
  [EventSubject.RECEIVER]: [keyOf(listReceivers), keyOf(getReceiver)],
  [EventSubject.PROVIDER_ACCOUNT]: [createConnectQueryKey({ schema: ProviderAccountService, cardinality: undefined })],
};
const ALL_STALE = Object.values(STALE).flat();
/** The subjects the feed shows: status changes of money. */
const FEED_SUBJECTS = new Set([EventSubject.TRANSACTION, EventSubject.WITHDRAWAL]);

/**
 * One WatchEvents stream for the whole signed-in app, of the subjects the operator may read. Each event invalidates
 * the queries of its subject (they refetch if shown, so a charge paid on the sandbox turns APPROVED and a receiver
 * created elsewhere appears without a reload); charges' and payouts' events go to the feed. A stream that ends or
 * fails reconnects after the last event seen, and every reconnection also refetches all the live queries: a stream
 * that dropped before its first event resumes "from now on", so only a refetch shows what changed in between.
 */
export function LiveEvents({ subjects, children }: { subjects: EventSubject[]; children: ReactNode }) {
  const transport = useTransport();
  const queryClient = useQueryClient();
  const [events, setEvents] = useState<StatusEvent[]>([]);
  const watched = subjects.join(',');

  useEffect(() => {
    const abort = new AbortController();
    const client = createClient(PaymentGatewayService, transport);
    const subjectList = watched.split(',').map(Number) as EventSubject[];
    const invalidate = (keys: QueryKey[]) => {
      for (const queryKey of keys) void queryClient.invalidateQueries({ queryKey });
    };
    let afterEventId = '';
    let reconnecting = false;
    async function watch() {
      while (!abort.signal.aborted) {
        try {
          // The request is sent when the call is made, so the refetch below reads no earlier than the stream starts.
          const stream = client.watchEvents({ afterEventId, subjects: subjectList }, { signal: abort.signal });
          if (reconnecting) invalidate(ALL_STALE);
          for await (const { event } of stream) {
            if (!event) continue;
            afterEventId = event.eventId;
            if (FEED_SUBJECTS.has(event.subject)) setEvents((previous) => [event, ...previous].slice(0, FEED_SIZE));
            invalidate(STALE[event.subject] ?? []);
          }
        } catch (err) {
          const code = ConnectError.from(err).code;
          // Signed out (the transport returns to sign-in) or unmounted: stop.
          if (abort.signal.aborted || code === Code.Unauthenticated || code === Code.PermissionDenied) return;
        }
        reconnecting = true;
        await new Promise((resolve) => setTimeout(resolve, RECONNECT_MS));
      }
    }
    void watch();
    return () => abort.abort();
  }, [transport, queryClient, watched]);

  return <LiveContext value={events}>{children}</LiveContext>;
}

/** The latest status changes of charges and payouts, newest first. */
export const useLiveEvents = () => useContext(LiveContext);
