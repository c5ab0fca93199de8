import { describe, expect, it } from '@jest/globals';
import { isDatabaseUnreachable } from '../../../server/lib/errors.js';

/** pg's errors carry the server's SQLSTATE in `code`; the ORM wraps them with the original as `previous` or `cause`. */
const pgError = (code: string, message: string) => Object.assign(new Error(message), { code });

describe('isDatabaseUnreachable: failures a caller may retry as they are', () => {
  it('takes a write refused by a standby (25006, a demoted primary) as unreachable', () => {
    const refused = pgError('25006', 'cannot execute INSERT in a read-only transaction');
    expect(isDatabaseUnreachable(refused)).toBe(true);
    expect(isDatabaseUnreachable(Object.assign(new Error('insert failed'), { previous: refused }))).toBe(true);
  });

  it("takes a pooler's lost server (08P01) and a server shutting down (57P01) as unreachable", () => {
    expect(isDatabaseUnreachable(pgError('08P01', 'server conn crashed?'))).toBe(true);
    expect(isDatabaseUnreachable(pgError('57P01', 'terminating connection due to administrator command'))).toBe(true);
  });

  it('leaves errors in the statement itself to the caller: a unique violation, a serialization failure', () => {
    expect(isDatabaseUnreachable(pgError('23505', 'duplicate key value violates unique constraint'))).toBe(false);
    expect(isDatabaseUnreachable(pgError('25P02', 'current transaction is aborted'))).toBe(false);
  });
});
