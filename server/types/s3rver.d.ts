// The maintained fork keeps s3rver's API (options, run, close) and ships no types of its own.
declare module '@20minutes/s3rver' {
  import S3rver from 's3rver';
  export default S3rver;
}

// s3rver's account registry: the key pairs it checks signatures against (module-wide), on its one built-in account.
declare module '@20minutes/s3rver/lib/models/account.js' {
  const accounts: {
    DUMMY_ACCOUNT: { createKeyPair(accessKeyId: string, secretAccessKey: string): void; revokeAccessKey(accessKeyId: string): void };
  };
  export default accounts;
}
