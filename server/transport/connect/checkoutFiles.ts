import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { REVALIDATE, sendFile, type StaticFile } from './staticFiles.js';
import { securityHeaders } from './webSecurity.js';

/** Where the browser tokenizer is served: any page may import it, the checkout pages of merchants being elsewhere. */
export const CHECKOUT_MODULE_PATH = '/checkout/checkout.js';
/** The demo checkout page (checkout/demo/), on SANDBOX. */
export const CHECKOUT_DEMO_PATH = '/checkout-demo/';

/**
 * The browser tokenizer (checkout/src/checkout.ts) as browsers load it: one ES module, minified. esbuild is already
 * the gateway's build tool; bundling here rather than in a build step keeps `npm start` and the tests on the source
 * as it is. Also what the size test measures.
 */
export async function bundleCheckout(checkoutDir: string): Promise<Buffer> {
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [join(checkoutDir, 'src/checkout.ts')],
    bundle: true,
    minify: true,
    format: 'esm',
    target: 'es2020',
    write: false,
    logLevel: 'silent',
  });
  return Buffer.from(result.outputFiles[0]!.contents);
}

const fileOf = (content: Buffer, contentType: string): StaticFile => ({
  contentType,
  cacheControl: REVALIDATE,
  variants: [{ encoding: 'identity', body: content, etag: `"${createHash('sha256').update(content).digest('base64url').slice(0, 27)}"` }],
});

export interface CheckoutFilesOptions {
  /** The repository's checkout/ folder. */
  checkoutDir: string;
  /** The demo's merchant server (CHECKOUT_DEMO_MERCHANT_URL): the demo page sends it the card token. */
  demoMerchantUrl: string;
}

/**
 * The tokenizer module and the demo checkout page. The module is answered with CORS for any origin (a module script
 * from another origin needs it; it is public code). The demo page may call the gateway and its merchant server only.
 */
export class CheckoutFiles {
  private module?: Promise<StaticFile>;
  private readonly demo = new Map<string, Promise<StaticFile>>();

  constructor(private readonly options: CheckoutFilesOptions) {}

  /** Answers the request when it is for one of these files (true). */
  handle(path: string, req: IncomingMessage, res: ServerResponse): boolean {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const file = this.fileFor(path, res);
    if (!file) return false;
    file.then(
      (found) => sendFile(found, req, res),
      () => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
        res.end('could not build the checkout files');
      },
    );
    return true;
  }

  private fileFor(path: string, res: ServerResponse): Promise<StaticFile> | undefined {
    if (path === CHECKOUT_MODULE_PATH) {
      res.setHeader('access-control-allow-origin', '*');
      res.setHeader('cross-origin-resource-policy', 'cross-origin');
      this.module ??= bundleCheckout(this.options.checkoutDir).then((content) => fileOf(content, 'text/javascript; charset=utf-8'));
      // A failed build is tried again on the next request.
      this.module.catch(() => (this.module = undefined));
      return this.module;
    }
    const name = path === CHECKOUT_DEMO_PATH ? 'index.html' : path === `${CHECKOUT_DEMO_PATH}demo.js` ? 'demo.js' : undefined;
    if (!name) return undefined;
    const merchant = new URL(this.options.demoMerchantUrl).origin;
    const csp = securityHeaders()['content-security-policy']!.replace("connect-src 'self'", `connect-src 'self' ${merchant}`);
    res.setHeader('content-security-policy', csp);
    let file = this.demo.get(name);
    if (!file) {
      file = readFile(join(this.options.checkoutDir, 'demo', name)).then((content) =>
        name === 'index.html'
          ? fileOf(
              Buffer.from(content.toString('utf8').replace('{{MERCHANT_URL}}', this.options.demoMerchantUrl.replace(/"/g, '&quot;'))),
              'text/html; charset=utf-8',
            )
          : fileOf(content, 'text/javascript; charset=utf-8'),
      );
      this.demo.set(name, file);
      file.catch(() => this.demo.delete(name));
    }
    return file;
  }
}
