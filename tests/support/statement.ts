import { GetAccountStatementRequest } from '../../gen/ts-proto/gateway/v1/provider_account_service.js';
import type { TestStack } from './gateway.js';

/** Today as the statement counts days: Brasília's calendar day. */
export const statementToday = (): string => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date());

/** An account's statement for today, through the gateway's public contract. */
export async function todaysStatement(stack: TestStack, providerAccountId: string) {
  const today = statementToday();
  const { days } = await stack.client.call(
    'accounts',
    'getAccountStatement',
    GetAccountStatementRequest.fromPartial({ providerAccountId, fromDay: today, toDay: today }),
  );
  return days;
}
