import type { JsonNode } from '../json/tree';
import type { ToolModel } from '../model';
import type { RuleCode } from '../rules';
import type { Settings } from '../settings';

/** Facts a fix needs, carried on the diagnostic so code actions need no second analysis. */
export type FixData =
  | { fix: 'replace'; offset: number; length: number; candidates: string[]; quoted: boolean }
  /** A reference to an undeclared variable: rename it to a candidate, or declare it. */
  | { fix: 'unknown-name'; offset: number; length: number; candidates: string[]; name: string; pythonQuote?: string }
  | { fix: 'add-requirement'; distribution: string }
  | { fix: 'rename-key'; candidates: string[] }
  | { fix: 'move-field'; from: (string | number)[]; to: (string | number)[] }
  | { fix: 'wrap-array' }
  | { fix: 'unwrap-array' }
  | { fix: 'flatten-avatar' }
  | { fix: 'trim-placeholder'; offset: number; length: number; name: string }
  | { fix: 'unquote'; offset: number; length: number; literal: string }
  /** A secret's string literal (document range) replaced by a placeholder, in the literal's own quotes. */
  | { fix: 'secret-placeholder'; offset: number; length: number; quote: string }
  /** `key` added to the object at `path`, with a value of its type. */
  | { fix: 'add-field'; path: (string | number)[]; key: string }
  /** An unused import's characters (document range) to delete. */
  | { fix: 'remove-import'; offset: number; length: number }
  /** An unclosed `{{` ending at `at` (a decoded prompt offset), to close after the name that follows. */
  | { fix: 'close-placeholder'; at: number };

export interface RelatedLocation {
  readonly uri: string;
  readonly line: number;
  readonly character: number;
  readonly message: string;
}

/**
 * At most this many problems of a file are shown, as VS Code's JSON support caps its own: a generated
 * file with a million would otherwise stall the server and the editor.
 */
export const MAX_PROBLEMS = 5000;

export interface Problem {
  readonly code: RuleCode;
  readonly offset: number;
  readonly length: number;
  readonly message: string;
  readonly data?: FixData;
  readonly related?: readonly RelatedLocation[];
}

/** Some of the definitions that share a name, and how many there are. */
export interface Namesakes {
  readonly shown: readonly RelatedLocation[];
  readonly total: number;
}

/** Other definition files of the workspace, for rules that look across files. */
export interface WorkspaceIndex {
  /**
   * Definitions other than `exceptUri` whose tool name is `name`: the first `max` to show, and how many
   * there are (each file's problem lists at most `max`, so that a name shared by thousands of files
   * does not give each of them thousands of related locations).
   */
  toolsNamed(name: string, exceptUri: string, max: number): Namesakes;
}

export interface ValidationContext {
  readonly model: ToolModel;
  readonly settings: Settings;
  readonly workspace: WorkspaceIndex | undefined;
  /**
   * Whether the file already has as many problems as are shown (MAX_PROBLEMS): a validator with many
   * more to report counts them with `more` instead of building their messages.
   */
  full(): boolean;
  /** Counts `n` problems found once `full()`, never shown (the file's last diagnostic says how many). */
  more(n?: number): void;
  report(
    code: RuleCode,
    at: JsonNode | { offset: number; length: number },
    message: string,
    data?: FixData,
    related?: readonly RelatedLocation[],
  ): void;
}

/** A semantic check: adding a rule is adding one of these to the list in `validation/index.ts`. */
export type Validator = (ctx: ValidationContext) => void;
