import { describe, expect, it } from '@jest/globals';
import { GatewayError, NOT_IMPLEMENTED_MESSAGE, notImplemented } from '../../../server/lib/errors.js';
import {
  CATALOGUE,
  FAILURE_PREFIXES,
  UPLOAD_MESSAGES,
  braviveApiErrorMessage,
  catalogueError,
  failureMessage,
  paymentMethodNotImplementedFor,
  paymentMethodNotSupportedBy,
  providerFailure,
  rapdynWithdrawErrorMessage,
  royaltyErrorMessage,
  withPrefix,
} from '../../../server/lib/providerMessages.js';

describe('error catalogue', () => {
  it.each([
    ['NOT_IMPLEMENTED', 'Method not implemented.', 'UNIMPLEMENTED'],
    ['NOT_IMPLEMENTED_YET', 'Not implemented yet.', 'UNIMPLEMENTED'],
    ['INVALID_PAYMENT_METHOD', 'Invalid payment method', 'INVALID_ARGUMENT'],
    ['PAYMENT_METHOD_INVALID_VALUES', 'paymentMethod is invalid. Possible values: credit_card, boleto, pix', 'INVALID_ARGUMENT'],
    ['UNSUPPORTED_PAYMENT_METHOD', 'Unsupported payment method', 'UNIMPLEMENTED'],
    ['PAYMENT_METHOD_NOT_SUPPORTED', 'Payment method not supported', 'UNIMPLEMENTED'],
    ['METODO_PAGAMENTO_NAO_SUPORTADO', 'Método de pagamento não suportado', 'UNIMPLEMENTED'],
    ['METODO_PAGAMENTO_NAO_RECONHECIDO', 'Método de pagamento não reconhecido', 'UNIMPLEMENTED'],
    ['PAYMENT_METHOD_NAO_SUPORTADO', 'paymentMethod não suportado.', 'UNIMPLEMENTED'],
    ['BOLETO_NOT_IMPLEMENTED', 'Boleto not implemented', 'UNIMPLEMENTED'],
    ['CREDIT_CARD_NOT_IMPLEMENTED', 'Credit card not implemented', 'UNIMPLEMENTED'],
    ['WITHDRAW_METHOD_NAO_IMPLEMENTADO', 'Método de saque não implementado', 'UNIMPLEMENTED'],
    ['SAVE_CARD_FAILED', 'Erro salvando cartão', 'INVALID_ARGUMENT'],
    ['UNAUTHORIZED', 'Unauthorized.', 'FAILED_PRECONDITION'],
    ['RECEIVER_NOT_FOUND', 'Receiver not found.', 'NOT_FOUND'],
    ['RECEBEDOR_NAO_ENCONTRADO', 'Recebedor não encontrado.', 'NOT_FOUND'],
    ['REFUND_APPROVAL_FAILED', 'Erro ao aprovar o reembolso.', 'INVALID_ARGUMENT'],
    ['INTERNAL_SERVER_ERROR', 'Internal server error', 'UNAVAILABLE'],
    ['ERROR_ON_UPLOAD_PDF', 'Error on upload pdf', 'UNAVAILABLE'],
    ['ERROR_ON_WITHDRAW', 'Error on withdraw', 'FAILED_PRECONDITION'],
    ['CARD_ID_REQUIRED', 'cardId is required for credit card transactions', 'INVALID_ARGUMENT'],
    ['CARD_TOKEN_REQUIRED', 'Card token is required for credit card payments.', 'INVALID_ARGUMENT'],
    ['ADQUIRENTE_NAO_ACEITA_CPF', 'Adquirente não aceita CPF', 'INVALID_ARGUMENT'],
    ['BANCO_NAO_SUPORTADO', 'Banco não suportado, tente outro.', 'INVALID_ARGUMENT'],
    ['LYNXPAY_INVALID_CVV', 'card.cvv é inválido. Precisa ter entre 3 e 4 caracteres.', 'INVALID_ARGUMENT'],
    ['OWEMPAY_CREDENTIALS_FORMAT', 'Formato de credenciais inválido. Use: apiKey|secret|accountId', 'FAILED_PRECONDITION'],
    ['PODPAY2_BASIC_AUTH_KEYS_REQUIRED', 'PodPay requer tanto publicKey quanto secretKey para autenticação Basic.', 'FAILED_PRECONDITION'],
    ['VELTRAX_NO_CREDIT_CARD', 'Veltrax não suporta cartão de crédito. Apenas PIX.', 'UNIMPLEMENTED'],
    ['LEXXEN_WITHDRAW_FAILED', 'Failed to process the withdraw request.', 'FAILED_PRECONDITION'],
    ['TRANSACAO_NAO_ENCONTRADA', 'Transação não encontrada', 'NOT_FOUND'],
  ] as const)('%s is %j (%s)', (key, message, code) => {
    expect(CATALOGUE[key]).toEqual({ message, code });
    const error = catalogueError(key);
    expect(error).toBeInstanceOf(GatewayError);
    expect(error.message).toBe(message);
    expect(error.code).toBe(code);
    expect(error.details.reason).toBe(key);
  });

  it("shares 'Method not implemented.' with errors.ts", () => {
    expect(CATALOGUE.NOT_IMPLEMENTED.message).toBe(NOT_IMPLEMENTED_MESSAGE);
    expect(catalogueError('NOT_IMPLEMENTED').code).toBe(notImplemented().code);
  });

  it('carries the field at fault and lets the adapter override the code', () => {
    const error = catalogueError('LYNXPAY_INVALID_CVV', { field: 'card.cvv' });
    expect(error.details).toEqual({ reason: 'LYNXPAY_INVALID_CVV', field: 'card.cvv' });
    expect(catalogueError('INTERNAL_SERVER_ERROR', { code: 'FAILED_PRECONDITION' }).code).toBe('FAILED_PRECONDITION');
  });
});

describe('prefixed provider failures', () => {
  it.each([
    ['CREATE_CARD_TOKEN', 'Erro ao criar token do cartão: Cartão recusado'],
    ['CREATE_TRANSACTION', 'Erro ao criar transação: Cartão recusado'],
    ['GET_TRANSACTION', 'Erro ao buscar transação: Cartão recusado'],
    ['REFUND_TRANSACTION', 'Erro ao estornar transação: Cartão recusado'],
    ['WITHDRAW', 'Erro ao realizar saque: Cartão recusado'],
    ['GET_WITHDRAW', 'Erro ao buscar saque: Cartão recusado'],
    ['CREATE_RECEIVER', 'Erro ao criar recebedor: Cartão recusado'],
    ['GET_RECEIVER', 'Erro ao buscar recebedor: Cartão recusado'],
    ['LORDSPAY', 'Erro na LordsPay: Cartão recusado'],
    ['WITHDRAW_FOURTH_GROUP', 'Erro no saque: Cartão recusado'],
    ['CREATE_PIX_TRANSACTION_FOURTH_GROUP', 'Erro na criação da transação PIX: Cartão recusado'],
    ['REFUND_FOURTH_GROUP', 'Erro no estorno: Cartão recusado'],
  ] as const)('%s reads %j', (key, text) => {
    expect(failureMessage[key]('Cartão recusado')).toBe(text);
  });

  it('is the bare prefix when there is no provider message (VENIT)', () => {
    expect(failureMessage.CREATE_TRANSACTION()).toBe('Erro ao criar transação');
    expect(withPrefix('Erro ao criar transação', '')).toBe('Erro ao criar transação');
  });

  it('builds a GatewayError that keeps the provider message under the prefix', () => {
    const error = providerFailure(FAILURE_PREFIXES.WITHDRAW, 'Saldo insuficiente', 'FAILED_PRECONDITION');
    expect(error).toBeInstanceOf(GatewayError);
    expect(error.message).toBe('Erro ao realizar saque: Saldo insuficiente');
    expect(error.code).toBe('FAILED_PRECONDITION');
    expect(error.details.reason).toBe('PROVIDER_FAILURE');
    expect(providerFailure(FAILURE_PREFIXES.GET_TRANSACTION, 'timeout', 'UNAVAILABLE').code).toBe('UNAVAILABLE');
  });
});

describe('provider-specific message functions', () => {
  it("wraps ROYALTY errors as 'Royalty <operation> erro <status>: <body>'", () => {
    expect(royaltyErrorMessage('createTransaction', 422, '{"message":"invalid"}')).toBe('Royalty createTransaction erro 422: {"message":"invalid"}');
    expect(royaltyErrorMessage('withdraw', 500, { message: 'down' })).toBe('Royalty withdraw erro 500: {"message":"down"}');
  });

  it('quotes a provider without the card number or the CVV it echoed', () => {
    const refusal = { message: 'Cartão 4111 1111 1111 1111 recusado: CVV 9731 inválido' };
    const shown = '{"message":"Cartão [redacted] recusado: CVV [redacted] inválido"}';
    expect(royaltyErrorMessage('createTransaction', 402, refusal)).toBe(`Royalty createTransaction erro 402: ${shown}`);
    expect(rapdynWithdrawErrorMessage(refusal)).toBe(`Houve um erro ao tentar realizar o saque: ${shown}`);
    expect(braviveApiErrorMessage(refusal.message, 'Withdraw')).toBe('Bravive API Error (Withdraw): Cartão [redacted] recusado: CVV [redacted] inválido');
    expect(providerFailure(FAILURE_PREFIXES.CREATE_TRANSACTION, refusal.message, 'INVALID_ARGUMENT').message).toBe(
      `${FAILURE_PREFIXES.CREATE_TRANSACTION}: Cartão [redacted] recusado: CVV [redacted] inválido`,
    );
  });

  it('names the provider or method in the unsupported-method texts', () => {
    expect(paymentMethodNotSupportedBy('GATYWAY')).toBe('Payment method not supported by GATYWAY');
    expect(paymentMethodNotImplementedFor('BILLET', 'FastSoft')).toBe('Payment method BILLET not implemented for FastSoft');
    expect(paymentMethodNotImplementedFor('BILLET', 'ByNet')).toBe('Payment method BILLET not implemented for ByNet');
  });

  it('formats Bravive and Rapdyn failures', () => {
    expect(braviveApiErrorMessage('Saldo insuficiente', 'Withdraw')).toBe('Bravive API Error (Withdraw): Saldo insuficiente');
    expect(braviveApiErrorMessage('not found', 'Get Withdraw')).toBe('Bravive API Error (Get Withdraw): not found');
    expect(braviveApiErrorMessage('bad')).toBe('Bravive API Error: bad');
    expect(rapdynWithdrawErrorMessage({ error: 'chave inválida' })).toBe('Houve um erro ao tentar realizar o saque: {"error":"chave inválida"}');
    expect(rapdynWithdrawErrorMessage(undefined)).toBe('Houve um erro ao tentar realizar o saque');
  });

  it('keeps the browser upload texts verbatim', () => {
    expect(UPLOAD_MESSAGES.SUCCESS).toBe('Upload realizado com sucesso!');
    expect(UPLOAD_MESSAGES.FAILURE).toBe('Houve um erro ao tentar realizar o upload, contate o suporte');
  });
});
