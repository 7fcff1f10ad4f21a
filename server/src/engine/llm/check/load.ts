import type * as OutputCheck from './index';

let loaded: typeof OutputCheck | undefined;

/**
 * The `expected_output` checker, loaded on first use. The shipped server keeps it in a file of its own
 * (dist/outputCheck.js, see scripts/build.mjs); other bundles simply include it.
 */
export function outputCheck(): typeof OutputCheck {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (loaded ??= require('./index') as typeof OutputCheck);
}
