// Where a definition's tests file and approved outputs are: small and eager (the server asks for every
// document it validates), while the tests file's reader loads on first use (load.ts).

const TESTS_SUFFIX = '.tests.json';
const GOLDEN_SUFFIX = '.golden';

/** Whether a file name is a tests file's. */
export function isTestsFileName(fileName: string): boolean {
  return fileName.endsWith(TESTS_SUFFIX) && fileName.length > TESTS_SUFFIX.length;
}

/** `weather.json` → `weather.tests.json` (paths or URIs, any separator). */
export function testsPathFor(definitionPath: string): string {
  return definitionPath.replace(/\.json$/i, '') + TESTS_SUFFIX;
}

/** `weather.tests.json` → `weather.json`. */
export function definitionPathFor(testsPath: string): string {
  return testsPath.slice(0, -TESTS_SUFFIX.length) + '.json';
}

/** `weather.json` → `weather.golden` (the folder of approved outputs). */
export function goldenDirFor(definitionPath: string): string {
  return definitionPath.replace(/\.json$/i, '') + GOLDEN_SUFFIX;
}

/**
 * The file name of a case's approved output: its name with the characters no file system takes (and
 * control characters) as `_`, no leading or trailing dots or spaces, `.txt` added.
 */
export function goldenFileName(testName: string): string {
  const cleaned = testName
    // eslint-disable-next-line no-control-regex
    .replace(/[<>:"/\\|?*\u0000-\u001f\u007f]/g, '_')
    .replace(/^[. ]+|[. ]+$/g, '');
  return `${cleaned || '_'}.txt`;
}
