import { MERCADOPAGO, MercadoPagoAdapter } from '../mercadopago/adapter.js';
import { member } from '../kit/registration.js';

/** MERCADOPAGO (spec doc 2, group 1): a bespoke adapter, see server/providers/mercadopago/adapter.ts. */
export default member(MercadoPagoAdapter, MERCADOPAGO);
