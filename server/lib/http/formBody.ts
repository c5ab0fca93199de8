/**
 * A request body sent as application/x-www-form-urlencoded: the HTTP client
 * (axios) sends a URLSearchParams with that content type, and the logs redact
 * it like any body. Nested objects and arrays are flattened in the bracket
 * notation form-encoded APIs read (`customer[name]`, `split_rules[0][amount]`);
 * undefined and null fields are left out.
 */
export type FormValue = string | number | boolean | null | undefined | FormFields | readonly FormValue[];
export interface FormFields {
  readonly [name: string]: FormValue;
}

function append(form: URLSearchParams, name: string, value: FormValue): void {
  if (value === undefined || value === null) return;
  if (Array.isArray(value)) {
    value.forEach((item: FormValue, index) => append(form, `${name}[${index}]`, item));
    return;
  }
  if (typeof value === 'object') {
    for (const [key, nested] of Object.entries(value as FormFields)) append(form, `${name}[${key}]`, nested);
    return;
  }
  form.append(name, String(value));
}

export function formBody(fields: FormFields): URLSearchParams {
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) append(form, name, value);
  return form;
}
