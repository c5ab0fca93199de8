// The maintained fork keeps s3rver's API (options, run, close) and ships no types of its own.
declare module '@20minutes/s3rver' {
  import S3rver from 's3rver';
  export default S3rver;
}
