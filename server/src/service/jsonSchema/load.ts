import type * as JsonSchema from './index';

let loaded: typeof JsonSchema | undefined;

/**
 * The JSON-schema checker, loaded on first use. The shipped server keeps it in a file of its own
 * (dist/jsonSchema.js, see scripts/build.mjs); other bundles simply include it.
 */
export function jsonSchemaSupport(): typeof JsonSchema {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (loaded ??= require('./index') as typeof JsonSchema);
}
