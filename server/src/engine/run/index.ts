/** Running a smart tool locally under the service's limits (issue 4): the API the CLI and the VS Code client use. */
export { startRun, runTool } from './run';
export { runnableTool, resolveInputs, type RunnableTool, type ToolInput, type ResolvedInputs } from './definition';
export { findPython, PythonNotFoundError, MIN_PYTHON, type PythonInfo } from './python';
export {
  defaultCacheDir,
  normaliseRequirements,
  prepareEnvironment,
  SetupError,
  type Environment,
} from './environment';
export { formatDuration, formatMemory } from '../../service/format';
export { checkLimits, SERVICE_MEMORY_MB, SERVICE_TIMEOUT_MS, DEFAULT_OUTPUT_CAP_BYTES } from './limits';
export { runnerScriptPath } from './supervisor';
export { runSummary } from './summary';
export type * from './types';
