// Tool tests: a definition's saved cases, read, run and judged (for `tooldef test` and the Test Explorer).
export { loadSuite, isInvalid, type Suite, type SuiteProblem, type SuiteTool } from './suite';
export {
  runTests,
  caseTitle,
  toolName,
  type CaseResult,
  type LlmEndpoint,
  type LlmModel,
  type TestRunOptions,
} from './runTests';
export { failureSpan, type CaseFailure, type CaseOutcome } from './expect';
export { goldenFileName, type TestCase } from '../../service/tests/testsFile';
export { definitionPathFor, goldenDirFor, isTestsFileName, testsPathFor } from '../../service/tests/paths';
