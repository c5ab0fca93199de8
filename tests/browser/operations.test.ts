import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { Browser } from 'playwright-core';
import { CreateTransactionRequest, FlowMismatchState, ListFlowMismatchesRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { CreateOperatorRequest, ListAuditEventsRequest } from '../../gen/ts-proto/gateway/v1/access_service.js';
import { CreateRouteRequest } from '../../gen/ts-proto/gateway/v1/routing_service.js';
import { SimulatePaymentRequest } from '../../gen/ts-proto/gateway/v1/sandbox_service.js';
import { PaymentMethod, WebhookOutcome } from '../../gen/ts-proto/gateway/v1/types.js';
import { DeliveryState, ListOutboundDeliveriesRequest, ListWebhookNotificationsRequest } from '../../gen/ts-proto/gateway/v1/webhook_service.js';
import { accessibilityViolations, backOfficePages, chooseOption, followNavLink, launchBrowser, screenshot, signInAs } from '../support/browser.js';
import { failureOf } from '../support/clients.js';
import { eventually } from '../support/eventually.js';
import { startTestStack, type TestStack } from '../support/gateway.js';
import { SEEDED_CHARGES, SEEDING_TIMEOUT_MS } from '../support/seedCharges.js';
import { pixRule } from '../support/routes.js';
import { postSignedSandboxEvent } from '../support/sandboxEvents.js';

/**
 * Issue 33 §7: the operations console. A delivery to a merchant that gave up is resent from it; a notification with
 * a bad signature is found by its outcome (the filter kept in the address); the routed account's health shows. A
 * viewer on a phone sees the same lists, without the actions, and why. An admin on a phone resends another delivery
 * that gave up, and finds a notification about a charge the gateway never made by its outcome. A flow mismatch is
 * settled with a note, and both see who settled it, when and how.
 * It runs on a gateway seeded with 100,000 charges at accounts of their own (tests/support/seedCharges.ts).
 */
let browser: Browser;
let stack: TestStack;
let receiver: Server;
let receiverAnswers = 500;
const received: string[] = [];
let chargeId: string;
let accountId: string;
let notificationUrl: string;
const WEBHOOK_SECRET = 'whsec-operacoes';

const pages = backOfficePages(
  () => browser,
  () => stack.gateway,
);
const VIEWER = { email: 'leitora-operacoes@example.com', password: 'uma senha longa de leitora' };

beforeAll(async () => {
  // One retry: the delivery gives up after its second failure.
  stack = await startTestStack({ env: { OUTBOUND_RETRY_SCHEDULE_MS: '100' }, seededCharges: SEEDED_CHARGES });
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      received.push(body);
      res.writeHead(receiverAnswers).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const { providerAccount } = await stack.client.call('accounts', 'createProviderAccount', {
    provider: 'SANDBOX',
    name: 'Loja principal',
    publicKey: 'pk',
    secretKey: 'sk-operacoes',
    webhookSecret: WEBHOOK_SECRET,
  });
  accountId = providerAccount.id;
  notificationUrl = providerAccount.notificationUrl;
  await stack.client.call('routes', 'createRoute', CreateRouteRequest.fromPartial({ name: 'pix', rules: [pixRule([providerAccount.id])] }));
  chargeId = await paidChargeWhoseDeliveryGaveUp('operacoes-1', 4200);
  // A forged notification: no signature, refused and kept as REJECTED.
  const forged = JSON.stringify({ id: 'evt_forjado', type: 'charge.paid', createdAt: new Date().toISOString(), data: { id: 'ch_x', status: 'paid' } });
  const answer = await fetch(providerAccount.notificationUrl, {
    method: 'POST',
    body: forged,
    headers: { 'content-type': 'application/json', 'x-sandbox-event-id': 'evt_forjado' },
  });
  expect(answer.status).toBe(401);
  await stack.client.call('access', 'createOperator', CreateOperatorRequest.fromPartial({ email: VIEWER.email, role: 'viewer', password: VIEWER.password }));
  browser = await launchBrowser();
}, SEEDING_TIMEOUT_MS);
afterAll(async () => {
  await browser?.close();
  receiver?.close();
  await stack?.close();
});

it('an admin resends a delivery that gave up, finds a bad-signature notification by outcome and sees the account health', async () => {
  const { page, violations } = await pages.signedIn(1280, 900);
  await page.getByRole('navigation').getByRole('link', { name: 'Operações', exact: true }).click();

  const health = page.getByTestId('ops-health-table');
  await health.getByText('Loja principal (SANDBOX)').waitFor();
  await expect(health.locator('tbody tr td').allTextContents()).resolves.toEqual([
    'Loja principal (SANDBOX)',
    'Cobrança',
    'Fechado',
    '1',
    '100%',
    '0%',
    expect.stringMatching(/^\d+ ms$/),
    expect.stringMatching(/^≤ \d+ ms$/),
    expect.stringMatching(/^≤ \d+ ms$/),
  ]);
  // Kept in the process's memory: the page says since when it counts.
  await expect(page.getByTestId('ops-health-since').textContent()).resolves.toMatch(/^Contando desde \d{2}\/\d{2}\/\d{4}/);

  const deliveries = page.getByTestId('ops-deliveries');
  const delivery = deliveries.getByTestId('ops-delivery');
  await delivery.getByText('Tentativas esgotadas').waitFor();
  expect(await delivery.getByTestId('delivery-attempts').locator('tbody tr').count()).toBe(2);
  await expect(delivery.getByRole('link').textContent()).resolves.toBe(chargeId.slice(0, 8));

  await screenshot(page, 'operations-1280-gave-up');

  receiverAnswers = 204;
  await delivery.getByRole('button', { name: /^Reenviar: Evento / }).click();
  await deliveries.getByText('Nenhuma entrega com tentativas esgotadas.').waitFor();
  await eventually(async () => received.length === 3, 10_000, 'the resent delivery');
  expect(JSON.parse(received[2]!)).toMatchObject({ data: { id: chargeId, status: 'APPROVED' } });

  const notifications = page.getByTestId('ops-notifications');
  await chooseOption(page, notifications.getByRole('combobox', { name: 'Resultado' }), 'Assinatura inválida');
  await eventually(async () => page.url().includes('outcome=8'), 5_000, 'the outcome in the address');
  const rows = notifications.getByTestId('ops-notification');
  await rows.first().getByText('Assinatura inválida').waitFor();
  await expect(rows.count()).resolves.toBe(1);
  await expect(rows.first().locator('td').nth(1).textContent()).resolves.toBe('SANDBOX · Loja principal');

  // The filter survives a reload; the raw notification opens.
  await page.reload();
  await notifications.getByTestId('ops-notification').first().getByText('Assinatura inválida').waitFor();
  await expect(notifications.getByRole('combobox', { name: 'Resultado' }).inputValue()).resolves.toBe('Assinatura inválida');
  await notifications.getByRole('button', { name: /^Ver conteúdo: / }).click();
  await expect(page.getByTestId('notification-body').textContent()).resolves.toContain('evt_forjado');
  await page.getByTestId('ops-unconfirmed').getByText('Nenhuma solicitação com resultado desconhecido.').waitFor();
  await page.getByTestId('ops-mismatches').getByText('Nenhuma divergência.').waitFor();
  await pages.finish(page, violations, 'operations-1280');
});

it('a viewer on a phone sees the lists without resend or reprocess, and why', async () => {
  const { page, violations } = await pages.openPage(390, 844);
  await page.getByRole('textbox', { name: 'E-mail' }).fill(VIEWER.email);
  await page.getByLabel(/^Senha/).fill(VIEWER.password);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await page.getByText('(viewer)').waitFor();
  await page.goto(`${stack.gateway.httpUrl}/#/operations?outcome=8`);
  await page.getByTestId('ops-notification').first().getByText('Assinatura inválida').waitFor();
  await page.getByText('Seu papel não permite reprocessar notificações (exige notifications:write).').waitFor();
  await page.getByText('Seu papel não permite reenviar entregas (exige notifications:write).').waitFor();
  await page.getByText('Seu papel não permite resolver solicitações (exige reconciliation:write).').waitFor();
  await expect(page.getByRole('button', { name: /^Reprocessar/ }).count()).resolves.toBe(0);
  await expect(page.getByRole('button', { name: /^Reenviar/ }).count()).resolves.toBe(0);
  // Days typed as dd/mm/aaaa: nothing was received before today.
  const yesterday = new Date(Date.now() - 86_400_000);
  const typed = [yesterday.getDate(), yesterday.getMonth() + 1].map((n) => String(n).padStart(2, '0')).join('/') + `/${yesterday.getFullYear()}`;
  await page.getByRole('textbox', { name: 'Recebidas até' }).fill(typed);
  await page.getByTestId('ops-notifications').getByText('Nada encontrado.').waitFor();
  expect(page.url()).toContain(`to=${yesterday.getFullYear()}-`);
  await page.getByRole('textbox', { name: 'Recebidas até' }).fill('');
  await page.getByTestId('ops-notification').first().getByText('Assinatura inválida').waitFor();
  await page.getByTestId('ops-health-table').waitFor();
  // Badges show their whole label on a phone (the table scrolls instead).
  const clipped = await page.evaluate(() =>
    Array.from(document.querySelectorAll('.mantine-Badge-label'))
      .filter((label) => label.scrollWidth > label.clientWidth)
      .map((label) => label.textContent),
  );
  expect(clipped).toEqual([]);
  await pages.finish(page, violations, 'operations-390-viewer');
});

/** A paid PIX charge whose merchant's webhook (at `path` of the receiver) the receiver refuses until it gave up (one retry). */
async function paidChargeWhoseDeliveryGaveUp(idempotencyKey: string, amount: number, path = '/hooks'): Promise<string> {
  receiverAnswers = 500;
  const { transaction } = await stack.client.call(
    'gateway',
    'createTransaction',
    CreateTransactionRequest.fromPartial({
      route: 'pix',
      idempotencyKey,
      transaction: {
        amount,
        paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX,
        webhookUrl: receiverUrl(path),
      },
    }),
  );
  await stack.client.call('sandbox', 'simulatePayment', SimulatePaymentRequest.fromPartial({ id: transaction.id }));
  await eventually(
    async () => {
      const { deliveries } = await stack.client.call(
        'webhooks',
        'listOutboundDeliveries',
        ListOutboundDeliveriesRequest.fromPartial({ transactionId: transaction.id }),
      );
      return deliveries[0]?.state === DeliveryState.DELIVERY_STATE_GAVE_UP;
    },
    15_000,
    'the delivery to give up',
  );
  return transaction.id;
}

it('an admin on a phone resends a delivery that gave up, and finds a notification about an unknown charge by its outcome', async () => {
  const phoneChargeId = await paidChargeWhoseDeliveryGaveUp('operacoes-celular', 1500);
  // Signed, so that it is processed: about a charge the gateway never made, kept as an unknown subject.
  const unknown = await postSignedSandboxEvent(notificationUrl, WEBHOOK_SECRET, {
    id: 'evt_desconhecido',
    type: 'charge.paid',
    data: { id: 'ch_desconhecida', status: 'paid', amount: 1500 },
  });
  expect(unknown.status).toBe(200);
  // Processed by a worker after the 200: the list is read once it is (its retries are seconds apart, each a moment).
  await eventually(
    async () => {
      const { notifications } = await stack.client.call(
        'webhooks',
        'listWebhookNotifications',
        ListWebhookNotificationsRequest.fromPartial({ providerAccountId: accountId, outcome: WebhookOutcome.WEBHOOK_OUTCOME_UNKNOWN_SUBJECT }),
      );
      return notifications.length === 1;
    },
    15_000,
    'the notification about an unknown charge to be processed',
  );

  const { page, violations } = await pages.signedIn(390, 844);
  await followNavLink(page, 'Operações');
  const deliveries = page.getByTestId('ops-deliveries');
  const delivery = deliveries.getByTestId('ops-delivery');
  await delivery.getByText('Tentativas esgotadas').waitFor();
  await expect(delivery.getByRole('link').textContent()).resolves.toBe(phoneChargeId.slice(0, 8));
  await screenshot(page, 'operations-390-gave-up');
  const before = received.length;
  receiverAnswers = 204;
  await delivery.getByRole('button', { name: /^Reenviar: Evento / }).click();
  await deliveries.getByText('Nenhuma entrega com tentativas esgotadas.').waitFor();
  await eventually(async () => received.length === before + 1, 10_000, 'the resent delivery');
  expect(JSON.parse(received[before]!)).toMatchObject({ data: { id: phoneChargeId, status: 'APPROVED' } });

  const notifications = page.getByTestId('ops-notifications');
  await chooseOption(page, notifications.getByRole('combobox', { name: 'Resultado' }), 'Transação desconhecida');
  const rows = notifications.getByTestId('ops-notification');
  await rows.first().getByText('Transação desconhecida').waitFor();
  await expect(rows.count()).resolves.toBe(1);
  await expect(rows.first().locator('td').allTextContents()).resolves.toEqual([
    expect.anything(),
    'SANDBOX · Loja principal',
    'Transação desconhecida',
    'no transaction ch_desconhecida for this account',
    '—',
    expect.anything(),
  ]);
  await expect(page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).resolves.toBeLessThanOrEqual(0);
  await pages.finish(page, violations, 'operations-390-resent');
});

it('an admin on a phone settles a charge lost on the way as not made, and it leaves the list', async () => {
  stack.gateway.sandboxPsp!.injectFault({ resource: 'charges', mode: 'dropWithoutActing' });
  const lost = CreateTransactionRequest.fromPartial({
    providerAccountId: accountId,
    idempotencyKey: 'operacoes-perdida',
    transaction: { amount: 990, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX },
  });
  expect((await failureOf(stack.client.call('gateway', 'createTransaction', lost))).code).toBe('UNAVAILABLE');

  const { page, violations } = await pages.signedIn(390, 844, '#/operations');
  const unconfirmed = page.getByTestId('ops-unconfirmed');
  const row = unconfirmed.getByTestId('ops-unconfirmed-request');
  await row.getByText('operacoes-perdida').waitFor();
  await row.getByRole('button', { name: 'Resolver: operacoes-perdida' }).click();
  await chooseOption(page, row.getByRole('combobox', { name: 'O provedor confirmou que' }), 'não executou nada');
  await row.getByRole('textbox', { name: 'Como foi confirmado' }).fill('o sandbox não lista cobrança para operacoes-perdida');
  await row.getByRole('button', { name: 'Confirmar' }).click();
  await unconfirmed.getByText('Nenhuma solicitação com resultado desconhecido.').waitFor();
  await pages.finish(page, violations, 'operations-390-settled');
});

const receiverUrl = (path: string) => `http://127.0.0.1:${(receiver.address() as AddressInfo).port}${path}`;

/** A signed notification that the sandbox charge was paid, for 1 cent: refused, and listed as a flow mismatch. */
async function mismatchOnCharge(): Promise<{ chargeId: string; mismatchId: string }> {
  const { transaction } = await stack.client.call(
    'gateway',
    'createTransaction',
    CreateTransactionRequest.fromPartial({ providerAccountId: accountId, transaction: { amount: 2590, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX } }),
  );
  const answer = await postSignedSandboxEvent(notificationUrl, WEBHOOK_SECRET, {
    id: 'evt_um_centavo',
    type: 'charge.paid',
    data: { id: transaction.transactionId, status: 'paid', amount: 1 },
  });
  expect(answer.status).toBe(200);
  const [mismatch] = await eventually(
    async () => {
      const { mismatches } = await stack.client.call(
        'gateway',
        'listFlowMismatches',
        ListFlowMismatchesRequest.fromPartial({ subjectId: transaction.id, state: FlowMismatchState.FLOW_MISMATCH_STATE_OPEN }),
      );
      return mismatches.length > 0 && mismatches;
    },
    10_000,
    'the mismatch to be listed',
  );
  return { chargeId: transaction.id, mismatchId: mismatch.id };
}

it('an admin settles a real flow mismatch with a note after confirming; a viewer on a phone sees who, when and how, without the action', async () => {
  const { chargeId: mismatched, mismatchId } = await mismatchOnCharge();
  const short = mismatched.slice(0, 8);

  const { page, violations } = await pages.signedIn(1280, 900, '#/operations');
  const section = page.getByTestId('ops-mismatches');
  const row = section.getByTestId('ops-mismatch');
  await row.getByText('the provider answered APPROVED for 1 cents, the transaction is 2590 cents').waitFor();
  await expect(row.count()).resolves.toBe(1);
  await row.getByRole('button', { name: `Resolver: ${short}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Resolver divergência' });
  await dialog.getByText(new RegExp(`^${short} \\(SANDBOX\\): R\\$\\s25,90 no gateway, R\\$\\s0,01 no provedor\\.`)).waitFor();
  const confirm = dialog.getByRole('button', { name: 'Confirmar' });
  await expect(confirm.isDisabled()).resolves.toBe(true);
  await chooseOption(page, dialog.getByRole('combobox', { name: /^O acompanhamento com o provedor mostrou que/ }), 'o registro do gateway está certo');
  await dialog.getByRole('textbox', { name: /^Nota/ }).fill('chamado 7781 no SANDBOX: o pagamento foi de 25,90');
  await expect(accessibilityViolations(page)).resolves.toEqual([]);
  await screenshot(page, 'operations-1280-settle-mismatch');
  await confirm.click();
  await dialog.waitFor({ state: 'detached' });
  await section.getByText('Nenhuma divergência.').waitFor();

  await section.getByText('Resolvidas', { exact: true }).click();
  const settled = section.getByTestId('mismatch-settlement');
  await settled.getByText('chamado 7781 no SANDBOX: o pagamento foi de 25,90').waitFor();
  await expect(settled.textContent()).resolves.toContain('o registro do gateway está certo');
  await expect(settled.textContent()).resolves.toContain(stack.gateway.firstAdmin!.email);
  await expect(section.getByRole('button', { name: /^Resolver/ }).count()).resolves.toBe(0);
  // The list chosen is kept in the address: a reload shows the settled ones again.
  expect(new URL(page.url()).hash).toContain(`mismatchState=${FlowMismatchState.FLOW_MISMATCH_STATE_SETTLED}`);
  await page.reload();
  await settled.getByText('chamado 7781 no SANDBOX: o pagamento foi de 25,90').waitFor();
  await expect(section.getByRole('radio', { name: 'Resolvidas' }).isChecked()).resolves.toBe(true);
  await pages.finish(page, violations, 'operations-1280-mismatch-settled');

  // In the audit trail under the admin's e-mail.
  const { events } = await stack.client.call('access', 'listAuditEvents', ListAuditEventsRequest.fromPartial({ resource: mismatchId, pageSize: 10 }));
  expect(events).toEqual([
    expect.objectContaining({ action: 'gateway.v1.PaymentGatewayService/SettleFlowMismatch', outcome: 'OK', actorName: stack.gateway.firstAdmin!.email }),
  ]);

  const phone = await pages.openPage(390, 844);
  await signInAs(phone.page, VIEWER.email, VIEWER.password);
  await phone.page.getByText('(viewer)').waitFor();
  await phone.page.goto(`${stack.gateway.httpUrl}/#/operations`);
  const onPhone = phone.page.getByTestId('ops-mismatches');
  await onPhone.getByText('Seu papel não permite resolver divergências (exige reconciliation:write).').waitFor();
  await onPhone.getByText('Nenhuma divergência.').waitFor();
  await onPhone.getByText('Todas', { exact: true }).click();
  await onPhone.getByTestId('mismatch-settlement').getByText('chamado 7781 no SANDBOX: o pagamento foi de 25,90').waitFor();
  await expect(onPhone.getByRole('button', { name: /^Resolver/ }).count()).resolves.toBe(0);
  await pages.finish(phone.page, phone.violations, 'operations-390-viewer-mismatch-settled');
});

it('after an outage an admin pages through the deliveries that gave up, filters them, and resends the chosen and then all the filtered', async () => {
  // More than a page (25) of deliveries to one merchant address that gave up, and one elsewhere that the filter leaves out.
  const backlog = 27;
  const outage = await Promise.all(Array.from({ length: backlog }, (_, n) => paidChargeWhoseDeliveryGaveUp(`operacoes-lote-${n}`, 100 + n, '/lote')));
  const elsewhere = await paidChargeWhoseDeliveryGaveUp('operacoes-outra-loja', 700, '/outra-loja');

  const { page, violations } = await pages.signedIn(1280, 900, '#/operations');
  const deliveries = page.getByTestId('ops-deliveries');
  const rows = deliveries.getByTestId('ops-delivery');
  await deliveries.getByRole('textbox', { name: 'Endereço do lojista (webhook_url)' }).fill(receiverUrl('/lote'));
  await eventually(async () => page.url().includes('deliveryUrl='), 5_000, 'the address filter in the address');
  // Unfiltered, the other merchant's (the newest) leads the first page: the filter has applied once it is gone.
  await eventually(
    async () => (await rows.count()) === 25 && !(await rows.getByRole('link').allTextContents()).includes(elsewhere.slice(0, 8)),
    10_000,
    'the first page of the filtered deliveries',
  );
  await deliveries.getByRole('button', { name: 'Carregar mais' }).click();
  await eventually(async () => (await rows.count()) === backlog, 10_000, 'the second page');
  await expect(deliveries.getByRole('button', { name: 'Carregar mais' }).count()).resolves.toBe(0);
  const shown = await rows.getByRole('link').allTextContents();
  expect(new Set(shown)).toEqual(new Set(outage.map((id) => id.slice(0, 8))));
  expect(shown).not.toContain(elsewhere.slice(0, 8));

  // A day filter: none was created before today.
  const yesterday = new Date(Date.now() - 86_400_000);
  const typed = [yesterday.getDate(), yesterday.getMonth() + 1].map((n) => String(n).padStart(2, '0')).join('/') + `/${yesterday.getFullYear()}`;
  await deliveries.getByRole('textbox', { name: 'Criadas até' }).fill(typed);
  await deliveries.getByText('Nenhuma entrega com tentativas esgotadas.').waitFor();
  await deliveries.getByRole('textbox', { name: 'Criadas até' }).fill('');
  // Back to the list as it was (both pages, as loaded).
  await eventually(async () => (await rows.count()) === backlog, 10_000, 'the filtered deliveries again');

  // Two chosen, confirmed, counted.
  receiverAnswers = 204;
  const before = received.length;
  await rows.nth(0).getByRole('checkbox').check();
  await rows.nth(1).getByRole('checkbox').check();
  await deliveries.getByRole('button', { name: 'Reenviar selecionadas (2)' }).click();
  const dialog = page.getByRole('dialog', { name: 'Reenviar entregas' });
  await dialog.getByText('2 entrega(s) selecionada(s) serão tentadas de novo agora.').waitFor();
  await expect(accessibilityViolations(page)).resolves.toEqual([]);
  await dialog.getByRole('button', { name: 'Confirmar' }).click();
  // The gateway's counts, from its one call.
  await expect(dialog.getByTestId('bulk-resend-result').textContent()).resolves.toBe(
    '2 reenvio(s) agendado(s); 0 já reenviada(s) ou entregue(s), deixada(s) como estava(m); 0 não encontrada(s).',
  );
  await expect(accessibilityViolations(page)).resolves.toEqual([]);
  await dialog.getByRole('button', { name: 'Fechar' }).first().click();
  await eventually(async () => received.length === before + 2, 10_000, 'the two resent deliveries');
  await pages.finish(page, violations, 'operations-1280-bulk-selected');

  // On a phone, the filter comes with the address: all the filtered ones (past the first page), and not the other merchant's.
  const phone = await pages.signedIn(390, 844, `#/operations?deliveryUrl=${encodeURIComponent(receiverUrl('/lote'))}`);
  const onPhone = phone.page.getByTestId('ops-deliveries');
  await eventually(async () => (await onPhone.getByTestId('ops-delivery').count()) === 25, 10_000, 'the first page on the phone');
  await onPhone.getByRole('button', { name: 'Reenviar todas as filtradas' }).click();
  const all = phone.page.getByRole('dialog', { name: 'Reenviar entregas' });
  // How many, counted by the gateway: past the page loaded, without the two already resent.
  await all.getByText(`${backlog - 2} entrega(s) com tentativas esgotadas atendem aos filtros e serão tentadas de novo agora.`).waitFor();
  await expect(accessibilityViolations(phone.page)).resolves.toEqual([]);
  await all.getByRole('button', { name: 'Confirmar' }).click();
  await expect(all.getByTestId('bulk-resend-result').textContent()).resolves.toBe(
    `${backlog - 2} reenvio(s) agendado(s); 0 já reenviada(s) ou entregue(s), deixada(s) como estava(m); 0 não encontrada(s).`,
  );
  await expect(accessibilityViolations(phone.page)).resolves.toEqual([]);
  await all.getByRole('button', { name: 'Fechar' }).first().click();
  await onPhone.getByText('Nenhuma entrega com tentativas esgotadas.').waitFor();
  await eventually(async () => received.length === before + backlog, 15_000, 'every resent delivery');
  const { deliveries: stillGaveUp } = await stack.client.call(
    'webhooks',
    'listOutboundDeliveries',
    ListOutboundDeliveriesRequest.fromPartial({ state: DeliveryState.DELIVERY_STATE_GAVE_UP }),
  );
  expect(stillGaveUp.map((delivery: { transactionId: string }) => delivery.transactionId)).toEqual([elsewhere]);
  await expect(phone.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).resolves.toBeLessThanOrEqual(0);
  await pages.finish(phone.page, phone.violations, 'operations-390-bulk-filtered');
});
