import { isAbsolute, resolve } from 'node:path';
import { checkLimits } from '../engine/run/limits';
import { positiveNumber, UsageError } from './io';

/** The options of every command that runs smart tools (run, test): limits, interpreter, pip. */
export const RUNNER_OPTIONS = {
  timeout: { type: 'string' },
  memory: { type: 'string' },
  python: { type: 'string' },
  'find-links': { type: 'string', multiple: true },
  'no-index': { type: 'boolean' },
} as const;

export interface RunnerOptions {
  readonly timeoutMs?: number;
  readonly memoryMb?: number;
  readonly python?: string;
  readonly pipArgs: string[];
}

/** The runner's options from parsed values; limits outside the service's range are bad usage. */
export function runnerOptions(
  values: { timeout?: string; memory?: string; python?: string; 'find-links'?: string[]; 'no-index'?: boolean },
  cwd: string,
): RunnerOptions {
  const { python } = values;
  const opts: RunnerOptions = {
    timeoutMs: values.timeout === undefined ? undefined : positiveNumber('--timeout', values.timeout, 'seconds') * 1000,
    memoryMb: values.memory === undefined ? undefined : positiveNumber('--memory', values.memory, 'megabytes'),
    // A bare name is looked up on PATH; a path is taken relative to the CLI's cwd.
    python: python !== undefined && /[\\/]/.test(python) && !isAbsolute(python) ? resolve(cwd, python) : python,
    pipArgs: pipArgsOf(values['find-links'] ?? [], values['no-index'] ?? false, cwd),
  };
  const limits = checkLimits(opts);
  if ('error' in limits) throw new UsageError(limits.error);
  return opts;
}

/** The variable that holds a secret's value for the CLI. */
export function secretVariable(name: string): string {
  return `TOOLDEF_SECRET_${name}`;
}

/** The values of the secrets a tool references, from `TOOLDEF_SECRET_<NAME>`, or what to set. */
export function secretsFromEnv(
  names: readonly string[],
  env: NodeJS.ProcessEnv,
): { values: Record<string, string> } | { missing: string } {
  const values: Record<string, string> = {};
  const missing = names.filter((n) => {
    const v = env[secretVariable(n)];
    if (v !== undefined && v !== '') values[n] = v;
    return v === undefined || v === '';
  });
  if (!missing.length) return { values };
  const list = missing.map((n) => `<${n}>`).join(', ');
  const vars = missing.map(secretVariable).join(', ');
  return {
    missing: `tool_code references the secret${missing.length === 1 ? '' : 's'} ${list}: set ${vars} to ${missing.length === 1 ? 'its value' : 'their values'} (it is written only into the copy that runs, and redacted from the output).`,
  };
}

/** pip's arguments from --find-links and --no-index. */
export function pipArgsOf(findLinks: readonly string[], noIndex: boolean, cwd: string): string[] {
  // pip runs in another directory: a relative --find-links path is made absolute against the CLI's cwd.
  const args = findLinks.flatMap((dir) => [
    '--find-links',
    /^[a-z][a-z0-9+.-]*:\/\//i.test(dir) || isAbsolute(dir) ? dir : resolve(cwd, dir),
  ]);
  return noIndex ? [...args, '--no-index'] : args;
}
