import { describe, expect, it } from '@jest/globals';
import { openCallAudit, withCallAudit, type CallAudit } from '../../server/gateway/callAudit.js';

const who: CallAudit['who'] = { actorKind: 'token', actorId: 't1', actorName: 'checkout', action: 'x/CreateTransaction', source: '127.0.0.1' };
const fresh = (): CallAudit => ({ who, written: false, closed: false });

describe("a call's audit row, open to the write that completes the call", () => {
  it('is open inside the handler only', async () => {
    const audit = fresh();
    expect(openCallAudit()).toBeUndefined();
    await withCallAudit(audit, async () => {
      expect(openCallAudit()).toBe(audit);
    });
    expect(openCallAudit()).toBeUndefined();
  });

  it('is taken once: a written row is not open to a second write', async () => {
    const audit = fresh();
    await withCallAudit(audit, async () => {
      openCallAudit()!.written = true;
      expect(openCallAudit()).toBeUndefined();
    });
  });

  it('is closed once the handler settled, also for work the call left behind, and when it threw', async () => {
    const audit = fresh();
    let later: Promise<CallAudit | undefined> | undefined;
    await expect(
      withCallAudit(audit, async () => {
        later = new Promise((resolve) => setTimeout(() => resolve(openCallAudit()), 5));
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(audit.closed).toBe(true);
    await expect(later).resolves.toBeUndefined();
  });
});
