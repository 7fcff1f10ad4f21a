import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { newToolCommand, setAvatarCommand } from './authoring/commands';
import { editEmbeddedCommand } from './embedded/features';
import type { EmbeddedViews } from './embedded/views';
import type { DocumentQueries } from './documentQueries';
import { previewPromptCommand, runLlmToolCommand, setApiKeyCommand, type LlmContext } from './llm/commands';
import { runSmartToolCommand, stopRunCommand, type RunContext } from './run/runSmartTool';
import { manageSecretsCommand, storeSecretCommand } from './run/secrets';
import { STORE_SECRET_COMMAND } from '../../server/src/protocol';
import type { TestExplorer } from './tests/explorer';
import { setUploadTokenCommand, uploadCommand } from './upload/commands';

export interface CommandContext extends RunContext, LlmContext {
  readonly client: () => LanguageClient | undefined;
  readonly embedded: EmbeddedViews;
  readonly queries: DocumentQueries;
  readonly tests: TestExplorer;
}

/** Every command of the extension, as factories registered from one table. */
const COMMANDS: Record<string, (ctx: CommandContext) => (...args: never[]) => unknown> = {
  'tooldef.restartServer': (ctx) => async () => {
    await ctx.client()?.restart();
    ctx.log.info('Language server restarted.');
  },
  'tooldef.showLog': (ctx) => () => ctx.log.show(),
  'tooldef.runSmartTool': (ctx) => runSmartToolCommand(ctx, false),
  'tooldef.runSmartToolWithDefaults': (ctx) => runSmartToolCommand(ctx, true),
  'tooldef.stopRun': () => stopRunCommand(),
  'tooldef.manageSecrets': (ctx) => manageSecretsCommand(ctx.extension),
  [STORE_SECRET_COMMAND]: (ctx) => storeSecretCommand(ctx.extension),
  'tooldef.runTests': (ctx) => ctx.tests.runTestsCommand(),
  'tooldef.approveOutput': (ctx) => ctx.tests.approveOutputCommand(),
  'tooldef.previewPrompt': (ctx) => previewPromptCommand(ctx),
  'tooldef.runLlmTool': (ctx) => runLlmToolCommand(ctx),
  'tooldef.setLlmApiKey': (ctx) => setApiKeyCommand(ctx),
  'tooldef.upload': (ctx) => uploadCommand(ctx),
  'tooldef.setUploadToken': (ctx) => setUploadTokenCommand(ctx),
  'tooldef.editToolCode': (ctx) => editEmbeddedCommand(ctx.embedded, 'tool_code'),
  'tooldef.editModelPrompt': (ctx) => editEmbeddedCommand(ctx.embedded, 'model_prompt'),
  'tooldef.newSmartTool': (ctx) => newToolCommand(ctx.queries, 'smart'),
  'tooldef.newLlmTool': (ctx) => newToolCommand(ctx.queries, 'llm'),
  'tooldef.setAvatar': (ctx) => setAvatarCommand(ctx.queries),
};

export function registerCommands(ctx: CommandContext): vscode.Disposable[] {
  return Object.entries(COMMANDS).map(([id, factory]) => vscode.commands.registerCommand(id, factory(ctx)));
}
