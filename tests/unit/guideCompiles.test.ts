import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from '@jest/globals';
import ts from 'typescript';

/**
 * docs/adding-a-provider.md is the guide a new provider starts from: each of its
 * TypeScript blocks names the file it belongs in on its first line
 * (`// server/providers/members/pixium.ts`) and is type-checked here as if it
 * were that file, beside the real code, so an example that drifts from the kit
 * fails the suite (CI runs it) instead of misleading its reader.
 */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const GUIDE = join(ROOT, 'docs/adding-a-provider.md');

function guideBlocks(): Array<{ path: string; source: string }> {
  const text = readFileSync(GUIDE, 'utf8');
  return [...text.matchAll(/```ts\n([\s\S]*?)```/g)].map(([, source]) => {
    const named = /^\/\/ (\S+\.ts)\n/.exec(source!);
    if (!named) throw new Error(`a block of the guide does not name its file on its first line:\n${source}`);
    // Checked under a name of its own beside the file it stands for, so its relative imports resolve as they would there.
    return { path: join(ROOT, named[1]!.replace(/\.ts$/, '.guide.ts')), source: source! };
  });
}

it("the guide's code blocks type-check against today's kit", () => {
  const blocks = guideBlocks();
  expect(blocks.length).toBeGreaterThanOrEqual(2);
  const config = ts.getParsedCommandLineOfConfigFile(join(ROOT, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined })!;
  const host = ts.createCompilerHost(config.options);
  const virtual = new Map(blocks.map((block) => [block.path, block.source]));
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.readFile = (file) => virtual.get(file) ?? readFile(file);
  host.fileExists = (file) => virtual.has(file) || fileExists(file);
  host.getSourceFile = (file, language, onError, fresh) =>
    virtual.has(file) ? ts.createSourceFile(file, virtual.get(file)!, language) : getSourceFile(file, language, onError, fresh);
  const program = ts.createProgram([...virtual.keys()], config.options, host);
  const problems = [...virtual.keys()].flatMap((file) => {
    const source = program.getSourceFile(file)!;
    return [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)].map((diagnostic) => {
      const where = diagnostic.start === undefined ? '' : `:${source.getLineAndCharacterOfPosition(diagnostic.start).line + 1}`;
      return `${file.slice(ROOT.length + 1)}${where}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
    });
  });
  expect(problems).toEqual([]);
});
