import { promises as fs } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { DiagnosticSeverity } from 'vscode-languageserver-types';
import { checkUploadUrl, uploadDefinition, UPLOAD_DEFAULTS } from '../engine/upload/upload';
import { validateForUpload } from '../engine/upload/validate';
import type { UploadResult } from '../engine/upload/types';
import type { Kind } from '../service/kind';
import { severityName } from '../service/rules';
import { formatText } from './report';
import {
  oneOf,
  parseCommandArgs,
  positiveNumber,
  untilInterrupted,
  UsageError,
  VERSION,
  withUsage,
  type Io,
  displayPath,
} from './io';

export const UPLOAD_USAGE = `Usage: tooldef upload --url URL [--timeout SECONDS] [--setup-timeout SECONDS] [--force]
                     [--kind smart|llm] [--json] [--quiet] FILE

For an endpoint that takes uploads (the service itself documents no upload API: without one, upload the
file in the workspace's UI). Validates a tool definition, uploads the file's bytes unchanged to URL (POST,
multipart/form-data, one part "file" named <tool_name>.json — prompt_name for an LLM tool), then
follows the service's setup while its reply gives a statusUrl to poll. The token is read from the
environment variable TOOLDEF_TOKEN, never from the command line, and is only ever sent as
"Authorization: Bearer …"; it is never printed.

  --url URL                the upload endpoint: https://, or http:// only to localhost, 127.0.0.0/8 or ::1
  --timeout SECONDS        limit for each HTTP request (default ${UPLOAD_DEFAULTS.timeoutMs / 1000})
  --setup-timeout SECONDS  limit for the service's setup after the upload (default ${UPLOAD_DEFAULTS.setupTimeoutMs / 1000})
  --force                  upload even when validation finds errors
  --kind smart|llm         validate the file as this kind
  --json                   print {ok, status, kind, message, httpStatus, fileName, ...} on stdout
  --quiet                  no progress on stderr (validation errors and failures are still shown)

Replies 429 and 5xx are retried ${UPLOAD_DEFAULTS.maxRetries} times with exponential backoff, honouring Retry-After.
Output: progress, validation problems and failures go to stderr; stdout holds one line on success, or
with --json the result object whenever an upload was attempted (exit 0 or 1).

Exit status: 0 uploaded, and the service's setup finished "ready" (or its reply gave no statusUrl);
1 not uploaded or the setup failed: validation errors without --force, token refused (401/403), file
too large (413), rate limited, server errors, a timeout, a network failure, setup "failed", an
unexpected reply; 2 bad usage: options, no TOOLDEF_TOKEN, FILE unreadable, a URL that is invalid or
plain http:// to a host that is not loopback; 130 interrupted (Ctrl-C).
`;

interface UploadCliOptions {
  file: string;
  url: string;
  timeoutMs?: number;
  setupTimeoutMs?: number;
  force: boolean;
  kind?: Kind;
  json: boolean;
  quiet: boolean;
}

function readOptions(args: readonly string[]): UploadCliOptions {
  if (args.some((a) => a === '--token' || a.startsWith('--token=')))
    throw new UsageError(
      'the token is not accepted on the command line (it would show in shell history and process lists): set TOOLDEF_TOKEN.',
    );
  const { values, positionals } = parseCommandArgs(args, {
    url: { type: 'string' },
    timeout: { type: 'string' },
    'setup-timeout': { type: 'string' },
    force: { type: 'boolean' },
    kind: { type: 'string' },
    json: { type: 'boolean' },
    quiet: { type: 'boolean', short: 'q' },
  });
  if (positionals.length > 1) throw new UsageError('Name one file to upload.');
  const file = positionals[0];
  if (file === undefined) throw new UsageError('Name the tool definition file to upload.');
  if (values.url === undefined || !values.url.trim())
    throw new UsageError(
      "The service documents no upload API: upload the file in your workspace's UI (run 'tooldef check' on it first), or, where an endpoint takes uploads, give it with --url URL.",
    );
  const seconds = (flag: string, text: string | undefined): number | undefined =>
    text === undefined ? undefined : positiveNumber(flag, text, 'seconds') * 1000;
  return {
    file,
    url: values.url,
    timeoutMs: seconds('--timeout', values.timeout),
    setupTimeoutMs: seconds('--setup-timeout', values['setup-timeout']),
    force: values.force ?? false,
    kind: values.kind === undefined ? undefined : oneOf('--kind', values.kind, ['smart', 'llm']),
    json: values.json ?? false,
    quiet: values.quiet ?? false,
  };
}

/** `tooldef upload …` */
export function uploadCommand(args: readonly string[], io: Io): Promise<number> {
  return withUsage(io, UPLOAD_USAGE, args, () => upload(readOptions(args), io));
}

async function upload(opts: UploadCliOptions, io: Io): Promise<number> {
  const say = (text: string): void => {
    io.stderr.write(`tooldef: ${text}\n`);
  };
  const url = checkUploadUrl(opts.url);
  if (!url.ok) {
    say(url.message);
    return 2;
  }
  const token = ((io.env ?? process.env).TOOLDEF_TOKEN ?? '').trim();
  if (!token) {
    say('no upload token: set the environment variable TOOLDEF_TOKEN (the token is not accepted as an option).');
    return 2;
  }
  const path = isAbsolute(opts.file) ? opts.file : resolve(io.cwd, opts.file);
  const shown = displayPath(io.cwd, path);
  let bytes: Buffer;
  try {
    bytes = await fs.readFile(path);
  } catch {
    say(`cannot read ${opts.file}: no such file, or not a readable file.`);
    return 2;
  }

  const controller = new AbortController();
  const { value: result, interrupted } = await untilInterrupted(
    uploadDefinition(
      {
        url: url.url.toString(),
        token,
        bytes,
        filePath: path,
        force: opts.force,
        validate: (b) => validateForUpload(b, { filePath: path, kind: opts.kind }),
        timeoutMs: opts.timeoutMs,
        setupTimeoutMs: opts.setupTimeoutMs,
        signal: controller.signal,
        userAgent: `tooldef-cli/${VERSION}`,
      },
      {
        onProgress: (p) => {
          if (!opts.quiet && p.phase !== 'done') say(p.message);
        },
      },
    ),
    () => controller.abort(),
  );

  const v = result.validation;
  if (v && (v.errors || (v.warnings && !opts.quiet))) {
    const shownDiagnostics = v.diagnostics.filter(
      (d) => d.severity === DiagnosticSeverity.Error || (!opts.quiet && d.severity === DiagnosticSeverity.Warning),
    );
    io.stderr.write(formatText([{ file: shown, kind: v.kind, diagnostics: shownDiagnostics }]));
    for (const p of v.problems) io.stderr.write(`${shown}: error ${p}\n`);
  }
  if (opts.json) io.stdout.write(`${JSON.stringify(toJson(result), null, 2)}\n`);
  if (result.ok) {
    if (!opts.json) io.stdout.write(`${result.message}\n`);
  } else {
    const hint =
      result.kind === 'auth'
        ? ' Set TOOLDEF_TOKEN to a valid token.'
        : result.kind === 'validation'
          ? ' (--force uploads it anyway.)'
          : '';
    say(`${result.message}${hint}`);
  }
  return exitCode(result, interrupted);
}

/** 0 uploaded (and set up); 2 a URL that was never usable; 130 interrupted; 1 every other failure. */
export function exitCode(result: UploadResult, interrupted = false): number {
  if (result.ok) return 0;
  if (result.kind === 'cancelled' && interrupted) return 130;
  if (result.kind === 'invalid-url' || result.kind === 'insecure-url') return 2;
  return 1;
}

function toJson(r: UploadResult): Record<string, unknown> {
  const v = r.validation;
  return {
    ok: r.ok,
    status: r.ok ? r.status : null,
    kind: r.ok ? null : r.kind,
    message: r.message,
    httpStatus: r.httpStatus ?? null,
    fileName: r.fileName ?? null,
    size: r.size,
    attempts: r.attempts,
    polls: r.polls,
    elapsedMs: r.elapsedMs,
    statusUrl: r.ok ? (r.statusUrl ?? null) : null,
    forced: r.ok ? r.forced : false,
    retryAfterMs: r.ok ? null : (r.retryAfterMs ?? null),
    validation: v
      ? {
          kind: v.kind,
          errors: v.errors,
          warnings: v.warnings,
          problems: v.problems,
          diagnostics: v.diagnostics.map((d) => ({
            code: String(d.code),
            severity: severityName(d.severity),
            message: d.message,
            range: d.range,
          })),
        }
      : null,
  };
}
