import { writeFileSync } from 'node:fs';
import { createRegistry } from '../server/providers/catalog.js';
import { renderProviderCatalogue } from '../server/providers/catalogueDoc.js';

/** Writes docs/providers.md from the registered providers' declarations. */
const target = new URL('../docs/providers.md', import.meta.url);
writeFileSync(target, renderProviderCatalogue(await createRegistry({ sandboxUrl: 'http://127.0.0.1:8090' })));
console.log(`wrote ${target.pathname}`);
