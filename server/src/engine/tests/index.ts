// Tool tests as the editor runs them: a definition's cases (read by the language server, or by
// loadSuite in the CLI) run and judged. Nothing here reads a tests file, so the client carries no parser.
export type { Suite, SuiteProblem, SuiteTool } from './suite';
export {
  runTests,
  DEFAULT_JOBS,
  caseTitle,
  toolName,
  type CaseResult,
  type LlmEndpoint,
  type LlmModel,
  type RunnableCase,
  type RunnableSuite,
  type TestRunOptions,
} from './runTests';
export type { CaseFailure, CaseOutcome } from './expect';
export type { Expectations, ExpectKey, InputValue } from '../../service/tests/testsFile';
export {
  definitionPathFor,
  goldenDirFor,
  goldenFileName,
  isTestsFileName,
  testsPathFor,
} from '../../service/tests/paths';
