// The demo checkout page's script: what a merchant writes around @payment-gateway/checkout. The card fields are read
// by the module and sent to the gateway; only the card token goes to the merchant server (CHECKOUT_DEMO_MERCHANT_URL).
import { createCheckout, readCardFields } from '/checkout/checkout.js';

const params = new URLSearchParams(location.search);
const form = document.querySelector('#checkout');
const key = document.querySelector('#publishable-key');
const account = document.querySelector('#provider-account');
const result = document.querySelector('#result');
const merchantUrl = document.querySelector('meta[name="merchant-url"]').content;
key.value = params.get('key') ?? '';
account.value = params.get('account') ?? '';

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  result.textContent = 'Processando…';
  try {
    const checkout = createCheckout({ gatewayUrl: location.origin, publishableKey: key.value.trim(), providerAccountId: account.value.trim() });
    const cardToken = await checkout.tokenize(readCardFields(form));
    const answer = await fetch(merchantUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ cardToken }) });
    const body = await answer.json();
    result.textContent = answer.ok ? `Pagamento ${body.status}` : `Erro: ${body.message}`;
  } catch (error) {
    result.textContent = `Erro: ${error.message}`;
  }
});
