// Secret references in tool_code get their values only in the copy that runs (decisions.md, "Secret
// references"): each value is written into its string literal the way that literal needs it.
import { pythonAnalysis } from '../../service/python/load';
import type { SecretRef } from '../../service/python';
import { ReferenceRedactor } from '../net';
import type { RunOptions, RunResult } from './types';

export type SecretValues = Readonly<Record<string, string>>;

/** The code to run, or the references without a value, or why a value cannot go where it is referenced. */
export function withSecrets(
  code: string,
  values: SecretValues,
): { code: string } | { missing: string[] } | { error: string } {
  const refs = pythonAnalysis().secretReferences(code);
  const missing = [...new Set(refs.filter((r) => values[r.name] === undefined).map((r) => r.name))];
  if (missing.length) return { missing };
  let out = '';
  let last = 0;
  for (const ref of refs) {
    const written = literalText(values[ref.name], ref);
    if (typeof written !== 'string') return written;
    out += code.slice(last, ref.start) + written;
    last = ref.end;
  }
  return { code: out + code.slice(last) };
}

/** A value as the characters of a literal with `ref`'s prefix and quote. */
function literalText(value: string, ref: SecretRef): string | { error: string } {
  const raw = ref.prefix.includes('r');
  const bytes = ref.prefix.includes('b');
  const format = ref.prefix.includes('f');
  const quote = ref.quote[0];
  let text = value;
  if (raw) {
    if (/[\\\r\n]/.test(value) || value.includes(quote) || (bytes && /[^\x20-\x7e]/.test(value)))
      return {
        error: `The value of <${ref.name}> holds a backslash, a quote, a line break or (in bytes) a non-ASCII character, which a raw string literal cannot: reference it from a plain string.`,
      };
  } else if (bytes) {
    text = [...Buffer.from(value, 'utf8')]
      .map((b) => (b < 0x20 || b > 0x7e || b === 0x5c || b === quote.charCodeAt(0) ? hex(b) : String.fromCharCode(b)))
      .join('');
  } else {
    text = [...value]
      .map((c) => {
        const code = c.codePointAt(0)!;
        if (c === '\\' || c === quote) return `\\${c}`;
        return code < 0x20 || code === 0x7f ? hex(code) : c;
      })
      .join('');
  }
  return format ? text.replace(/[{}]/g, '$&$&') : text;
}

function hex(code: number): string {
  return `\\x${code.toString(16).padStart(2, '0')}`;
}

/**
 * A run's options with the secrets' values in the code and every output redacted (the tool's output
 * as it streams, pip's log, and the result), or why the run cannot start.
 */
export function secretRun(
  options: RunOptions,
): { options: RunOptions; finish: (result: RunResult) => RunResult } | { error: string } {
  const given = options.secrets ?? {};
  const prepared = withSecrets(options.code, given);
  if ('missing' in prepared) {
    const names = prepared.missing.map((n) => `<${n}>`);
    return {
      error: `tool_code references the secret${names.length === 1 ? '' : 's'} ${names.join(', ')} with no value: supply ${names.length === 1 ? 'it' : 'them'} to run the tool.`,
    };
  }
  if ('error' in prepared) return prepared;
  const redactor = new ReferenceRedactor(given);
  if (!redactor.longest) return { options: { ...options, code: prepared.code }, finish: (r) => r };
  const streams = [options.onStdout, options.onStderr, options.onLog].map((w) => w && redactor.stream(w));
  const redact = (t: string | undefined): string | undefined => (t === undefined ? t : redactor.redact(t));
  return {
    options: {
      ...options,
      code: prepared.code,
      onStdout: streams[0]?.write,
      onStderr: streams[1]?.write,
      onLog: streams[2]?.write,
    },
    finish: (r) => {
      for (const s of streams) s?.flush();
      const e = r.error;
      return {
        ...r,
        ...(r.result === undefined ? {} : { result: redactor.redact(r.result) }),
        ...(e
          ? {
              error: {
                ...e,
                message: redactor.redact(e.message),
                traceback: redact(e.traceback),
                output: redact(e.output),
                returnRepr: redact(e.returnRepr),
              },
            }
          : {}),
        notices: r.notices.map((n) => redactor.redact(n)),
      };
    },
  };
}
