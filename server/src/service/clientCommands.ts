// Commands of the editor's client that the service's results name (a code action's follow-up), kept
// apart so that the client's bundle takes the names and nothing of the service.

/** Keeps a secret that Move to secret took out of tool_code in the client's secret storage: `(name, value)`. */
export const STORE_SECRET_COMMAND = 'tooldef.storeSecret';
