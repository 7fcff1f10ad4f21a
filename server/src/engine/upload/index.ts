/** Upload of tool definitions (pure Node; no `vscode`): used by `tooldef upload` and the VS Code client. */
export { uploadDefinition, checkUploadUrl, checkWorkspaceUrl, UPLOAD_DEFAULTS } from './upload';
export { sanitizeFileName, uploadFileName } from './fileName';
export type * from './types';
