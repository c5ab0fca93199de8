import { SandboxAdapter } from '../sandbox/adapter.js';
import type { ProviderFactory } from '../kit/registration.js';

/** SANDBOX: the gateway's own fake PSP, for demos and tests (not in the specification). */
const sandbox: ProviderFactory = (settings) =>
  new SandboxAdapter(settings.sandboxUrl, { ...settings.runtime, timeoutMs: settings.sandboxTimeoutMs ?? settings.runtime?.timeoutMs });
export default sandbox;
