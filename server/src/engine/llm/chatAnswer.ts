// Reading an OpenAI-compatible chat answer: server-sent events (`stream: true`) or, from a server that
// ignored that, one completion object. The answer's text goes to `onDelta` as it arrives.
import { oneLine, readLimited, serviceMessage } from '../net';
import { ChatError, type ChatUsage } from './chatError';
import type { RequestClock } from './requestClock';
import { SseDecoder, type SseEvent } from './sse';

/** What a read that failed becomes: the clock's reason when it stopped the request, else a network error. */
export type ReadFailure = (error: unknown, stoppedPhase: string, brokenMessage: string) => ChatError;

export class ChatAnswer {
  text = '';
  finishReason: string | null = null;
  usage: ChatUsage | undefined;
  responseModel: string | undefined;
  /** `[DONE]` arrived, or the whole non-streamed answer was read. */
  done = false;

  constructor(
    private readonly onDelta: ((delta: string) => void) | undefined,
    private readonly redact: (text: string) => string,
  ) {}

  /** One completion chunk: a stream event's JSON, or a whole answer. */
  chunk(json: unknown): void {
    if (!json || typeof json !== 'object')
      throw new ChatError('protocol', 'The LLM endpoint sent a stream event that is not a JSON object.', {
        partialText: this.text,
      });
    const chunk = json as Record<string, unknown>;
    if (chunk.error !== undefined) {
      const msg = serviceMessage(this.redact(JSON.stringify(chunk))) ?? 'unknown error';
      throw new ChatError('server', `The LLM endpoint reported an error mid-stream: ${msg}`, {
        serverMessage: msg,
        partialText: this.text,
      });
    }
    if (typeof chunk.model === 'string') this.responseModel = chunk.model;
    if (chunk.usage && typeof chunk.usage === 'object') this.usage = chunk.usage as ChatUsage;
    const choices = Array.isArray(chunk.choices) ? (chunk.choices as Record<string, unknown>[]) : [];
    const choice = choices.find((c) => c && typeof c === 'object' && (c.index ?? 0) === 0);
    if (!choice) return;
    const delta = (choice.delta ?? choice.message) as Record<string, unknown> | undefined;
    if (delta && typeof delta.content === 'string' && delta.content) {
      this.text += delta.content;
      this.onDelta?.(delta.content);
    }
    if (typeof choice.finish_reason === 'string') this.finishReason = choice.finish_reason;
  }

  /** Server-sent events, up to `[DONE]`. */
  events(events: readonly SseEvent[]): void {
    for (const ev of events) {
      if (this.done) return;
      const data = ev.data.trim();
      if (data === '[DONE]') {
        this.done = true;
        return;
      }
      if (data === '') continue;
      let json: unknown;
      try {
        json = JSON.parse(data);
      } catch {
        const shown = (max: number): string => oneLine(this.redact(data), max);
        if (ev.event === 'error')
          throw new ChatError('server', `The LLM endpoint reported an error mid-stream: ${shown(300)}`, {
            serverMessage: shown(300),
            partialText: this.text,
          });
        throw new ChatError('protocol', `The LLM endpoint sent a stream event that is not JSON: ${shown(120)}`, {
          partialText: this.text,
        });
      }
      // An `error` event whose data lacks the `error` field is the error itself.
      const isObject = json !== null && typeof json === 'object';
      if (ev.event === 'error' && isObject && (json as Record<string, unknown>).error === undefined)
        json = { error: json };
      this.chunk(json);
    }
  }

  /** Reads an event stream to its end or to `[DONE]`, re-arming the clock on every piece. */
  async readStream(response: Response, clock: RequestClock, failed: ReadFailure): Promise<void> {
    if (!response.body) throw new ChatError('protocol', 'The LLM endpoint sent an empty response.');
    const decoder = new SseDecoder();
    const reader = response.body.getReader();
    try {
      for (;;) {
        let result: Awaited<ReturnType<typeof reader.read>>;
        try {
          result = await reader.read();
        } catch (e) {
          throw failed(
            e,
            this.text ? 'mid-answer' : 'before any answer arrived',
            'The connection to the LLM endpoint broke mid-stream',
          );
        }
        clock.arm();
        if (result.done) {
          this.events(decoder.end());
          break;
        }
        this.events(decoder.push(result.value));
        if (this.done) break;
      }
    } finally {
      if (this.done) reader.cancel().catch(() => undefined);
      else reader.releaseLock();
    }
  }

  /** Reads the one completion object of a server that did not stream. */
  async readWhole(response: Response, clock: RequestClock, failed: ReadFailure): Promise<void> {
    const raw = await readLimited(response, Number.POSITIVE_INFINITY, () => clock.arm()).catch((e: unknown) => {
      throw failed(e, 'while reading the answer', 'The connection broke while reading the answer');
    });
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      throw new ChatError('protocol', `The LLM endpoint answered with invalid JSON: ${oneLine(this.redact(raw), 200)}`);
    }
    this.chunk(json);
    this.done = true;
  }
}
