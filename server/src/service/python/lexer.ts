// A lexical checker that follows CPython 3.11's tokenizer (Parser/tokenizer.c and the f-string
// scanner of Parser/string_parser.c): indentation (IndentationError, TabError), brackets, string and
// number literals, f-string structure and stray characters. The grammar (lezer) is error tolerant
// exactly where these rules live, so they are checked here, in one linear pass, and the first
// violation is reported the way CPython words it. Offsets are UTF-16 offsets into the source.

export interface LexError {
  start: number;
  end: number;
  message: string;
  /**
   * `tokenizer`: raised by CPython's tokenizer, which CPython runs to the end of the file after a
   * parser error, so such an error is the one CPython reports even when a parser error comes first.
   * `parser`: raised while parsing (a missing block, f-string and literal contents).
   * `indent`: an unexpected indent, which CPython reports without looking further.
   */
  kind: 'tokenizer' | 'parser' | 'indent';
  /** Where the faulty token starts, when the error is reported further on (an f-string's, at its end). */
  from?: number;
  /**
   * The faulty token runs to the end of the file (an unclosed bracket, an unterminated triple-quoted
   * string): whatever a parser made of the rest is an echo of this error.
   */
  toEnd?: boolean;
}

export interface LexResult {
  /** The first lexical error, as CPython would stop at it; undefined when the source lexes. */
  error?: LexError;
}

const enum C {
  Tab = 9,
  LF = 10,
  FF = 12,
  CR = 13,
  Space = 32,
  Bang = 33,
  DQuote = 34,
  Hash = 35,
  Dollar = 36,
  SQuote = 39,
  LParen = 40,
  RParen = 41,
  Dot = 46,
  Zero = 48,
  Nine = 57,
  Colon = 58,
  Lt = 60,
  Eq = 61,
  Gt = 62,
  Question = 63,
  LBracket = 91,
  Backslash = 92,
  RBracket = 93,
  Underscore = 95,
  Backtick = 96,
  LBrace = 123,
  RBrace = 125,
}

const OPEN: Record<number, number> = { [C.RParen]: C.LParen, [C.RBracket]: C.LBracket, [C.RBrace]: C.LBrace };
const BLOCK_KEYWORDS: Record<string, string> = {
  if: "'if' statement",
  elif: "'elif' statement",
  else: "'else' statement",
  for: "'for' statement",
  while: "'while' statement",
  with: "'with' statement",
  try: "'try' statement",
  except: "'except' statement",
  finally: "'finally' statement",
  def: 'function definition',
  class: 'class definition',
  match: "'match' statement",
  case: "'case' statement",
};
/** Keywords that may directly follow a number literal (CPython warns, but accepts). */
const AFTER_NUMBER = /^(and|else|for|if|in|is|not|or)(?![\p{ID_Continue}])/u;
const ID_START = /[\p{ID_Start}_]/u;
const ID_CONTINUE = /[\p{ID_Continue}]/u;
const NON_PRINTABLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Co}\p{Cn}]/u;

class Stop extends Error {
  constructor(readonly lexError: LexError | undefined) {
    super(lexError?.message ?? 'stop');
  }
}

function isDigit(c: number): boolean {
  return c >= C.Zero && c <= C.Nine;
}
function isAsciiIdStart(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === C.Underscore;
}
function isAsciiIdChar(c: number): boolean {
  return isAsciiIdStart(c) || isDigit(c);
}
function isHex(c: number): boolean {
  return isDigit(c) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
}
function codePointText(src: string, pos: number): string {
  return String.fromCodePoint(src.codePointAt(pos)!);
}
function hex4(cp: number): string {
  return cp.toString(16).toUpperCase().padStart(4, '0');
}

/**
 * Scans `src` like CPython 3.11's tokenizer and returns its first error, if any. With
 * `tokenizerOnly`, parser-level findings (unexpected indent, a missing block, stray `$`, f-string and
 * literal contents) are passed over the way CPython's tokenizer passes over them, and the result is
 * the first error of the tokenizer itself: the one CPython reports even after a parser error.
 */
export function lex(src: string, tokenizerOnly = false): LexResult {
  try {
    new Lexer(src, tokenizerOnly).run();
    return {};
  } catch (e) {
    if (e instanceof Stop) return e.lexError ? { error: e.lexError } : {};
    throw e;
  }
}

class Lexer {
  private pos = 0;
  private line = 1;
  /** Open brackets: character code, offset. */
  private readonly brackets: number[] = [];
  private readonly bracketPos: number[] = [];
  private readonly indents = [0];
  private readonly altIndents = [0];
  /** State of the current logical line. */
  private atLineStart = true;
  private lastWasColon = false;
  private lineKeyword = '';
  private lineStartLine = 1;
  private lineHasTokens = false;
  /** The previous logical line ended with ':' (a block header): its keyword and line. */
  private pendingBlock: { keyword: string; line: number } | undefined;

  constructor(
    private readonly src: string,
    private readonly tokenizerOnly = false,
  ) {}

  /**
   * An error the tokenizer signals without raising (indentation, line continuation): CPython reports
   * it where the parser meets it, and its scan to the end of the file stops there.
   */
  private halt(start: number, end: number, message: string): never {
    if (this.tokenizerOnly) throw new Stop(undefined);
    this.fail(start, end, message, 'parser');
  }

  /** A parser-level error: fatal normally, passed over in tokenizerOnly mode. */
  private soft(start: number, end: number, message: string, kind: LexError['kind'] = 'parser'): void {
    if (!this.tokenizerOnly) this.fail(start, end, message, kind);
  }

  private fail(
    start: number,
    end: number,
    message: string,
    kind: LexError['kind'] = 'tokenizer',
    toEnd = false,
  ): never {
    throw new Stop({ start, end: Math.max(end, start), message, kind, ...(toEnd ? { toEnd } : {}) });
  }

  run(): void {
    const src = this.src;
    const n = src.length;
    while (true) {
      if (this.atLineStart && this.brackets.length === 0) {
        if (this.indentation()) continue;
        if (this.pos >= n) break;
      }
      if (this.pos >= n) break;
      const c = src.charCodeAt(this.pos);
      if (c === C.Space || c === C.Tab || c === C.FF) {
        this.pos++;
        continue;
      }
      if (c === C.Hash) {
        while (this.pos < n && src.charCodeAt(this.pos) !== C.LF && src.charCodeAt(this.pos) !== C.CR) this.pos++;
        continue;
      }
      if (c === C.LF || c === C.CR) {
        this.newline(c);
        if (this.brackets.length === 0 && this.lineHasTokens) this.endLogicalLine();
        continue;
      }
      if (c === C.Backslash) {
        const next = src.charCodeAt(this.pos + 1);
        if (this.pos + 1 >= n) this.halt(this.pos, this.pos + 1, 'unexpected EOF while parsing');
        if (next !== C.LF && next !== C.CR)
          this.halt(this.pos, this.pos + 1, 'unexpected character after line continuation character');
        this.pos++;
        this.newline(src.charCodeAt(this.pos));
        this.atLineStart = false;
        if (this.pos >= n) this.halt(this.pos - 1, this.pos, 'unexpected EOF while parsing');
        continue;
      }
      this.token(c);
    }
    // End of input.
    if (this.brackets.length) {
      const at = this.bracketPos[this.bracketPos.length - 1];
      const open = String.fromCharCode(this.brackets[this.brackets.length - 1]);
      this.fail(at, at + 1, `'${open}' was never closed`, 'tokenizer', true);
    }
    if (this.lineHasTokens) this.endLogicalLine();
    if (this.pendingBlock) this.expectedBlock(n, n);
  }

  private newline(c: number): void {
    this.pos++;
    if (c === C.CR && this.src.charCodeAt(this.pos) === C.LF) this.pos++;
    this.line++;
    if (this.brackets.length === 0) this.atLineStart = true;
  }

  private endLogicalLine(): void {
    this.pendingBlock = this.lastWasColon ? { keyword: this.lineKeyword, line: this.lineStartLine } : undefined;
    this.lineHasTokens = false;
    this.lastWasColon = false;
    this.lineKeyword = '';
  }

  private expectedBlock(start: number, end: number): void {
    const block = this.pendingBlock!;
    const what = BLOCK_KEYWORDS[block.keyword];
    this.soft(
      start,
      end,
      what ? `expected an indented block after ${what} on line ${block.line}` : 'expected an indented block',
    );
  }

  /** Handles the indentation of a physical line that starts a logical line; true if it consumed a blank line. */
  private indentation(): boolean {
    const src = this.src;
    const n = src.length;
    let col = 0;
    let altcol = 0;
    let p = this.pos;
    for (; p < n; p++) {
      const c = src.charCodeAt(p);
      if (c === C.Space) {
        col++;
        altcol++;
      } else if (c === C.Tab) {
        col = (Math.floor(col / 8) + 1) * 8;
        altcol++;
      } else if (c === C.FF) {
        col = altcol = 0;
      } else break;
    }
    const c = p < n ? src.charCodeAt(p) : -1;
    if (c === C.Hash || c === C.LF || c === C.CR) {
      // Blank or comment-only line: no indentation meaning.
      this.pos = p;
      while (this.pos < n && src.charCodeAt(this.pos) !== C.LF && src.charCodeAt(this.pos) !== C.CR) this.pos++;
      if (this.pos < n) this.newline(src.charCodeAt(this.pos));
      return true;
    }
    // A continuation right after the indentation: the line's indentation counts, and CPython reports
    // a mismatch at the end of the line it joins.
    const continued =
      c === C.Backslash && p + 1 < n && (src.charCodeAt(p + 1) === C.LF || src.charCodeAt(p + 1) === C.CR);
    this.atLineStart = false;
    this.pos = p;
    // …unless the line it joins is blank: then it is a blank line too.
    if (continued && !src.slice(p + 1, this.joinedLineEnd(p)).trim()) return false;
    if (c < 0) {
      // End of input: the parser dedents everything; only a block still expected is reported.
      if (this.pendingBlock) this.expectedBlock(p, p);
      return false;
    }
    const indents = this.indents;
    const alt = this.altIndents;
    const top = indents[indents.length - 1];
    if (col === top) {
      if (altcol !== alt[alt.length - 1])
        this.halt(p - (p > 0 ? 1 : 0), p, 'inconsistent use of tabs and spaces in indentation');
      if (this.pendingBlock) this.expectedBlock(p, this.wordEnd(p));
    } else if (col > top) {
      if (altcol <= alt[alt.length - 1]) this.halt(p - 1, p, 'inconsistent use of tabs and spaces in indentation');
      // CPython points at the indentation's last character.
      if (!this.pendingBlock) this.soft(p - 1, this.wordEnd(p), 'unexpected indent', 'indent');
      indents.push(col);
      alt.push(altcol);
    } else {
      if (this.pendingBlock) this.expectedBlock(p, this.wordEnd(p));
      while (indents.length > 1 && col < indents[indents.length - 1]) {
        indents.pop();
        alt.pop();
      }
      if (col !== indents[indents.length - 1]) {
        const end = continued ? this.joinedLineEnd(p) : p;
        this.halt(continued ? end - 1 : this.lineStart(p), end, 'unindent does not match any outer indentation level');
      }
      if (altcol !== alt[alt.length - 1])
        this.halt(this.lineStart(p), p, 'inconsistent use of tabs and spaces in indentation');
    }
    this.pendingBlock = undefined;
    return false;
  }

  /** The end of the line that the continuation (a backslash) at `p` joins. */
  private joinedLineEnd(p: number): number {
    let e = p + (this.src.charCodeAt(p + 1) === C.CR && this.src.charCodeAt(p + 2) === C.LF ? 3 : 2);
    while (e < this.src.length && this.src.charCodeAt(e) !== C.LF && this.src.charCodeAt(e) !== C.CR) e++;
    return e;
  }

  private lineStart(p: number): number {
    let s = p;
    while (s > 0 && this.src.charCodeAt(s - 1) !== C.LF && this.src.charCodeAt(s - 1) !== C.CR) s--;
    return s;
  }

  private wordEnd(p: number): number {
    let e = p;
    while (e < this.src.length && isAsciiIdChar(this.src.charCodeAt(e))) e++;
    return e === p ? p + 1 : e;
  }

  private startToken(keyword: string, start: number): void {
    if (!this.lineHasTokens) {
      this.lineHasTokens = true;
      this.lineKeyword = keyword;
      this.lineStartLine = this.lineOf(start);
      if (keyword === 'async') this.asyncPending = true;
    } else if (this.asyncPending) {
      this.lineKeyword = keyword;
      this.asyncPending = false;
    }
  }
  private asyncPending = false;

  private lineOf(_offset: number): number {
    return this.line;
  }

  private token(c: number): void {
    const src = this.src;
    const start = this.pos;
    this.lastWasColon = false;
    // Identifiers, keywords and string prefixes.
    if (isAsciiIdStart(c) || (c > 127 && ID_START.test(codePointText(src, start)))) {
      let p = start + (src.codePointAt(start)! > 0xffff ? 2 : 1);
      while (p < src.length) {
        const d = src.charCodeAt(p);
        if (isAsciiIdChar(d)) p++;
        else if (d > 127 && ID_CONTINUE.test(codePointText(src, p))) p += src.codePointAt(p)! > 0xffff ? 2 : 1;
        else break;
      }
      const word = src.slice(start, p);
      const q = src.charCodeAt(p);
      if ((q === C.SQuote || q === C.DQuote) && /^(?:[rRuUfFbB]|[rR][bBfF]|[bBfF][rR])$/.test(word)) {
        this.startToken('', start);
        this.pos = p;
        this.string(start, word.toLowerCase());
        return;
      }
      this.startToken(word, start);
      this.pos = p;
      return;
    }
    if (c === C.SQuote || c === C.DQuote) {
      this.startToken('', start);
      this.string(start, '');
      return;
    }
    if (isDigit(c) || (c === C.Dot && isDigit(src.charCodeAt(start + 1)))) {
      this.startToken('', start);
      this.number(start);
      return;
    }
    this.startToken('', start);
    switch (c) {
      case C.LParen:
      case C.LBracket:
      case C.LBrace:
        this.brackets.push(c);
        this.bracketPos.push(start);
        this.pos++;
        return;
      case C.RParen:
      case C.RBracket:
      case C.RBrace: {
        const ch = String.fromCharCode(c);
        if (!this.brackets.length) this.fail(start, start + 1, `unmatched '${ch}'`);
        const open = this.brackets.pop()!;
        const openPos = this.bracketPos.pop()!;
        if (open !== OPEN[c]) {
          // Line of the opening bracket, when it differs: CPython names it.
          let openLine = 1;
          for (let i = 0; i < openPos; i++) {
            const d = src.charCodeAt(i);
            if (d === C.LF || (d === C.CR && src.charCodeAt(i + 1) !== C.LF)) openLine++;
          }
          const where = openLine !== this.line ? ` on line ${openLine}` : '';
          this.fail(
            start,
            start + 1,
            `closing parenthesis '${ch}' does not match opening parenthesis '${String.fromCharCode(open)}'${where}`,
          );
        }
        this.pos++;
        return;
      }
      case C.Colon:
        this.pos++;
        if (src.charCodeAt(this.pos) === C.Eq) this.pos++;
        else this.lastWasColon = true;
        return;
      case C.Bang:
        if (src.charCodeAt(start + 1) !== C.Eq) this.soft(start, start + 1, 'invalid syntax');
        this.pos++;
        return;
      case C.Lt:
        if (src.charCodeAt(start + 1) === C.Gt) this.soft(start, start + 2, 'invalid syntax');
        this.pos++;
        return;
      case C.Dollar:
      case C.Question:
      case C.Backtick:
        this.soft(start, start + 1, 'invalid syntax');
        this.pos++;
        return;
    }
    if (c === 0) this.fail(start, start + 1, 'source code cannot contain null bytes');
    if (c < 128) {
      if (c < 32 || c === 127) this.fail(start, start + 1, `invalid non-printable character U+${hex4(c)}`);
      this.pos++; // operators and delimiters: the grammar checks their use
      return;
    }
    const cp = src.codePointAt(start)!;
    const width = cp > 0xffff ? 2 : 1;
    if (NON_PRINTABLE.test(codePointText(src, start)))
      this.fail(start, start + width, `invalid non-printable character U+${hex4(cp)}`);
    this.fail(start, start + width, `invalid character '${codePointText(src, start)}' (U+${hex4(cp)})`);
  }

  private number(start: number): void {
    const src = this.src;
    let p = start;
    const at = (i: number) => src.charCodeAt(i);
    const digits = (isOk: (c: number) => boolean, kind: string, allowLeadingUnderscore: boolean): void => {
      // A run of digits with single underscores between them.
      let first = true;
      while (true) {
        const c = at(p);
        if (c === C.Underscore && (!first || allowLeadingUnderscore)) {
          p++;
          if (!isOk(at(p))) this.fail(start, p + 1, `invalid ${kind} literal`);
        } else if (isOk(c)) p++;
        else break;
        first = false;
      }
    };
    const end = (kind: string): void => {
      const c = at(p);
      const isId = isAsciiIdChar(c) || (c > 127 && ID_CONTINUE.test(codePointText(src, p)));
      if (isId && !AFTER_NUMBER.test(src.slice(p, p + 4))) this.fail(start, p + 1, `invalid ${kind} literal`);
      this.pos = p;
    };
    if (at(p) === C.Zero && /[xXoObB]/.test(src[p + 1] ?? '')) {
      const k = src[p + 1].toLowerCase();
      p += 2;
      const kind = k === 'x' ? 'hexadecimal' : k === 'o' ? 'octal' : 'binary';
      const ok =
        k === 'x' ? isHex : k === 'o' ? (c: number) => c >= 48 && c <= 55 : (c: number) => c === 48 || c === 49;
      if (!ok(at(p)) && at(p) !== C.Underscore) {
        if (isDigit(at(p)) && k !== 'x') this.fail(start, p + 1, `invalid digit '${src[p]}' in ${kind} literal`);
        this.fail(start, p + 1, `invalid ${kind} literal`);
      }
      digits(ok, kind, true);
      if (k !== 'x' && isDigit(at(p))) this.fail(start, p + 1, `invalid digit '${src[p]}' in ${kind} literal`);
      end(kind);
      return;
    }
    let isFloat = false;
    const intStart = p;
    if (at(p) !== C.Dot) digits(isDigit, 'decimal', false);
    const intPart = src.slice(intStart, p);
    if (at(p) === C.Dot) {
      isFloat = true;
      p++;
      if (isDigit(at(p))) digits(isDigit, 'decimal', false);
    }
    if (at(p) === 101 || at(p) === 69) {
      const save = p;
      p++;
      if (at(p) === 43 || at(p) === 45) p++;
      if (isDigit(at(p))) {
        isFloat = true;
        digits(isDigit, 'decimal', false);
      } else {
        p = save;
        end('decimal');
        return;
      }
    }
    if (at(p) === 106 || at(p) === 74) {
      p++;
      end('imaginary');
      return;
    }
    if (!isFloat && /^0[0_]*[1-9]/.test(intPart)) {
      this.fail(
        start,
        p,
        'leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers',
      );
    }
    end('decimal');
  }

  /** A string literal whose prefix (lower case) ends at this.pos, at a quote. */
  private string(start: number, prefix: string): void {
    const src = this.src;
    const n = src.length;
    const q = src.charCodeAt(this.pos);
    const triple = src.charCodeAt(this.pos + 1) === q && src.charCodeAt(this.pos + 2) === q;
    const qlen = triple ? 3 : 1;
    const raw = prefix.includes('r');
    const bytes = prefix.includes('b');
    const fstr = prefix.includes('f');
    let p = this.pos + qlen;
    const bodyStart = p;
    let bodyEnd = -1;
    let firstEscape = -1;
    while (p < n) {
      const c = src.charCodeAt(p);
      if (c === q && (!triple || (src.charCodeAt(p + 1) === q && src.charCodeAt(p + 2) === q))) {
        bodyEnd = p;
        p += qlen;
        break;
      }
      if (c === C.Backslash) {
        const d = src.charCodeAt(p + 1);
        if (d === C.CR || d === C.LF) {
          p += d === C.CR && src.charCodeAt(p + 2) === C.LF ? 3 : 2;
          this.line++;
          continue;
        }
        if (firstEscape < 0) firstEscape = p;
        p += p + 1 < n ? 2 : 1;
        continue;
      }
      if (c === C.LF || c === C.CR) {
        if (!triple) break;
        if (c === C.CR && src.charCodeAt(p + 1) === C.LF) p++;
        this.line++;
      } else if (bytes && c > 127) {
        this.soft(start, start + 1, 'bytes can only contain ASCII literal characters');
      }
      p++;
    }
    if (bodyEnd < 0) {
      // CPython counts the line the end of input is on; a final newline does not start another.
      const last = src.charCodeAt(n - 1);
      const detected = triple && p >= n && (last === C.LF || last === C.CR) ? this.line - 1 : this.line;
      this.fail(
        start,
        start + prefix.length + qlen,
        `unterminated ${triple ? 'triple-quoted ' : ''}string literal (detected at line ${detected})`,
        'tokenizer',
        triple,
      );
    }
    if (firstEscape >= 0 && !raw && !fstr && !this.tokenizerOnly) {
      for (let k = firstEscape; k < bodyEnd; k++) {
        if (src.charCodeAt(k) !== C.Backslash) continue;
        const message = this.escape(k, bytes, bodyStart, bodyEnd);
        // Reported, as CPython does, at the end of the string (of all strings concatenated).
        if (message) {
          const at = this.afterStrings(p);
          this.fail(at - 1, at, message, 'parser');
        }
        k++;
      }
    }
    if (fstr && !this.tokenizerOnly) {
      try {
        this.fstring(start, bodyStart, bodyEnd, raw);
      } catch (e) {
        // CPython places an f-string's errors after the string (after all strings concatenated).
        if (!(e instanceof Stop) || !e.lexError) throw e;
        const at = this.afterStrings(p);
        throw new Stop({ ...e.lexError, start: at - 1, end: at, from: e.lexError.from ?? start });
      }
    }
    this.pos = p;
  }

  /**
   * Where CPython reports an error in a string literal's contents: at the token after it and the
   * strings concatenated to it (the offset before that token, so that the range stays on the string).
   */
  private afterStrings(p: number): number {
    let q = this.concatenationEnd(p);
    while (q < this.src.length && /[ \t\f]/.test(this.src[q])) q++;
    return q;
  }

  /** The end of the string literals implicitly concatenated to the one ending at `p`. */
  private concatenationEnd(p: number): number {
    const src = this.src;
    const gap = this.brackets.length ? /^(?:[ \t\f\r\n]|\\\r?\n|#[^\r\n]*)*/ : /^(?:[ \t\f]|\\\r?\n)*/;
    for (;;) {
      const q = p + gap.exec(src.slice(p, p + 4096))![0].length;
      const m = /^[rRbBuUfF]{0,2}('''|"""|'|")/.exec(src.slice(q, q + 5));
      if (!m) return p;
      const quote = m[1];
      let k = q + m[0].length;
      while (k < src.length && !src.startsWith(quote, k)) {
        if (quote.length === 1 && (src[k] === '\n' || src[k] === '\r')) return p;
        k += src[k] === '\\' ? 2 : 1;
      }
      if (k >= src.length) return p;
      p = k + quote.length;
    }
  }

  /**
   * CPython's error for the escape sequence at `p` (a backslash) of a non-raw literal whose body is
   * [from, to), or undefined. Positions count as CPython's decoder does: each non-ASCII character of
   * the body as the ten characters of its `\UXXXXXXXX` form.
   */
  private escape(p: number, bytes: boolean, from: number, to: number): string | undefined {
    const src = this.src;
    const d = src[p + 1];
    // Counted only for an error: every escape of a string comes here.
    const position = () => {
      let at = 0;
      for (const ch of src.slice(from, p)) at += ch.codePointAt(0)! > 127 ? 10 : 1;
      return at;
    };
    const codec = (last: number, what: string) => {
      const at = position();
      return `(unicode error) 'unicodeescape' codec can't decode bytes in position ${at}-${at + last}: ${what}`;
    };
    const need = d === 'x' ? 2 : !bytes && d === 'u' ? 4 : !bytes && d === 'U' ? 8 : 0;
    if (need) {
      let k = 0;
      while (k < need && p + 2 + k < to && isHex(src.charCodeAt(p + 2 + k))) k++;
      if (k < need)
        return bytes
          ? `(value error) invalid \\x escape at position ${position()}`
          : codec(1 + k, `truncated \\${d}${'X'.repeat(need)} escape`);
      if (d === 'U' && parseInt(src.slice(p + 2, p + 10), 16) > 0x10ffff) return codec(9, 'illegal Unicode character');
    } else if (!bytes && d === 'N') {
      const close = src.indexOf('}', p + 3);
      const named = src[p + 2] === '{' && close >= 0 && close < to;
      if (!named || close === p + 3) {
        const last = src[p + 2] !== '{' ? 1 : named ? close - p : to - 1 - p;
        return codec(last, 'malformed \\N character escape');
      }
    }
    return undefined;
  }

  /** CPython 3.11's f-string rules for the body [from, to) of an f-string literal starting at `start`. */
  private fstring(start: number, from: number, to: number, raw: boolean, depth = 0): void {
    const src = this.src;
    let p = from;
    while (p < to) {
      const c = src.charCodeAt(p);
      if (!raw && c === C.Backslash && depth === 0) {
        // `\{` is a backslash before a replacement field (CPython keeps the backslash).
        const brace = src.charCodeAt(p + 1) === C.LBrace || src.charCodeAt(p + 1) === C.RBrace;
        const message = brace ? undefined : this.escape(p, false, from, to);
        if (message) this.fail(start, p + 2, message, 'parser');
        p += brace ? 1 : 2;
        continue;
      }
      if (c === C.LBrace) {
        if (depth === 0 && src.charCodeAt(p + 1) === C.LBrace) {
          p += 2;
          continue;
        }
        p = this.replacement(start, p + 1, to, raw, depth);
        continue;
      }
      if (c === C.RBrace) {
        if (depth === 0 && src.charCodeAt(p + 1) === C.RBrace) {
          p += 2;
          continue;
        }
        this.fail(start, p + 1, "f-string: single '}' is not allowed", 'parser');
      }
      p++;
    }
  }

  /** A replacement field whose expression starts at `p`; returns the offset after its '}'. */
  private replacement(start: number, p: number, to: number, raw: boolean, depth: number): number {
    const src = this.src;
    if (depth >= 2) this.fail(start, p, 'f-string: expressions nested too deeply', 'parser');
    const exprStart = p;
    const nest: number[] = [];
    let quote = 0;
    let tripleQuote = false;
    for (; p < to; p++) {
      const c = src.charCodeAt(p);
      if (c === C.Backslash) this.fail(start, p + 1, 'f-string expression part cannot include a backslash', 'parser');
      if (quote) {
        if (c === quote && (!tripleQuote || (src.charCodeAt(p + 1) === quote && src.charCodeAt(p + 2) === quote))) {
          if (tripleQuote) p += 2;
          quote = 0;
        }
        continue;
      }
      if (c === C.SQuote || c === C.DQuote) {
        quote = c;
        tripleQuote = src.charCodeAt(p + 1) === c && src.charCodeAt(p + 2) === c;
        if (tripleQuote) p += 2;
        continue;
      }
      if (c === C.LParen || c === C.LBracket || c === C.LBrace) {
        nest.push(c);
        continue;
      }
      if (c === C.RParen || c === C.RBracket || c === C.RBrace) {
        if (nest.length) {
          const open = nest.pop()!;
          if (open !== OPEN[c])
            this.fail(
              start,
              p + 1,
              `f-string: closing parenthesis '${String.fromCharCode(c)}' does not match opening parenthesis '${String.fromCharCode(open)}'`,
              'parser',
            );
          continue;
        }
        if (c !== C.RBrace) this.fail(start, p + 1, `f-string: unmatched '${String.fromCharCode(c)}'`, 'parser');
        break;
      }
      if (c === C.Hash) this.fail(start, p + 1, "f-string expression part cannot include '#'", 'parser');
      if (nest.length) continue;
      if (c === C.Bang && src.charCodeAt(p + 1) !== C.Eq) break;
      if (c === C.Colon) break;
      if (c === C.Eq && src.charCodeAt(p + 1) !== C.Eq && !/[=!<>]/.test(src[p - 1] ?? '')) {
        // `{x=}` self-documenting expression: only whitespace may follow before !, : or }.
        if (!src.slice(exprStart, p).trim())
          this.fail(start, p + 1, "f-string: expression required before '='", 'parser');
        let k = p + 1;
        while (k < to && /\s/.test(src[k])) k++;
        if (k < to && /[!:}]/.test(src[k])) {
          p = k - 1;
          continue;
        }
        // CPython ends the expression at this '=' and compiles it before it looks for the '}': an
        // error in the expression (the parser's, before `from`) is the one reported.
        throw new Stop({ start, end: k + 1, message: "f-string: expecting '}'", kind: 'parser', from: p });
      }
    }
    if (quote) this.fail(start, p, 'f-string: unterminated string', 'parser');
    if (p >= to) this.fail(start, to, "f-string: expecting '}'", 'parser');
    if (!src.slice(exprStart, p).trim()) {
      const next = src[p];
      const message =
        next === '!' || next === ':'
          ? `f-string: expression required before '${next}'`
          : 'f-string: empty expression not allowed';
      this.fail(start, p + 1, message, 'parser');
    }
    if (src.charCodeAt(p) === C.Bang) {
      const conv = src[p + 1];
      if (!conv || !/[sra]/.test(conv) || p + 1 >= to)
        this.fail(start, p + 2, "f-string: invalid conversion character: expected 's', 'r', or 'a'", 'parser');
      p += 2;
      if (p >= to || !/[:}]/.test(src[p])) this.fail(start, p + 1, "f-string: expecting '}'", 'parser');
    }
    if (src.charCodeAt(p) === C.Colon) {
      p++;
      // Format spec: literal text with nested replacement fields, up to the closing '}'.
      while (p < to) {
        const c = src.charCodeAt(p);
        if (c === C.LBrace) {
          p = this.replacement(start, p + 1, to, raw, depth + 1);
          continue;
        }
        if (c === C.RBrace) break;
        p++;
      }
      if (p >= to) this.fail(start, to, "f-string: expecting '}'", 'parser');
    }
    return p + 1;
  }
}
