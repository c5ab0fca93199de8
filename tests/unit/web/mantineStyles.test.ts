import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from '@jest/globals';

const src = new URL('../../../web/src/', import.meta.url).pathname;
const stylesDir = new URL('../../../web/node_modules/@mantine/core/styles/', import.meta.url).pathname;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : /\.tsx?$/.test(entry.name) ? [join(dir, entry.name)] : [],
  );
}

it("every Mantine component the back-office imports by name has its stylesheet among web/src/mantineStyles.ts's", () => {
  const imported = new Set<string>();
  for (const file of sources(src))
    for (const [, names] of readFileSync(file, 'utf8').matchAll(/import\s*(?:type\s*)?\{([^}]*)\}\s*from\s*'@mantine\/core'/g))
      for (const name of names!.split(',').map(
        (part) =>
          part
            .trim()
            .replace(/^type\s+/, '')
            .split(/\s+as\s+/)[0]!,
      ))
        if (name) imported.add(name);
  const styled = [...imported].filter((name) => existsSync(join(stylesDir, `${name}.css`)));
  const listed = readFileSync(join(src, 'mantineStyles.ts'), 'utf8');
  expect(styled.length).toBeGreaterThan(10);
  expect(styled.filter((name) => !listed.includes(`'@mantine/core/styles/${name}.css'`))).toEqual([]);
});
