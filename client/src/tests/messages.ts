import * as vscode from 'vscode';
import { failureSpan, type CaseFailure, type CaseResult } from '../../../server/src/engine/tests';

/** The context value of a golden mismatch: the peek offers Approve Output on it (package.json menus). */
export const GOLDEN_MESSAGE = 'tooldef.golden';

/**
 * A case's failures as the Test Explorer shows them: each at the expectation that does not hold (the
 * case's name when the run itself failed), expected and actual side by side where there are both.
 */
export function failureMessages(result: CaseResult): vscode.TestMessage[] {
  return result.failures.map((f) => {
    const message =
      f.expected !== undefined && f.actual !== undefined
        ? vscode.TestMessage.diff(f.message, f.expected, f.actual)
        : new vscode.TestMessage(detailed(f));
    message.location = locationOf(result, f);
    if (f.check === 'golden') message.contextValue = GOLDEN_MESSAGE;
    return message;
  });
}

/** The case's output (or its failure's detail) for the run's output, with terminal line ends. */
export function outputOf(result: CaseResult): string {
  const { output, errorMessage, detail } = result.outcome;
  const text = output ?? [errorMessage, detail].filter(Boolean).join('\n');
  return text ? `${text.replace(/\r?\n/g, '\r\n')}\r\n` : '';
}

function detailed(f: CaseFailure): string {
  return f.actual === undefined ? f.message : `${f.message}\n\n${f.actual}`;
}

function locationOf(result: CaseResult, f: CaseFailure): vscode.Location {
  const span = failureSpan(result.case, f);
  const start = result.suite.positionAt(span.offset);
  const end = result.suite.positionAt(span.offset + span.length);
  return new vscode.Location(
    vscode.Uri.file(result.suite.testsPath),
    new vscode.Range(start.line, start.character, end.line, end.character),
  );
}
