import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { CreateTransactionRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { CreateOperatorRequest } from '../../gen/ts-proto/gateway/v1/access_service.js';
import { CloseDisputeRequest, DisputeKind, DisputeStatus, ListDisputesRequest, OpenDisputeRequest } from '../../gen/ts-proto/gateway/v1/dispute_service.js';
import { PaymentMethod } from '../../gen/ts-proto/gateway/v1/types.js';
import { backOfficePages, chooseOption, followNavLink, launchBrowser, screenshot, signInAs } from '../support/browser.js';
import { startTestStack, type TestStack } from '../support/gateway.js';
import { SEEDED_CHARGES, SEEDING_TIMEOUT_MS } from '../support/seedCharges.js';
import { sandboxCardId } from '../support/sandboxCard.js';

/**
 * Issue 33 §3 in the back-office, at 1280 and 390 px: an admin opens a dispute from a charge's page, uploads evidence
 * to the embedded store, submits the defence (recorded: the sandbox takes none through an API) and finds the dispute in
 * the list, whose nearest deadline comes first and an overdue one is marked. A viewer reads disputes and changes none.
 * Axe- and CSP-clean; screenshots in test-results/.
 * It runs on a gateway seeded with 100,000 charges at accounts of their own (tests/support/seedCharges.ts).
 */
let browser: Browser;
let stack: TestStack;
let account: string;

const pages = backOfficePages(
  () => browser,
  () => stack.gateway,
);
const VIEWER = { email: 'leitora-disputas@example.com', password: 'uma senha longa de leitora' };
const PDF = Buffer.from('%PDF-1.4\n% comprovante de entrega\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const RECORDED = 'Defesa registrada; este provedor não recebe defesa pela API.';

beforeAll(async () => {
  stack = await startTestStack({ env: { WEBHOOK_WORKERS: '0' }, seededCharges: SEEDED_CHARGES });
  account = (await stack.client.call('accounts', 'createProviderAccount', { provider: 'SANDBOX', name: 'Loja', publicKey: 'pk', secretKey: 'sk-disputas' }))
    .providerAccount.id;
  await stack.client.call('access', 'createOperator', CreateOperatorRequest.fromPartial({ email: VIEWER.email, role: 'viewer', password: VIEWER.password }));
  browser = await launchBrowser();
}, SEEDING_TIMEOUT_MS);
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

/** A card charge the sandbox approved: its id. */
async function paidCardCharge(amount: number, providerAccountId = account): Promise<string> {
  const cardId = await sandboxCardId(stack.client, providerAccountId);
  const { transaction } = await stack.client.call(
    'gateway',
    'createTransaction',
    CreateTransactionRequest.fromPartial({
      providerAccountId,
      transaction: { amount, paymentMethod: PaymentMethod.PAYMENT_METHOD_CREDIT_CARD, cardId, customer: { name: 'Ana Souza', document: '39053344705' } },
    }),
  );
  return transaction.id;
}

/** A dispute whose deadline passes a moment from now: it is overdue when the list is read. */
async function overdueDispute(): Promise<string> {
  const charge = await paidCardCharge(1500);
  const { dispute } = await stack.client.call(
    'disputes',
    'openDispute',
    OpenDisputeRequest.fromPartial({
      transactionId: charge,
      kind: DisputeKind.DISPUTE_KIND_CHARGEBACK,
      reason: 'Fraude',
      deadline: new Date(Date.now() + 1000),
    }),
  );
  await new Promise((resolve) => setTimeout(resolve, 1100));
  return dispute.id;
}

async function uploadEvidence(page: Page, label: string) {
  const field = page.getByRole('group', { name: label, exact: true });
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), field.getByRole('button', { name: label, exact: true }).click()]);
  await chooser.setFiles({ name: 'comprovante de entrega.pdf', mimeType: 'application/pdf', buffer: PDF });
  await expect(field.getByRole('status').textContent()).resolves.toMatch(/^Upload realizado com sucesso!/);
}

it.each([[1280], [390]])('at %i px an admin opens a dispute from the charge, uploads evidence, submits the defence and finds it in the list', async (width) => {
  const overdue = await overdueDispute();
  const charge = await paidCardCharge(9900);
  const { page, violations } = await pages.signedIn(width, 900, `#/transactions/${charge}`);

  const form = page.getByRole('form', { name: 'Abrir disputa' });
  await form.getByRole('textbox', { name: /^Motivo/ }).fill('Portador não reconhece a compra');
  await form.getByRole('textbox', { name: /^Código do motivo/ }).fill('4837');
  await form.getByRole('textbox', { name: /^Valor em disputa/ }).fill('50,00');
  await form.getByRole('button', { name: 'Abrir disputa' }).click();

  await page.getByRole('heading', { name: 'Disputa', exact: true }).waitFor();
  await expect(page.getByTestId('amount').textContent()).resolves.toMatch(/R\$\s50,00/);
  await expect(page.getByTestId('dispute-status').textContent()).resolves.toBe('Aberta');
  await expect(page.getByTestId('charge-link').textContent()).resolves.toBe(charge);
  // Nothing to submit before there is evidence.
  await expect(page.getByRole('button', { name: 'Enviar defesa' }).isDisabled()).resolves.toBe(true);

  await uploadEvidence(page, 'Arquivo da evidência (PDF, JPEG ou PNG)');
  await page.getByRole('textbox', { name: 'Descrição' }).fill('Entrega assinada pelo portador');
  await page.getByRole('button', { name: 'Adicionar evidência' }).click();
  const evidence = page.getByTestId('evidence');
  await evidence.getByRole('link', { name: 'comprovante de entrega.pdf' }).waitFor();
  const href = (await evidence.getByRole('link', { name: 'comprovante de entrega.pdf' }).getAttribute('href'))!;
  expect(Buffer.from(await (await fetch(href)).arrayBuffer())).toEqual(PDF);

  await page.getByRole('button', { name: 'Enviar defesa' }).click();
  await expect(page.getByTestId('defense-result').textContent()).resolves.toBe(RECORDED);
  await page.getByTestId('dispute-status').getByText('Defesa enviada').waitFor();
  const disputeId = page.url().split('/disputes/')[1]!;
  await screenshot(page, `dispute-${width}`);

  await followNavLink(page, 'Disputas');
  const table = page.getByTestId('disputes-table');
  await table.locator(`tr[data-id="${disputeId}"]`).waitFor();
  const rows = await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [tr.getAttribute('data-id'), tr.hasAttribute('data-overdue')]));
  // Nearest deadline first: the overdue one above the one just opened (7 days away), and marked.
  const ids = rows.map(([id]) => id);
  expect(ids.indexOf(overdue)).toBeLessThan(ids.indexOf(disputeId));
  expect(rows.find(([id]) => id === overdue)![1]).toBe(true);
  expect(rows.find(([id]) => id === disputeId)![1]).toBe(false);
  await expect(table.locator(`tr[data-id="${overdue}"]`).getByText('Vencida').isVisible()).resolves.toBe(true);
  await screenshot(page, `disputes-list-${width}`);

  // The filter goes to the address, and the list follows it.
  await page.goto(`${stack.gateway.httpUrl}/#/disputes?status=2`);
  await table.locator(`tr[data-id="${disputeId}"]`).waitFor();
  await expect(table.locator(`tr[data-id="${overdue}"]`).count()).resolves.toBe(0);
  await pages.finish(page, violations, `disputes-${width}`);
});

it('a viewer reads disputes and finds nothing that changes them', async () => {
  const overdue = await overdueDispute();
  const { page, violations } = await pages.openPage(1280, 900);
  await signInAs(page, VIEWER.email, VIEWER.password);
  await page.getByText('(viewer)').waitFor();
  await followNavLink(page, 'Disputas');
  await page.getByTestId('disputes-table').locator(`tr[data-id="${overdue}"]`).getByRole('link').first().click();
  await page.getByText('Seu perfil só consulta disputas.').waitFor();
  await expect(page.getByRole('button', { name: 'Enviar defesa' }).count()).resolves.toBe(0);
  await expect(page.getByRole('form', { name: 'Encerrar disputa' }).count()).resolves.toBe(0);
  // Correcting is shown, disabled, with the reason.
  const edit = page.getByRole('button', { name: 'Editar' });
  await expect(edit.isDisabled()).resolves.toBe(true);
  await expect(edit.getAttribute('aria-describedby').then((id) => page.locator(`#${id}`).textContent())).resolves.toBe(
    'Corrigir uma disputa exige a permissão disputes:write.',
  );
  await pages.finish(page, violations, 'disputes-viewer');
});

it.each([[1280], [390]])(
  'at %i px the list comes a page at a time: "load more" adds the next disputes, none twice, the nearest deadline still first',
  async (width) => {
    const { providerAccount } = await stack.client.call('accounts', 'createProviderAccount', {
      provider: 'SANDBOX',
      name: `Loja paginada ${width}`,
      publicKey: 'pk',
      secretKey: `sk-disputas-paginas-${width}`,
    });
    const base = Date.now() + 10 * 24 * 60 * 60 * 1000;
    // 27: one page of 25 and two more; every third shares a deadline with the one before, so the id orders them.
    for (let index = 0; index < 27; index += 1) {
      await stack.client.call(
        'disputes',
        'openDispute',
        OpenDisputeRequest.fromPartial({
          transactionId: await paidCardCharge(1000 + index, providerAccount.id),
          kind: DisputeKind.DISPUTE_KIND_CHARGEBACK,
          reason: `Chargeback ${index}`,
          deadline: new Date(base + (index - (index % 3 === 2 ? 1 : 0)) * 60_000),
        }),
      );
    }
    const { page, violations } = await pages.signedIn(width, 900, `#/disputes?account=${providerAccount.id}`);
    const rows = page.getByTestId('disputes-table').locator('tbody tr');
    const more = page.getByRole('button', { name: 'Carregar mais' });
    await more.waitFor();
    await expect(rows.count()).resolves.toBe(25);
    await more.click();
    await rows.nth(26).waitFor();
    await expect(more.count()).resolves.toBe(0);
    const ids = await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-id')));
    expect(ids).toHaveLength(27);
    expect(new Set(ids).size).toBe(27);
    const { disputes } = await stack.client.call('disputes', 'listDisputes', ListDisputesRequest.fromPartial({ providerAccountId: providerAccount.id }));
    expect(ids).toEqual(disputes.map((dispute: { id: string }) => dispute.id));
    await pages.finish(page, violations, `disputes-pages-${width}`);
  },
);

it.each([[1280], [390]])(
  "at %i px an admin corrects a dispute with the provider's reason, deadline, amount and id, and the list follows the new deadline",
  async (width) => {
    const { providerAccount } = await stack.client.call('accounts', 'createProviderAccount', {
      provider: 'SANDBOX',
      name: `Loja corrigida ${width}`,
      publicKey: 'pk',
      secretKey: `sk-disputas-corrigidas-${width}`,
    });
    const open = async (amount: number, deadline?: Date) =>
      (
        await stack.client.call(
          'disputes',
          'openDispute',
          OpenDisputeRequest.fromPartial({
            transactionId: await paidCardCharge(amount, providerAccount.id),
            kind: DisputeKind.DISPUTE_KIND_CHARGEBACK,
            reason: 'chargeback reported by the provider',
            deadline,
          }),
        )
      ).dispute.id as string;
    // As the gateway opens one: the default 7 days; another due in 2 days comes first until the correction.
    const corrected = await open(8000);
    const other = await open(1000, new Date(Date.now() + 2 * 24 * 60 * 60 * 1000));
    const { page, violations } = await pages.signedIn(width, 900, `#/disputes/${corrected}`);

    await page.getByRole('button', { name: 'Editar' }).click();
    const form = page.getByRole('form', { name: 'Corrigir disputa' });
    await form.getByRole('textbox', { name: 'Motivo', exact: true }).fill('Fraude: cartão clonado');
    await form.getByRole('textbox', { name: /^Valor em disputa/ }).fill('60,00');
    const today = new Date();
    const day = `${String(today.getDate()).padStart(2, '0')}/${String(today.getMonth() + 1).padStart(2, '0')}/${today.getFullYear()}`;
    await form.getByRole('textbox', { name: 'Prazo' }).fill(day);
    await form.getByRole('textbox', { name: /^Id da disputa no provedor/ }).fill('CB-778899');
    // The note is required: the browser holds the form back without it.
    await form.getByRole('button', { name: 'Salvar correção' }).click();
    await expect(form.isVisible()).resolves.toBe(true);
    await form.getByRole('textbox', { name: /^Motivo da correção/ }).fill('Painel do adquirente, 29/11');
    await form.getByRole('button', { name: 'Salvar correção' }).click();

    await expect(page.getByTestId('correction-result').textContent()).resolves.toBe('Disputa corrigida.');
    await page.getByTestId('reason').getByText('Fraude: cartão clonado').waitFor();
    await expect(page.getByTestId('amount').textContent()).resolves.toMatch(/R\$\s60,00/);
    await expect(page.getByTestId('provider-dispute-id').textContent()).resolves.toBe('CB-778899');
    await screenshot(page, `dispute-corrected-${width}`);

    await page.goto(`${stack.gateway.httpUrl}/#/disputes?account=${providerAccount.id}`);
    const rows = page.getByTestId('disputes-table').locator('tbody tr');
    await rows.nth(1).waitFor();
    await expect(rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-id')))).resolves.toEqual([corrected, other]);
    await pages.finish(page, violations, `disputes-corrected-${width}`);
  },
);

it.each([[1280], [390]])('at %i px an admin closes a dispute as lost: the outcome and its note show, and nothing changes it any more', async (width) => {
  const { dispute } = await stack.client.call(
    'disputes',
    'openDispute',
    OpenDisputeRequest.fromPartial({ transactionId: await paidCardCharge(2500), kind: DisputeKind.DISPUTE_KIND_CHARGEBACK, reason: 'Não reconhece a compra' }),
  );
  const { page, violations } = await pages.signedIn(width, 900, `#/disputes/${dispute.id}`);
  await expect(page.getByTestId('dispute-status').textContent()).resolves.toBe('Aberta');

  const form = page.getByRole('form', { name: 'Encerrar disputa' });
  // No outcome, no closing.
  await expect(form.getByRole('button', { name: 'Encerrar' }).isDisabled()).resolves.toBe(true);
  await chooseOption(page, form.getByRole('combobox', { name: /^Desfecho/ }), 'Perdida');
  await form.getByRole('textbox', { name: 'Nota do desfecho' }).fill('Adquirente manteve o chargeback');
  await form.getByRole('button', { name: 'Encerrar' }).click();

  await page.getByTestId('dispute-status').getByText('Perdida', { exact: true }).waitFor();
  await expect(page.getByTestId('outcome-note').textContent()).resolves.toBe('Adquirente manteve o chargeback');
  await page.getByText('Disputa encerrada: não recebe mais evidências nem alterações.').waitFor();
  // Every control that changes a dispute is gone: correcting, evidence, defence, closing.
  for (const name of ['Editar', 'Adicionar evidência', 'Enviar defesa', 'Encerrar']) {
    await expect(page.getByRole('button', { name, exact: true }).count()).resolves.toBe(0);
  }
  await expect(page.getByRole('form', { name: 'Encerrar disputa' }).count()).resolves.toBe(0);
  // And the gateway refuses to close it again (FAILED_PRECONDITION), so the page is not merely hiding the form.
  await expect(
    stack.client.call('disputes', 'closeDispute', CloseDisputeRequest.fromPartial({ disputeId: dispute.id, outcome: DisputeStatus.DISPUTE_STATUS_WON })),
  ).rejects.toMatchObject({ code: 9 });
  await expect(
    stack.client.call('disputes', 'getDispute', { id: dispute.id }).then((answer) => [answer.dispute.status, answer.dispute.outcomeNote]),
  ).resolves.toEqual([DisputeStatus.DISPUTE_STATUS_LOST, 'Adquirente manteve o chargeback']);
  await pages.finish(page, violations, `dispute-closed-${width}`);
});
