// The tests-file reader and its checks against a definition, loaded on first use (load.ts): most
// sessions open no tests file. Only what the server already holds is shared with it (JSON nodes).
export { orphanGoldenMessage, orphanGoldenNames, readTestsFile } from './testsFile';
export { checkCasesAgainst } from './againstDefinition';
export {
  doTestsRename,
  prepareTestsRename,
  testsCompletion,
  testsDefinition,
  testsHover,
  withTestsEdits,
  type TestsContext,
} from './features';
export { addTestCase, type AddCaseResult, type NewCase } from './addCase';
