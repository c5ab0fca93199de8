import { describe, expect, it } from '@jest/globals';
import { assertPublicUrl, isInternalAddress } from '../../../../server/lib/http/addressPolicy.js';

describe('internal addresses', () => {
  it.each([
    '127.0.0.1',
    '127.8.9.10',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.10',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '::1',
    '::',
    'fd00::1',
    'fe80::1',
    '::ffff:127.0.0.1',
    '::ffff:169.254.169.254',
    // IPv6 forms that carry an IPv4 address are checked as the address they carry.
    '::ffff:7f00:1',
    '::127.0.0.1',
    '::7f00:1',
    '::10.0.0.1',
    '::ffff:0:127.0.0.1',
    '2002:7f00:1::',
    '2002:a9fe:a9fe::1',
    '2002:c0a8:0101:0:0:0:0:1',
    '2001:0:4136:e378:8000:63bf:80ff:fffe',
    '64:ff9b:1::7f00:1',
  ])('%s is internal', (address) => expect(isInternalAddress(address)).toBe(true));

  it.each([
    '8.8.8.8',
    '172.32.0.1',
    '203.0.113.10',
    '2001:4860:4860::8888',
    '::ffff:8.8.8.8',
    '::ffff:808:808',
    '2002:808:808::1',
    '2001:0:4136:e378:8000:63bf:f7f7:f7f7',
  ])('%s is not', (address) => expect(isInternalAddress(address)).toBe(false));
});

describe('assertPublicUrl', () => {
  const deny = { allowInternal: false, setting: 'ALLOW_PRIVATE_PROVIDER_URLS' };
  const resolvingTo = (...addresses: string[]) => ({ ...deny, resolve: async () => addresses });
  const refused = (field: string) =>
    expect.objectContaining({
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining(`${field} must not point at a loopback`),
      details: expect.objectContaining({ field }),
    });

  it.each([
    'http://127.0.0.1:5432/',
    'http://[::1]:8080',
    'http://169.254.169.254/latest/meta-data',
    'https://10.0.0.5',
    'http://localhost:6379',
    'http://metadata.google.internal/',
    'http://[::127.0.0.1]/',
    'http://[2002:7f00:1::]/',
    'http://[::ffff:0:169.254.169.254]/',
  ])('refuses %s without resolving anything', async (url) => {
    await expect(assertPublicUrl('base_url', url, { ...deny, resolve: async () => ['8.8.8.8'] })).rejects.toEqual(refused('base_url'));
  });

  it('refuses a name that resolves to an IPv6 address carrying an internal IPv4 one (6to4, IPv4-compatible)', async () => {
    for (const address of ['2002:7f00:1::', '::127.0.0.1'])
      await expect(assertPublicUrl('base_url', 'https://api.provider.example/v1', resolvingTo(address))).rejects.toEqual(refused('base_url'));
  });

  it('refuses a name that resolves to an internal address, even one among public ones', async () => {
    await expect(assertPublicUrl('cert_cash_in_url', 'https://certs.example.com/a.pem', resolvingTo('8.8.8.8', '10.0.0.9'))).rejects.toEqual(
      refused('cert_cash_in_url'),
    );
  });

  it('refuses a name that does not resolve, without saying more', async () => {
    const failing = { ...deny, resolve: async () => Promise.reject(new Error('getaddrinfo ENOTFOUND')) };
    await expect(assertPublicUrl('base_url', 'https://nowhere.example', failing)).rejects.toMatchObject({
      message: 'base_url: its host name could not be resolved',
    });
  });

  it('takes public addresses and names; and anything when internal addresses are allowed', async () => {
    await expect(assertPublicUrl('base_url', 'https://203.0.113.10/v1', deny)).resolves.toBeUndefined();
    await expect(assertPublicUrl('base_url', 'https://api.provider.example/v1', resolvingTo('8.8.4.4'))).resolves.toBeUndefined();
    await expect(assertPublicUrl('base_url', 'http://127.0.0.1:5432', { allowInternal: true, setting: 'X' })).resolves.toBeUndefined();
    await expect(assertPublicUrl('base_url', undefined, deny)).resolves.toBeUndefined();
  });
});
