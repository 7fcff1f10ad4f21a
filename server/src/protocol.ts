import { NotificationType } from 'vscode-languageserver-protocol';

/** Custom messages between the client and the server; both sides import this one module. */
export namespace DocumentKindNotification {
  export const method = 'tooldef/documentKind';
  /** The kind the user forced for a document (`tooldef.files.associations`), or null for detection. */
  export const type = new NotificationType<{ uri: string; kind: 'smart' | 'llm' | null }>(method);
}
