/** The pure core of "Preview LLM Prompt" and "Run LLM Tool" (no `vscode` import). See README.md here. */
export * from './prompt';
export * from './chat';
export * from './expectedOutput';
export { SseDecoder, SseParser, type SseEvent } from './sse';
