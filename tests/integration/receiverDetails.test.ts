import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CreateReceiverRequest, GetReceiverRequest, ListReceiversRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { CreateProviderAccountRequest } from '../../gen/ts-proto/gateway/v1/provider_account_service.js';
import { DocumentType, ReceiverStatus, WithdrawMethod } from '../../gen/ts-proto/gateway/v1/types.js';
import { connectDriver, failureOf, type Driver } from '../support/clients.js';
import { startTestStack, TEST_TOKEN, type TestStack } from '../support/gateway.js';
import { CreateUploadLinkRequest } from '../../gen/ts-proto/gateway/v1/upload_service.js';

/**
 * A receiver answers what CreateReceiver was given (bank account, address,
 * verification-document URLs…) as the gateway kept it: the back-office's
 * receiver page shows them, and providers do not read them back.
 */
let stack: TestStack;
let connect: Driver;
let accountId: string;

beforeAll(async () => {
  stack = await startTestStack();
  connect = connectDriver(stack.gateway.httpUrl!, TEST_TOKEN);
  const { providerAccount } = await stack.client.call(
    'accounts',
    'createProviderAccount',
    CreateProviderAccountRequest.fromPartial({ provider: 'SANDBOX', name: 'receivers', publicKey: 'pk', secretKey: 'sk' }),
  );
  accountId = providerAccount.id;
});
afterAll(async () => {
  connect?.close();
  await stack?.close();
});

const DETAILS = {
  description: 'Loja de bairro',
  userId: 'seller-42',
  bankAccount: { bankCode: '341', branchNumber: '1234', branchDigit: '5', accountNumber: '67890', accountDigit: '1', accountType: 'checking', pixCode: '' },
  address: { street: 'Rua das Flores', number: '100', district: 'Centro', city: 'São Paulo', state: 'SP', zipcode: '01001000' },
  monthlyRevenue: 5_000_000,
  documents: {
    documentPhotoUrl: 'https://files.example.com/uploads/1/rg.png',
    selfieWithDocumentUrl: 'https://files.example.com/uploads/2/selfie.jpg',
    addressProofUrl: 'https://files.example.com/uploads/3/conta de luz.pdf',
    balanceSheetUrl: 'https://files.example.com/uploads/4/balanco.pdf',
    socialContractUrl: 'https://files.example.com/uploads/5/contrato.pdf',
  },
};

describe.each([['gRPC'], ['Connect']])('over %s', (transport) => {
  const driver = () => (transport === 'gRPC' ? stack.client : connect);

  it('creates a receiver and answers its bank account, address, documents and the rest from creation, from GetReceiver and from ListReceivers', async () => {
    const { receiver } = await driver().call(
      'gateway',
      'createReceiver',
      CreateReceiverRequest.fromPartial({
        providerAccountId: accountId,
        receiver: { name: 'Loja Um', document: '11222333000181', documentType: DocumentType.DOCUMENT_TYPE_CNPJ, email: 'loja@example.com', ...DETAILS },
      }),
    );
    expect(receiver).toMatchObject({ name: 'Loja Um', document: '11222333000181', status: ReceiverStatus.RECEIVER_STATUS_ACTIVE, ...DETAILS });

    const read = await driver().call(
      'gateway',
      'getReceiver',
      GetReceiverRequest.fromPartial({ providerAccountId: accountId, receiverId: receiver.receiverId }),
    );
    expect(read.receiver).toMatchObject({ id: receiver.id, ...DETAILS });
    const { receivers } = await driver().call('gateway', 'listReceivers', ListReceiversRequest.fromPartial({ query: receiver.id }));
    expect(receivers).toEqual([expect.objectContaining({ id: receiver.id, ...DETAILS })]);
  });

  it('answers empty details for a receiver created with none', async () => {
    const { receiver } = await driver().call(
      'gateway',
      'createReceiver',
      CreateReceiverRequest.fromPartial({ providerAccountId: accountId, receiver: { name: 'Maria', document: '52998224725', email: 'maria@example.com' } }),
    );
    const read = await driver().call(
      'gateway',
      'getReceiver',
      GetReceiverRequest.fromPartial({ providerAccountId: accountId, receiverId: receiver.receiverId }),
    );
    expect(read.receiver).toMatchObject({ description: '', userId: '', monthlyRevenue: 0 });
    expect(read.receiver.bankAccount).toBeUndefined();
    expect(read.receiver.address).toBeUndefined();
  });

  it("carries the receiver's payment method (document 1 §3): asked at creation, reported by the provider, answered by Create, Get and List", async () => {
    const bankAccount = { ...DETAILS.bankAccount, pixCode: 'loja@example.com' };
    const { receiver } = await driver().call(
      'gateway',
      'createReceiver',
      CreateReceiverRequest.fromPartial({
        providerAccountId: accountId,
        receiver: { name: 'Loja Pix', document: '11222333000181', email: 'pix@example.com', bankAccount, paymentMethod: WithdrawMethod.WITHDRAW_METHOD_PIX },
      }),
    );
    expect(receiver.paymentMethod).toBe(WithdrawMethod.WITHDRAW_METHOD_PIX);
    const read = await driver().call(
      'gateway',
      'getReceiver',
      GetReceiverRequest.fromPartial({ providerAccountId: accountId, receiverId: receiver.receiverId }),
    );
    expect(read.receiver.paymentMethod).toBe(WithdrawMethod.WITHDRAW_METHOD_PIX);
    const { receivers } = await driver().call('gateway', 'listReceivers', ListReceiversRequest.fromPartial({ query: receiver.id }));
    expect(receivers.map((listed: { paymentMethod: number }) => listed.paymentMethod)).toEqual([WithdrawMethod.WITHDRAW_METHOD_PIX]);
    // Asked for nothing, the provider's own default is what it reports (the sandbox pays by bank transfer).
    const plain = await driver().call(
      'gateway',
      'createReceiver',
      CreateReceiverRequest.fromPartial({ providerAccountId: accountId, receiver: { name: 'Loja TED', document: '52998224725', email: 'ted@example.com' } }),
    );
    expect(plain.receiver.paymentMethod).toBe(WithdrawMethod.WITHDRAW_METHOD_BANK_ACCOUNT);
  });

  it('refuses a receiver paid "to a receiver", and the provider refuses PIX without a key to pay', async () => {
    const create = (extra: Record<string, unknown>) =>
      driver().call(
        'gateway',
        'createReceiver',
        CreateReceiverRequest.fromPartial({
          providerAccountId: accountId,
          receiver: { name: 'Loja', document: '52998224725', email: 'l@example.com', ...extra },
        }),
      );
    expect(await failureOf(create({ paymentMethod: WithdrawMethod.WITHDRAW_METHOD_RECEIVER }))).toEqual({
      code: 'INVALID_ARGUMENT',
      message: 'receiver.payment_method must be PIX or BANK_ACCOUNT (a receiver is not paid to a receiver)',
    });
    expect(await failureOf(create({ paymentMethod: WithdrawMethod.WITHDRAW_METHOD_PIX }))).toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining('bankAccount.pixCode is required'),
    });
  });
});

describe('documents on the gateway’s own store', () => {
  it('accepts a document URL of its own (embedded, loopback) store with private URLs refused, and still refuses any other loopback URL', async () => {
    const strict = await startTestStack({ env: { ALLOW_PRIVATE_PROVIDER_URLS: 'false' } });
    try {
      const { providerAccount } = await strict.client.call(
        'accounts',
        'createProviderAccount',
        CreateProviderAccountRequest.fromPartial({ provider: 'SANDBOX', name: 'strict', publicKey: 'pk', secretKey: 'sk' }),
      );
      const link = await strict.client.call(
        'upload',
        'createUploadLink',
        CreateUploadLinkRequest.fromPartial({ fileName: 'rg.png', contentType: 'image/png', sizeBytes: 4 }),
      );
      expect(new URL(link.publicUrl).hostname).toBe('127.0.0.1');
      const create = (documentPhotoUrl: string) =>
        strict.client.call(
          'gateway',
          'createReceiver',
          CreateReceiverRequest.fromPartial({
            providerAccountId: providerAccount.id,
            receiver: { name: 'Maria', document: '52998224725', email: 'maria@example.com', documents: { documentPhotoUrl } },
          }),
        );
      expect((await create(link.publicUrl)).receiver.documents?.documentPhotoUrl).toBe(link.publicUrl);
      const elsewhere = new URL(link.publicUrl);
      elsewhere.port = '1';
      await expect(create(elsewhere.toString())).rejects.toMatchObject({ code: 3, details: expect.stringContaining('receiver.documents.document_photo_url') });
    } finally {
      await strict.close();
    }
  });
});
