import { describe, expect, it } from '@jest/globals';
import * as pb from '../../../gen/ts-proto/gateway/v1/types.js';
import type * as domain from '../../../server/domain/types.js';
import { pixQrImage } from '../../../server/lib/pixQrCode.js';
import {
  fromProtoCard,
  fromProtoTransactionInput,
  fromProtoWithdrawInput,
  toProtoTransaction,
  toProtoWithdrawal,
} from '../../../server/transport/protoMapper.js';

const AT = new Date('2026-11-29T01:00:00Z');
const CODE = '00020101021226580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-42665544000052040000530398654041.005802BR5901N6001C62070503***6304ABCD';

const charge = (overrides: Partial<domain.Transaction> = {}): domain.Transaction =>
  ({
    id: 't1',
    provider: 'SANDBOX',
    providerAccountId: 'a1',
    transactionId: 'ch_1',
    paymentMethod: 'PIX',
    status: 'REJECTED',
    amount: 1990,
    installments: 1,
    currency: 'BRL',
    pixCode: CODE,
    origin: 'api',
    refundedAmount: 0,
    createdAt: AT,
    updatedAt: AT,
    statusHistory: [{ status: 'PENDING', source: 'api', changedAt: AT }],
    ...overrides,
  }) as domain.Transaction;

describe("the transports' mapping of a charge", () => {
  it("draws a PIX charge's QR image from its code unless the caller asked for none, and answers a stored one as it is", () => {
    expect(toProtoTransaction(charge()).pixQrCode).toBe(pixQrImage(CODE));
    expect(toProtoTransaction(charge(), { pixQrImage: false }).pixQrCode).toBe('');
    expect(toProtoTransaction(charge({ pixQrCode: 'data:image/png;base64,b2xk' })).pixQrCode).toBe('data:image/png;base64,b2xk');
    expect(toProtoTransaction(charge({ paymentMethod: 'BILLET', pixCode: undefined })).pixQrCode).toBe('');
  });

  it('answers the customer, the card facts, the decline with its category, the refunds and the route', () => {
    const answered = toProtoTransaction(
      charge({
        customer: { name: 'Maria Silva', email: 'maria@example.com', document: '52998224725' },
        description: 'Pedido 7',
        cardBrand: 'visa',
        cardLast4: '1111',
        declineReason: 'insufficient funds',
        refunds: [
          { id: 'r1', amount: 500, status: 'SUCCEEDED', createdAt: AT, updatedAt: AT, requestedBy: { kind: 'operator', id: 'o1', name: 'ana@example.com' } },
        ],
        routing: { routeId: 'rt1', routeName: 'main', ruleIndex: 0, strategy: 'priority', attempts: [] },
      } as unknown as Partial<domain.Transaction>),
    );
    expect(answered).toMatchObject({
      status: pb.TransactionStatus.TRANSACTION_STATUS_REJECTED,
      customer: { name: 'Maria Silva', email: 'maria@example.com', document: '52998224725', phone: '' },
      description: 'Pedido 7',
      cardBrand: 'visa',
      cardLast4: '1111',
      declineReason: 'insufficient funds',
      refunds: [{ id: 'r1', amount: 500, status: 'SUCCEEDED', providerRefundId: '', requestedBy: 'ana@example.com' }],
      routing: { routeId: 'rt1', routeName: 'main', strategy: 'priority' },
      statusHistory: [{ status: pb.TransactionStatus.TRANSACTION_STATUS_PENDING, source: pb.StatusSource.STATUS_SOURCE_API }],
    });
    expect(answered.declineCategory).not.toBe('');
  });

  it("answers a PIX payment's end-to-end id, and its payer only where one of the payer's facts is known", () => {
    expect(toProtoTransaction(charge())).toMatchObject({ pixEndToEndId: '', pixPayer: undefined });
    expect(toProtoTransaction(charge({ pixPayment: { endToEndId: 'E1234567820261129' } }))).toMatchObject({
      pixEndToEndId: 'E1234567820261129',
      pixPayer: undefined,
    });
    expect(toProtoTransaction(charge({ pixPayment: { payerName: 'Maria', payerBankIspb: '18236120' } }))).toMatchObject({
      pixEndToEndId: '',
      pixPayer: { name: 'Maria', document: '', bankIspb: '18236120', bankName: '' },
    });
    expect(toProtoTransaction(charge({ pixPayment: { payerDocument: '***.456.789-**', payerBankName: 'Banco' } })).pixPayer).toEqual({
      name: '',
      document: '***.456.789-**',
      bankIspb: '',
      bankName: 'Banco',
    });
  });

  it('answers a customer whose facts are partly unknown, and refunds without a requester', () => {
    const answered = toProtoTransaction(
      charge({
        customer: { name: 'Maria Silva' },
        refunds: [{ id: 'r2', amount: 100, status: 'FAILED', providerRefundId: 're_9', createdAt: AT, updatedAt: AT }],
      } as unknown as Partial<domain.Transaction>),
    );
    expect(answered.customer).toEqual({ name: 'Maria Silva', email: '', document: '', phone: '' });
    expect(answered.refunds).toMatchObject([{ id: 'r2', providerRefundId: 're_9', requestedBy: '' }]);
    expect(toProtoTransaction(charge({ customer: { email: 'a@example.com', document: '1' } } as Partial<domain.Transaction>)).customer).toEqual({
      name: '',
      email: 'a@example.com',
      document: '1',
      phone: '',
    });
  });

  it('maps a payout asked for by no one, to a bank account named by the provider', () => {
    const answered = toProtoWithdrawal({
      id: 'w2',
      provider: 'IUGU',
      providerAccountId: 'a1',
      withdrawId: 'wr_1',
      paymentMethod: 'BANK_ACCOUNT',
      status: 'PENDING',
      amount: 500,
      createdAt: AT,
      updatedAt: AT,
      statusHistory: [],
      request: { paymentMethod: 'BANK_ACCOUNT', amount: 500 },
    } as unknown as domain.Withdrawal);
    expect(answered).toMatchObject({
      paymentMethod: pb.WithdrawMethod.WITHDRAW_METHOD_BANK_ACCOUNT,
      request: { pixKey: '', pixType: pb.PixKeyType.PIX_KEY_TYPE_UNSPECIFIED, name: '' },
      requestedBy: '',
      requestedById: '',
      review: undefined,
    });
  });

  it('maps a payout with its request, requester and review', () => {
    const answered = toProtoWithdrawal({
      id: 'w1',
      provider: 'SANDBOX',
      providerAccountId: 'a1',
      withdrawId: 'wd_1',
      paymentMethod: 'PIX',
      status: 'APPROVED',
      amount: 1000,
      createdAt: AT,
      updatedAt: AT,
      statusHistory: [],
      request: { paymentMethod: 'PIX', amount: 1000, pixKey: 'maria@example.com', pixType: 'EMAIL', name: 'Maria' },
      requestedBy: { kind: 'operator', id: 'o1', name: 'ana@example.com' },
      review: { outcome: 'APPROVED', by: { kind: 'operator', id: 'o2', name: 'bia@example.com' }, at: AT },
    } as unknown as domain.Withdrawal);
    expect(answered).toMatchObject({
      status: pb.WithdrawStatus.WITHDRAW_STATUS_APPROVED,
      request: { pixKey: 'maria@example.com', pixType: pb.PixKeyType.PIX_KEY_TYPE_EMAIL, name: 'Maria' },
      requestedBy: 'ana@example.com',
      review: { reviewedBy: 'bia@example.com', reviewedById: 'o2' },
      refusalReason: '',
    });
  });

  it('reads a request: empty texts are absent, enums become the domain words', () => {
    const input = fromProtoTransactionInput(
      pb.TransactionInput.fromPartial({
        amount: 1990,
        paymentMethod: pb.PaymentMethod.PAYMENT_METHOD_CREDIT_CARD,
        orderId: '',
        cardId: 'card_1',
        installments: 3,
      }),
    );
    expect(input).toMatchObject({ amount: 1990, paymentMethod: 'CREDIT_CARD', cardId: 'card_1', installments: 3, orderId: undefined });
    expect(fromProtoTransactionInput(undefined)).toMatchObject({ amount: 0, installments: undefined, items: [] });
    expect(fromProtoWithdrawInput(pb.WithdrawInput.fromPartial({ amount: 100, pixKey: 'k', pixType: pb.PixKeyType.PIX_KEY_TYPE_RANDOM }))).toMatchObject({
      amount: 100,
      pixKey: 'k',
      pixType: 'RANDOM',
    });
    expect(fromProtoCard(undefined)).toBeUndefined();
    expect(fromProtoCard(pb.CardInput.fromPartial({ cardNumber: '4111111111111111', cvv: '123' }))).toMatchObject({
      cardNumber: '4111111111111111',
      cvv: '123',
    });
  });
});
