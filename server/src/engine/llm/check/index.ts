// An LLM answer checked against `expected_output`, for the language server's CheckOutputRequest: loaded
// on first use (load.ts), as its CSV and XML parsers are most of its size and most sessions never ask.
export { checkOutput } from '../expectedOutput';
