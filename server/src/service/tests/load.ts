import type * as TestsSupport from './index';

let loaded: typeof TestsSupport | undefined;

/**
 * The tests-file reader and checks, loaded on first use. The shipped server keeps them in a file of
 * their own (dist/tests.js, see scripts/build.mjs), so starting the server never compiles them; other
 * bundles simply include them.
 */
export function testsSupport(): typeof TestsSupport {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (loaded ??= require('./index') as typeof TestsSupport);
}
