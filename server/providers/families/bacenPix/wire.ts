/**
 * The shapes of the BACEN API Pix (cob, Pix received, devolução) and of the
 * payment-initiation API these PSPs share (/pix/payments/dict), and the
 * members' own notification envelope.
 */

/** Bacen API Pix: devedor is {cpf, nome} or {cnpj, nome}. */
export type CobDebtor = { cpf: string; nome: string } | { cnpj: string; nome: string };

/** Body of POST /cob (Bacen API Pix, CobSolicitada). */
export interface CobRequest {
  calendario: { expiracao: number };
  devedor?: CobDebtor;
  valor: { original: string };
  chave?: string;
  solicitacaoPagador?: string;
}

export type DevolucaoStatus = 'EM_PROCESSAMENTO' | 'DEVOLVIDO' | 'NAO_REALIZADO';

export interface Devolucao {
  id?: string;
  rtrId?: string;
  valor?: string;
  status?: DevolucaoStatus | string;
}

/** A Pix received (the cob's `pix` list and the standard webhook's entries). */
export interface PixReceived {
  endToEndId?: string;
  txid?: string;
  valor?: string;
  horario?: string;
  chave?: string;
  infoPagador?: string;
  devolucoes?: Devolucao[];
}

export type CobStatus = 'ATIVA' | 'CONCLUIDA' | 'REMOVIDA_PELO_USUARIO_RECEBEDOR' | 'REMOVIDA_PELO_PSP';

/** Answer of POST /cob and GET /cob/{txid} (CobGerada / CobCompleta). VOLUTI also answers LIQUIDATED. */
export interface Cob {
  txid?: string;
  revisao?: number;
  status?: CobStatus | 'LIQUIDATED' | string;
  calendario?: { criacao?: string; expiracao?: number | string };
  location?: string;
  devedor?: CobDebtor;
  valor?: { original?: string };
  chave?: string;
  solicitacaoPagador?: string;
  pixCopiaECola?: string;
  pix?: PixReceived[];
}

/** Body of POST /pix/payments/dict: a payout to a PIX key (amount in reais, a JSON number). */
export interface DictPaymentRequest {
  pixKey: string;
  description?: string;
  creditorDocument?: string;
  paymentFlow: 'INSTANT';
  payment: { currency: 'BRL'; amount: number };
}

/** Answer of POST /pix/payments/dict and GET /pix/payments/{id}. */
export interface DictPayment {
  id?: number | string;
  endToEndId?: string;
  status?: string;
  eventDate?: string;
  payment?: { currency?: string; amount?: number | string };
}

/** The members' own notification: {type, data}. */
export interface PixEvent {
  type?: string;
  data?: {
    id?: number | string;
    txId?: string;
    txid?: string;
    endToEndId?: string;
    status?: string;
    idempotencyKey?: string | null;
  };
}
