/** Upload of tool definitions (pure Node; no `vscode`): used by `tooldef upload` and the VS Code client. */
export { uploadDefinition, formatSize, tokenRedactor, UPLOAD_DEFAULTS } from './upload';
export { buildMultipart, sanitizeFileName, uploadFileName } from './multipart';
export { checkUrl, displayUrl, isLoopbackHost, type UrlCheck } from './url';
export { parseRetryAfter, backoffDelay } from './retry';
export type * from './types';
