import { ASAAS, AsaasAdapter } from '../asaas/adapter.js';
import { member } from '../kit/registration.js';

/** ASAAS (spec doc 2, group 1): a bespoke adapter, see server/providers/asaas/adapter.ts. */
export default member(AsaasAdapter, ASAAS);
