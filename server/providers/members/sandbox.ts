import { SANDBOX_ID, SandboxAdapter } from '../sandbox/adapter.js';
import { providerFactory } from '../kit/registration.js';

/** SANDBOX: the gateway's own fake PSP, for demos and tests (not in the specification). */
export default providerFactory(
  { id: SANDBOX_ID },
  (settings) => new SandboxAdapter(settings.sandboxUrl, { ...settings.runtime, timeoutMs: settings.sandboxTimeoutMs ?? settings.runtime?.timeoutMs }),
);
