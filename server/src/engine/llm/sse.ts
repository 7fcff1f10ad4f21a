/**
 * An incremental parser of a `text/event-stream` body (WHATWG HTML, "Server-sent events"): lines end
 * in CRLF, LF or CR (a CRLF split across two chunks counts once), `:` starts a comment, `data` lines
 * of one event are joined with "\n", an empty line dispatches the event, one space after the colon is
 * dropped, a leading BOM is ignored. Feed it decoded text (see `SseDecoder` for bytes).
 *
 * One leniency: at the end of the stream an event whose terminating blank line never came is still
 * dispatched (the standard drops it; some servers end with `data: [DONE]\n` and close).
 */
export interface SseEvent {
  /** `event:` field, `message` when absent. */
  readonly event: string;
  readonly data: string;
  /** Last event id seen so far, if any. */
  readonly id: string | undefined;
}

export class SseParser {
  private buffer = '';
  private pendingCR = false;
  private started = false;
  private data: string[] = [];
  private hasData = false;
  private eventType = '';
  private lastId: string | undefined;

  /** Parses the next piece of text; returns the events completed by it. */
  push(text: string): SseEvent[] {
    if (text === '') return [];
    if (!this.started) {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    if (this.pendingCR) {
      this.pendingCR = false;
      if (text.charCodeAt(0) === 0x0a) text = text.slice(1); // second half of a CRLF split across pushes
    }
    const out: SseEvent[] = [];
    const buf = this.buffer + text;
    let start = 0;
    for (let i = start; i < buf.length; i++) {
      const c = buf.charCodeAt(i);
      if (c !== 0x0a && c !== 0x0d) continue;
      this.line(buf.slice(start, i), out);
      if (c === 0x0d) {
        if (i + 1 === buf.length) this.pendingCR = true;
        else if (buf.charCodeAt(i + 1) === 0x0a) i++;
      }
      start = i + 1;
    }
    this.buffer = buf.slice(start);
    return out;
  }

  /** Ends the stream: a last unterminated line and a pending event are dispatched. */
  end(): SseEvent[] {
    const out: SseEvent[] = [];
    if (this.buffer !== '') this.line(this.buffer, out);
    this.buffer = '';
    this.pendingCR = false;
    this.dispatch(out);
    return out;
  }

  private line(line: string, out: SseEvent[]): void {
    if (line === '') {
      this.dispatch(out);
      return;
    }
    if (line.charCodeAt(0) === 0x3a) return; // `:` comment
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.charCodeAt(0) === 0x20) value = value.slice(1);
    switch (field) {
      case 'data':
        this.data.push(value);
        this.hasData = true;
        break;
      case 'event':
        this.eventType = value;
        break;
      case 'id':
        if (!value.includes('\0')) this.lastId = value;
        break;
      default: // `retry` and unknown fields are ignored
    }
  }

  private dispatch(out: SseEvent[]): void {
    if (this.hasData) out.push({ event: this.eventType || 'message', data: this.data.join('\n'), id: this.lastId });
    this.data = [];
    this.hasData = false;
    this.eventType = '';
  }
}

/** Bytes in, events out: UTF-8 decoding that keeps a multi-byte character split across chunks intact. */
export class SseDecoder {
  private readonly decoder = new TextDecoder('utf-8');
  private readonly parser = new SseParser();

  push(bytes: Uint8Array): SseEvent[] {
    return this.parser.push(this.decoder.decode(bytes, { stream: true }));
  }

  end(): SseEvent[] {
    return [...this.parser.push(this.decoder.decode()), ...this.parser.end()];
  }
}
