/**
 * The arguments of each call of `callee` in a TypeScript source, as text, for the tests that read server/'s sources
 * (the reasons an error names, the rule an INVALID_ARGUMENT names). Split at the call's own depth, strings and
 * templates emptied first so that their commas and parentheses do not count: a string argument reads as `''`.
 */
export function callArguments(source: string, callee: string): { at: number; args: string[] }[] {
  const calls: { at: number; args: string[] }[] = [];
  for (let start = source.indexOf(callee); start >= 0; start = source.indexOf(callee, start + 1)) {
    // A longer name that ends in this one (`xinvalidArgument(`) is another function.
    if (/[\w$]/.test(source[start - 1] ?? '')) continue;
    const rest = source.slice(start + callee.length).replace(/'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`/g, "''");
    const args = [''];
    for (let i = 0, depth = 0; i < rest.length && depth >= 0; i++) {
      const c = rest[i]!;
      if ('([{'.includes(c)) depth++;
      else if (')]}'.includes(c)) depth--;
      if (depth < 0) break;
      if (c === ',' && depth === 0) args.push('');
      else args[args.length - 1] += c;
    }
    const trimmed = args.map((arg) => arg.trim());
    // A trailing comma leaves an empty last argument; no arguments at all leave one empty argument.
    calls.push({ at: start, args: trimmed.at(-1) === '' ? trimmed.slice(0, -1) : trimmed });
  }
  return calls;
}
