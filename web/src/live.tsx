import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { Code, ConnectError, createClient } from '@connectrpc/connect';
import { createConnectQueryKey, useTransport } from '@connectrpc/connect-query';
import { useQueryClient } from '@tanstack/react-query';
import { PaymentGatewayService } from '../../gen/es/gateway/v1/payment_gateway_service_pb.js';
import { WebhookService } from '../../gen/es/gateway/v1/webhook_service_pb.js';
import type { StatusEvent } from '../../gen/es/gateway/v1/types_pb.js';

/** How many of the latest status changes the dashboard's feed keeps. */
const FEED_SIZE = 20;
/** Wait before reconnecting a stream that ended or failed. */
const RECONNECT_MS = 2000;

const LiveContext = createContext<StatusEvent[]>([]);

/**
 * What a status change makes stale: the lists, the detail and the counts of transactions, the payouts' list and
 * detail, and a charge's notifications (one was probably just applied) and outbound deliveries (one was just queued).
 */
const { listTransactions, getTransaction, getTransactionStats, listWithdrawals, getWithdraw } = PaymentGatewayService.method;
const STALE = [
  createConnectQueryKey({ schema: listWithdrawals, cardinality: undefined }),
  createConnectQueryKey({ schema: getWithdraw, cardinality: undefined }),
  createConnectQueryKey({ schema: listTransactions, cardinality: undefined }),
  createConnectQueryKey({ schema: getTransaction, cardinality: undefined }),
  createConnectQueryKey({ schema: getTransactionStats, cardinality: undefined }),
  createConnectQueryKey({ schema: WebhookService.method.listWebhookNotifications, cardinality: undefined }),
  createConnectQueryKey({ schema: WebhookService.method.listOutboundDeliveries, cardinality: undefined }),
];

/**
 * One WatchEvents stream for the whole signed-in app. Each event invalidates the
 * transaction queries (they refetch if shown, so a charge paid on the sandbox
 * turns APPROVED without a reload) and goes to the feed. A stream that ends or
 * fails reconnects after the last event seen, so none is missed.
 */
export function LiveEvents({ children }: { children: ReactNode }) {
  const transport = useTransport();
  const queryClient = useQueryClient();
  const [events, setEvents] = useState<StatusEvent[]>([]);

  useEffect(() => {
    const abort = new AbortController();
    const client = createClient(PaymentGatewayService, transport);
    let afterEventId = '';
    async function watch() {
      while (!abort.signal.aborted) {
        try {
          for await (const { event } of client.watchEvents({ afterEventId }, { signal: abort.signal })) {
            if (!event) continue;
            afterEventId = event.eventId;
            setEvents((previous) => [event, ...previous].slice(0, FEED_SIZE));
            for (const queryKey of STALE) void queryClient.invalidateQueries({ queryKey });
          }
        } catch (err) {
          const code = ConnectError.from(err).code;
          // Signed out (the transport returns to sign-in) or unmounted: stop.
          if (abort.signal.aborted || code === Code.Unauthenticated || code === Code.PermissionDenied) return;
        }
        await new Promise((resolve) => setTimeout(resolve, RECONNECT_MS));
      }
    }
    void watch();
    return () => abort.abort();
  }, [transport, queryClient]);

  return <LiveContext value={events}>{children}</LiveContext>;
}

/** The latest status changes, newest first. */
export const useLiveEvents = () => useContext(LiveContext);
