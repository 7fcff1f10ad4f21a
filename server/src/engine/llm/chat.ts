/**
 * A streaming client for an OpenAI-compatible `POST {baseUrl}/chat/completions` endpoint. Pure Node
 * (global `fetch`), no `vscode` import.
 *
 * - HTTPS only, except loopback hosts (`localhost`, 127.0.0.0/8, `[::1]`): refused before connecting.
 * - The API key goes only into the `Authorization: Bearer` header. It is redacted from every error
 *   message and log line, even when the server echoes it back.
 * - `timeoutMs` is an inactivity timeout: the longest wait for the response headers and between any
 *   two pieces of the body (a long answer that keeps streaming never times out). `totalTimeoutMs`
 *   optionally bounds the whole request.
 * - Redirects are not followed (the prompt and key go only where the user said): a 3xx is an error.
 * - Errors are `ChatError`s with a `kind`; timeouts and cancellations keep the text received so far
 *   in `partialText`.
 */
export { ChatError, type ChatErrorKind, type ChatUsage } from './chatError';
import type { LlmParameters } from './prompt';
import { PARAMETER_NAMES, listOf } from './prompt';
import { ChatAnswer, type ReadFailure } from './chatAnswer';
import { ChatError, type ChatUsage } from './chatError';
import { RequestClock } from './requestClock';
import {
  checkUrl,
  displayUrl,
  isRedirect,
  networkReason,
  parseRetryAfter,
  readLimited,
  redirectTarget,
  secretRedactor,
  serviceMessage,
  type UrlRole,
} from '../net';
import { formatDuration } from '../../service/format';

export interface ChatMessage {
  readonly role: 'system' | 'user' | 'assistant';
  readonly content: string;
}

/** The model of a request: an endpoint model name, or the file's ids with the user's mapping. */
export type ModelChoice =
  | string
  | {
      /** The file's `model_version` ids, in order. */
      readonly modelIds: readonly string[];
      /** File id → endpoint model name. The key `*` maps any id (used when no listed id is mapped). */
      readonly map: Readonly<Record<string, string>> | ReadonlyMap<string, string>;
      /** The setting users edit to configure the map, named in the error (default `MODEL_MAP_SETTING`). */
      readonly setting?: string;
    };

export interface ChatOptions {
  /** e.g. `https://api.openai.com/v1` or `http://127.0.0.1:8080/v1`; `/chat/completions` is appended. */
  readonly baseUrl: string;
  /** Sent as `Authorization: Bearer …` when non-empty. */
  readonly apiKey?: string;
  readonly model: ModelChoice;
  readonly messages: readonly ChatMessage[];
  readonly parameters?: LlmParameters;
  readonly signal?: AbortSignal;
  /** Inactivity timeout in ms (default 60 000; 0 turns it off). */
  readonly timeoutMs?: number;
  /** Optional bound on the whole request in ms. */
  readonly totalTimeoutMs?: number;
  /** Ask for a final usage chunk with `stream_options.include_usage` (default true). */
  readonly includeUsage?: boolean;
  /**
   * Name of the token limit in the request body (default `max_tokens`; newer OpenAI models want
   * `max_completion_tokens`).
   */
  readonly maxTokensField?: 'max_tokens' | 'max_completion_tokens';
  /** Text appended to the 401/403 message (default: how to set the key). */
  readonly apiKeyHint?: string;
  /** Redacted trace lines (request line, status, end), for an output channel. */
  readonly log?: (line: string) => void;
  /** For tests: a `fetch` to use instead of the global one. */
  readonly fetch?: typeof fetch;
}

export interface ChatResult {
  /** The whole answer: every `choices[0].delta.content` joined. */
  readonly text: string;
  /** `finish_reason` of the last chunk that had one (`stop`, `length`, …), or null. */
  readonly finishReason: string | null;
  /** `usage` when the server sent it. */
  readonly usage: ChatUsage | undefined;
  /** The endpoint model name that was requested. */
  readonly model: string;
  /** The file's model id the model was chosen for (undefined when `model` was given as a name). */
  readonly modelId: string | undefined;
  /** The model the server says it used, if it said. */
  readonly responseModel: string | undefined;
  /** False when the stream ended without `[DONE]` and without a finish_reason (maybe cut short). */
  readonly complete: boolean;
}

export const MODEL_MAP_SETTING = 'tooldef.llm.modelMap';
export const DEFAULT_TIMEOUT_MS = 60_000;
const ERROR_BODY_LIMIT = 64 * 1024;

// ---------------------------------------------------------------------------------------------
// Pure helpers

/** Picks the first id of `modelIds` that the map names a model for; else `*`; else a ChatError. */
export function resolveModel(
  modelIds: readonly string[],
  map: Readonly<Record<string, string>> | ReadonlyMap<string, string>,
  setting = MODEL_MAP_SETTING,
): { id: string | undefined; model: string } {
  const get = (k: string): string | undefined => {
    const v =
      map instanceof Map
        ? map.get(k)
        : Object.prototype.hasOwnProperty.call(map, k)
          ? (map as Record<string, string>)[k]
          : undefined;
    return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
  };
  for (const id of modelIds) {
    const model = get(id);
    if (model) return { id, model };
  }
  const any = get('*');
  if (any) return { id: modelIds[0], model: any };
  const example = modelIds[0] ?? 'gpt-4';
  const what = modelIds.length
    ? `None of this tool's model_version ids (${listOf(modelIds)}) is mapped to a model of the endpoint.`
    : 'This tool lists no model_version ids.';
  throw new ChatError(
    'no-model',
    `${what} Add a mapping to the setting "${setting}", e.g. { "${example}": "<endpoint model name>" } (the key "*" maps any id).`,
  );
}

/** The file's sampling parameters as request-body fields (finite numbers only). */
export function requestParameters(
  parameters: LlmParameters | undefined,
  maxTokensField: 'max_tokens' | 'max_completion_tokens' = 'max_tokens',
): Record<string, number> {
  const out: Record<string, number> = {};
  if (!parameters) return out;
  for (const name of PARAMETER_NAMES) {
    const v = parameters[name];
    if (typeof v !== 'number' || !Number.isFinite(v)) continue;
    out[name === 'max_tokens' ? maxTokensField : name] = v;
  }
  return out;
}

const ENDPOINT_URL: UrlRole = {
  what: 'LLM endpoint base URL',
  sends: 'the prompt and API key',
  credentialsIn: 'set the API key instead',
};

/** The chat-completions URL for a base URL, or a ChatError (`invalid-url`/`insecure-url`). */
export function chatCompletionsUrl(baseUrl: string): URL {
  const checked = checkUrl(baseUrl, ENDPOINT_URL);
  if (!checked.ok) throw new ChatError(checked.kind, checked.message);
  const url = checked.url;
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/chat/completions`;
  return url;
}

// ---------------------------------------------------------------------------------------------
// The request

/**
 * Sends the chat request with `stream: true` and calls `onDelta` with each piece of answer text as it
 * arrives. Resolves with the whole answer; rejects with a `ChatError`.
 */
export async function streamChat(options: ChatOptions, onDelta?: (delta: string) => void): Promise<ChatResult> {
  const redact = secretRedactor(options.apiKey, 'API key');
  const log = (line: string): void => options.log?.(redact(line));
  const { url, model, modelId, init } = chatRequest(options); // refuses what it can before connecting
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const clock = new RequestClock(timeoutMs, options.totalTimeoutMs, options.signal);
  const answer = new ChatAnswer(onDelta, redact);
  const stoppedError = (phase?: string): ChatError => {
    const partial = { partialText: answer.text };
    const when = phase ? ` ${phase}` : '';
    if (clock.stopped === 'cancelled')
      return new ChatError('cancelled', `The LLM request was cancelled${when}.`, partial);
    if (clock.stopped === 'total-timeout')
      return new ChatError(
        'timeout',
        `The LLM request took longer than ${formatDuration(options.totalTimeoutMs!)} in all and was stopped${when}.`,
        partial,
      );
    return new ChatError(
      'timeout',
      `The LLM endpoint ${displayUrl(url)} sent nothing for ${formatDuration(timeoutMs)}${when}; the request was stopped.`,
      partial,
    );
  };
  const failed: ReadFailure = (e, stoppedPhase, brokenMessage) =>
    clock.stopped
      ? stoppedError(stoppedPhase)
      : new ChatError('network', redact(`${brokenMessage}: ${networkReason(e)}.`), { partialText: answer.text });

  try {
    log(
      `POST ${displayUrl(url)} model=${model}${modelId ? ` (for ${modelId})` : ''} messages=${options.messages.length}`,
    );
    let response: Response;
    try {
      response = await (options.fetch ?? fetch)(url, { ...init, signal: clock.signal, redirect: 'manual' });
    } catch (e) {
      throw failed(e, 'while waiting for the response', `Could not reach the LLM endpoint ${displayUrl(url)}`);
    }
    clock.arm();
    const contentType = response.headers.get('content-type') ?? '';
    log(`HTTP ${response.status} ${contentType}`);
    if (isRedirect(response.status)) {
      response.body?.cancel().catch(() => undefined);
      throw new ChatError(
        'http',
        redact(
          `The LLM endpoint redirected the request (${response.status})${redirectTarget(response, url)}; redirects are not followed: set the base URL to the final address.`,
        ),
        { status: response.status },
      );
    }
    if (!response.ok) {
      const errorBody = await readLimited(response, ERROR_BODY_LIMIT, () => clock.arm()).catch(() => '');
      throw httpError(response, errorBody, url, model, options, redact);
    }
    // A server that ignored `stream: true` answers with one completion object.
    if (/\bjson\b/i.test(contentType) && !/event-stream/i.test(contentType))
      await answer.readWhole(response, clock, failed);
    else await answer.readStream(response, clock, failed);
    const { text, finishReason, usage, responseModel, done } = answer;
    log(`end finish_reason=${finishReason ?? 'none'} chars=${text.length}${done ? '' : ' (no [DONE])'}`);
    return { text, finishReason, usage, model, modelId, responseModel, complete: done || finishReason !== null };
  } catch (e) {
    if (e instanceof ChatError) {
      log(`error ${e.kind}: ${e.message}`);
      throw e;
    }
    if (clock.stopped) throw stoppedError();
    throw e; // e.g. thrown by onDelta
  } finally {
    clock.dispose();
  }
}

/** The request for the options, or a ChatError for what can be refused before connecting. */
function chatRequest(options: ChatOptions): {
  url: URL;
  model: string;
  modelId: string | undefined;
  init: RequestInit;
} {
  const url = chatCompletionsUrl(options.baseUrl);
  const { id: modelId, model } =
    typeof options.model === 'string'
      ? { id: undefined, model: options.model }
      : resolveModel(options.model.modelIds, options.model.map, options.model.setting);
  if (!model.trim()) throw new ChatError('no-model', 'No endpoint model name was given.');
  if (options.signal?.aborted) throw new ChatError('cancelled', 'The LLM request was cancelled.');
  const body: Record<string, unknown> = {
    model,
    messages: options.messages.map((m) => ({ role: m.role, content: m.content })),
    ...requestParameters(options.parameters, options.maxTokensField),
    stream: true,
  };
  if (options.includeUsage !== false) body.stream_options = { include_usage: true };
  const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'text/event-stream' };
  const apiKey = options.apiKey?.trim();
  if (apiKey) {
    if (/[^\x21-\x7e]/.test(apiKey))
      throw new ChatError(
        'auth',
        'The API key contains spaces, line breaks or non-ASCII characters and cannot be sent: set it again.',
      );
    headers.Authorization = `Bearer ${apiKey}`;
  }
  return { url, model, modelId, init: { method: 'POST', headers, body: JSON.stringify(body) } };
}

function httpError(
  response: Response,
  body: string,
  url: URL,
  model: string,
  options: ChatOptions,
  redact: (s: string) => string,
): ChatError {
  const status = response.status;
  const statusText = `${status}${response.statusText ? ` ${response.statusText}` : ''}`;
  // Redacted before it is clipped: a key cut in half by the clipping would no longer be found.
  const serverMessage = serviceMessage(redact(body), response.headers.get('content-type') ?? '');
  const said = serverMessage ? `: ${serverMessage.replace(/[.!?]$/, '')}` : '';
  const extra = { status, serverMessage };
  if (status === 401 || status === 403) {
    const hint =
      options.apiKeyHint ??
      (options.apiKey?.trim()
        ? 'Check the API key set for this endpoint.'
        : 'No API key is set: set the API key for this endpoint.');
    return new ChatError(
      'auth',
      redact(`The LLM endpoint rejected the request (${statusText})${said}. ${hint}`),
      extra,
    );
  }
  if (status === 404) {
    return new ChatError(
      'model-not-found',
      redact(
        `The LLM endpoint answered ${statusText} for model "${model}" at ${displayUrl(url)}${said}. Check the model mapping and that the base URL includes the API path (often /v1).`,
      ),
      extra,
    );
  }
  if (status === 429) {
    const retryAfterMs = parseRetryAfter(response.headers);
    const retry = retryAfterMs !== undefined ? ` Retry after ${formatDuration(retryAfterMs)}.` : ' Retry later.';
    return new ChatError(
      'rate-limit',
      redact(`The LLM endpoint is rate limiting requests (${statusText})${said}.${retry}`),
      { ...extra, retryAfterMs },
    );
  }
  if (status >= 500) {
    const retryAfterMs = parseRetryAfter(response.headers);
    return new ChatError('server', redact(`The LLM endpoint failed (${statusText})${said}.`), {
      ...extra,
      retryAfterMs,
    });
  }
  return new ChatError('http', redact(`The LLM endpoint refused the request (${statusText})${said}.`), extra);
}

/** The messages for a filled prompt: the prompt is sent as one user message. */
export function promptMessages(filledPrompt: string): ChatMessage[] {
  return [{ role: 'user', content: filledPrompt }];
}
