import * as vscode from 'vscode';
import type { CaseFailure, CaseResult, ExpectKey } from '../../../server/src/engine/tests';
import { rangeOf, type EditorSuite } from './testTree';

/** The context value of a golden mismatch: the peek offers Approve Output on it (package.json menus). */
export const GOLDEN_MESSAGE = 'tooldef.golden';

/**
 * A case's failures as the Test Explorer shows them: each at the expectation that does not hold (the
 * case's name when the run itself failed), expected and actual side by side where there are both.
 */
export function failureMessages(result: CaseResult<EditorSuite>): vscode.TestMessage[] {
  return result.failures.map((f) => {
    const message =
      f.expected !== undefined && f.actual !== undefined
        ? vscode.TestMessage.diff(f.message, f.expected, f.actual)
        : new vscode.TestMessage(detailed(f));
    const { info } = result.case;
    const at =
      (f.check !== 'run' && f.check !== 'expected_output' && info.expectRanges[f.check as ExpectKey]) || info.nameRange;
    message.location = new vscode.Location(result.suite.testsUri, rangeOf(at));
    if (f.check === 'golden') message.contextValue = GOLDEN_MESSAGE;
    return message;
  });
}

/** The case's output (or its failure's detail) for the run's output, with terminal line ends. */
export function outputOf(result: CaseResult<EditorSuite>): string {
  const { output, errorMessage, detail } = result.outcome;
  const text = output ?? [errorMessage, detail].filter(Boolean).join('\n');
  return text ? `${text.replace(/\r?\n/g, '\r\n')}\r\n` : '';
}

function detailed(f: CaseFailure): string {
  return f.actual === undefined ? f.message : `${f.message}\n\n${f.actual}`;
}
