import { PixKeyType, WithdrawMethod, type Withdrawal } from '../../gen/es/gateway/v1/types_pb.js';
import type { PixKeyType as PixKeyTypeName } from '../../shared/pixKeyRules.js';
import type { Messages } from './i18n.js';

/**
 * Where a payout's money goes, as its request named it: the PIX key (and its type), the bank account, the receiver,
 * or, for a bank-account payout that names none, the account registered at the provider.
 */
export function payoutDestination(payout: Withdrawal, t: Messages): string {
  const request = payout.request;
  if (!request) return '';
  if (request.pixKey) {
    const type = PixKeyType[request.pixType] as PixKeyTypeName | 'UNSPECIFIED';
    return type === 'UNSPECIFIED' ? request.pixKey : `${request.pixKey} (${t.pixKeyType[type]})`;
  }
  const bank = request.bankAccount;
  if (bank) return t.payout.bankAccount(bank.bankCode, bank.branchNumber, bank.accountNumber);
  if (request.receiverId) return t.payout.toReceiver(request.receiverId);
  return request.paymentMethod === WithdrawMethod.BANK_ACCOUNT ? t.payout.registeredBankAccount(payout.provider) : '';
}
