// The contract the service holds `execute` to: a plain function of one parameter named `variables`
// that returns a `str` on every path (as far as a simple analysis of its body sees).
import type { SyntaxNode } from '@lezer/common';
import type { RelExecute, RelProblem } from './chunkFacts';
import { children, unparenthesized, type Chunk } from './syntaxNodes';

export interface ParamInfo {
  name: string;
  kind: 'positional' | 'positional-only' | 'keyword-only' | 'varargs' | 'kwargs' | 'marker';
  hasDefault: boolean;
}

/** A top-level `def execute` as the walk found it. */
export interface ExecuteDefinition {
  readonly node: SyntaxNode;
  readonly name: SyntaxNode;
  readonly isAsync: boolean;
  readonly params: SyntaxNode | undefined;
  readonly info: readonly ParamInfo[];
  readonly body: SyntaxNode | undefined;
  /** Whether its body (not a nested function's) yields: then it returns a generator. */
  readonly yields: boolean;
}

export function checkExecute(chunk: Chunk, def: ExecuteDefinition): RelExecute {
  const { node, name, isAsync, params, info, body, yields } = def;
  const problems: RelProblem[] = [];
  const at = (n: SyntaxNode, code: 'execute-async' | 'execute-returns-non-string', message: string) =>
    problems.push({ code, start: chunk.rel(n.from), end: chunk.rel(n.to), message });
  if (isAsync) {
    const kw = node.firstChild!;
    at(
      kw,
      'execute-async',
      "'execute' must not be async: the service calls it as a plain function. Remove 'async' (and any 'await' inside).",
    );
  }
  const positional = info.filter((p) => p.kind === 'positional');
  const ok =
    info.length === 1 && positional.length === 1 && positional[0].name === 'variables' && !positional[0].hasDefault;
  if (!ok && params) {
    let why: string;
    if (info.length === 0) why = 'it takes no parameters';
    else if (positional.length === 1 && positional[0].name !== 'variables' && info.length === 1)
      why = `its parameter is named '${positional[0].name}'`;
    else if (info.some((p) => p.kind !== 'positional'))
      why = 'it takes *args, **kwargs, keyword-only or positional-only markers';
    else if (positional.some((p) => p.hasDefault)) why = 'its parameter has a default value';
    else why = `it takes ${info.length} parameters`;
    problems.push({
      code: 'execute-signature',
      start: chunk.rel(params.from),
      end: chunk.rel(params.to),
      message: `'execute' must take exactly one positional parameter named 'variables', but ${why}.`,
      data: { expected: '(variables)' },
    });
  }
  if (yields) {
    at(name, 'execute-returns-non-string', "'execute' contains 'yield', so it returns a generator, not a 'str'.");
  }
  if (body && !yields) {
    returns(chunk, body, problems);
    if (!terminates(chunk, body)) {
      at(
        name,
        'execute-returns-non-string',
        "'execute' can reach the end of its body without a 'return', and then returns 'None', not a 'str'.",
      );
    }
  }
  return { nameStart: chunk.rel(name.from), nameEnd: chunk.rel(name.to), async: isAsync, problems };
}

/** Flags `return` statements of `execute` (not of nested functions) whose value is visibly not a str. */
function returns(chunk: Chunk, node: SyntaxNode, problems: RelProblem[]): void {
  for (let c = node.firstChild; c; c = c.nextSibling) {
    if (
      c.name === 'FunctionDefinition' ||
      c.name === 'ClassDefinition' ||
      c.name === 'DecoratedStatement' ||
      c.name === 'LambdaExpression'
    )
      continue;
    if (c.name === 'ReturnStatement') {
      const kids = children(c).slice(1);
      let what: string | undefined;
      if (!kids.length) what = "a bare 'return' returns 'None'";
      else if (kids.some((k) => k.name === ',')) what = 'it returns a tuple';
      else {
        const v = unparenthesized(kids[0]);
        const kinds: Record<string, string> = {
          Number: 'a number',
          None: "'None'",
          Boolean: 'a bool',
          ArrayExpression: 'a list',
          ArrayComprehensionExpression: 'a list',
          DictionaryExpression: 'a dict',
          DictionaryComprehensionExpression: 'a dict',
          SetExpression: 'a set',
          SetComprehensionExpression: 'a set',
          TupleExpression: 'a tuple',
        };
        if (kinds[v.name]) what = `it returns ${kinds[v.name]}`;
        else if (v.name === 'String' && /^[rR]?[bB]/.test(chunk.text(v))) what = 'it returns bytes';
      }
      if (what) {
        problems.push({
          code: 'execute-returns-non-string',
          start: chunk.rel(c.from),
          end: chunk.rel(c.to),
          message: `'execute' must return a 'str', but ${what}.`,
        });
      }
      continue;
    }
    returns(chunk, c, problems);
  }
}

/** Whether every path through a Body ends in return/raise (as far as a simple analysis sees). */
function terminates(chunk: Chunk, body: SyntaxNode): boolean {
  let last: SyntaxNode | null = body.lastChild;
  while (last && (last.name === 'Comment' || last.name === '⚠' || last.name === ':')) last = last.prevSibling;
  if (!last) return false;
  return stmtTerminates(chunk, last);
}

function stmtTerminates(chunk: Chunk, s: SyntaxNode): boolean {
  switch (s.name) {
    case 'ReturnStatement':
    case 'RaiseStatement':
      return true;
    case 'StatementGroup': {
      const kids = children(s).filter((k) => k.name !== ';');
      return kids.length > 0 && stmtTerminates(chunk, kids[kids.length - 1]);
    }
    case 'ExpressionStatement':
      return /^(?:sys\.exit|exit|quit|os\._exit|os\.abort)\s*\(/.test(chunk.text(s));
    case 'IfStatement': {
      const kids = children(s);
      const bodies = kids.filter((k) => k.name === 'Body');
      return kids.some((k) => k.name === 'else') && bodies.every((b) => terminates(chunk, b));
    }
    case 'WithStatement': {
      const b = children(s).find((k) => k.name === 'Body');
      return !!b && terminates(chunk, b);
    }
    case 'TryStatement': {
      const kids = children(s);
      const bodies: { after: string; body: SyntaxNode }[] = [];
      let after = 'try';
      for (const k of kids) {
        if (k.name === 'try' || k.name === 'except' || k.name === 'else' || k.name === 'finally') after = k.name;
        if (k.name === 'Body') bodies.push({ after, body: k });
      }
      const fin = bodies.find((b) => b.after === 'finally');
      if (fin && terminates(chunk, fin.body)) return true;
      const main = bodies.filter((b) => b.after !== 'finally');
      const tryBody = main.find((b) => b.after === 'try');
      const elseBody = main.find((b) => b.after === 'else');
      const handlers = main.filter((b) => b.after === 'except');
      const mainOk =
        (elseBody ? terminates(chunk, elseBody.body) : false) || (!!tryBody && terminates(chunk, tryBody.body));
      return mainOk && handlers.every((h) => terminates(chunk, h.body));
    }
    case 'WhileStatement': {
      const kids = children(s);
      const cond = kids[1];
      if (!cond || !/^(True|1)$/.test(chunk.text(cond))) return false;
      const b = kids.find((k) => k.name === 'Body');
      let breaks = false;
      if (b) {
        const visit = (n: SyntaxNode) => {
          for (let c = n.firstChild; c && !breaks; c = c.nextSibling) {
            if (c.name === 'BreakStatement') breaks = true;
            else if (
              ![
                'ForStatement',
                'WhileStatement',
                'FunctionDefinition',
                'ClassDefinition',
                'DecoratedStatement',
              ].includes(c.name)
            )
              visit(c);
          }
        };
        visit(b);
      }
      return !breaks;
    }
    case 'MatchStatement': {
      const clauses: SyntaxNode[] = [];
      const collect = (n: SyntaxNode) => {
        for (let c = n.firstChild; c; c = c.nextSibling) {
          if (c.name === 'MatchClause') clauses.push(c);
          else if (c.name === 'MatchBody') collect(c);
        }
      };
      collect(s);
      if (!clauses.length) return false;
      const lastClause = clauses[clauses.length - 1];
      const pat = lastClause.firstChild?.nextSibling;
      const irrefutable =
        !!pat && pat.name === 'CapturePattern' && !children(lastClause).some((k) => k.name === 'Guard');
      return (
        irrefutable &&
        clauses.every((c) => {
          const b = children(c).find((k) => k.name === 'Body');
          return !!b && terminates(chunk, b);
        })
      );
    }
    default:
      return false;
  }
}
