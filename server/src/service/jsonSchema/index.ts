// A case's `json` expectation: its schema compiled once, outputs checked against it. Ajv is large, so the
// language server loads this on first use (load.ts, dist/jsonSchema.js).
import Ajv, { type ValidateFunction } from 'ajv';

export type CompiledSchema = { readonly errors: (value: unknown) => string[] } | { readonly error: string };

const ajv = new Ajv({ allErrors: true, strict: false });

/**
 * Compiled schemas by their text, the most recent last: a long-lived server is asked about the same few
 * schemas again and again (each time as a new object, which Ajv would keep compiled for good).
 */
const compiled = new Map<string, { schema: object; compiled: CompiledSchema }>();
const KEEP = 64;

/** Compiles a JSON schema; what is wrong with it when it is not one. */
export function compileSchema(schema: unknown): CompiledSchema {
  const key = JSON.stringify(schema);
  const known = compiled.get(key);
  if (known) {
    compiled.delete(key);
    compiled.set(key, known);
    return known.compiled;
  }
  const entry = { schema: schema as object, compiled: compile(schema as object) };
  compiled.set(key, entry);
  if (compiled.size > KEEP) {
    const [oldest, { schema: old }] = compiled.entries().next().value!;
    compiled.delete(oldest);
    ajv.removeSchema(old);
  }
  return entry.compiled;
}

function compile(schema: object): CompiledSchema {
  let validate: ValidateFunction;
  try {
    validate = ajv.compile(schema);
  } catch (e) {
    return { error: `Not a valid JSON schema: ${(e as Error).message}.` };
  }
  return {
    errors: (value) =>
      validate(value)
        ? []
        : (validate.errors ?? []).map((e) => `${e.instancePath || 'the value'} ${e.message ?? 'is invalid'}`),
  };
}
