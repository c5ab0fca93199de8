/**
 * A statement's shape: MikroORM writes values into the SQL text, so literals
 * become `?` (and a list of them one `?…`), lest every call count as a
 * statement of its own and the probe's table grow with the load it measures.
 */
export function statementShape(text: string): string {
  return text
    .replace(/'(?:[^']|'')*'/g, '?')
    .replace(/\b\d+(?:\.\d+)?\b/g, '?')
    .replace(/\?(?:\s*,\s*\?)+/g, '?…')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 400);
}
