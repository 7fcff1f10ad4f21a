import type * as PythonAnalysis from './index';

let loaded: typeof PythonAnalysis | undefined;

/**
 * The embedded-Python analysis, loaded on first use. The shipped bundles keep it in a file of its own
 * (dist/python.js, see scripts/build.mjs), so starting the server, and working on LLM tools, never
 * compiles the Python parser; test bundles simply include it.
 */
export function pythonAnalysis(): typeof PythonAnalysis {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (loaded ??= require('./index') as typeof PythonAnalysis);
}
