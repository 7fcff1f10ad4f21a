// One walk over a top-level chunk of Python in the order CPython's checks see it: statements, the
// scopes they open, the targets they bind, the expressions they read. What each concern checks or
// collects lives in a visitor (analyze.ts lists them); the walk tells them what it meets.
import type { SyntaxNode } from '@lezer/common';
import { checkArguments } from '../arguments';
import type { ChunkFacts } from '../chunkFacts';
import { checkParameters, type ParameterCheck } from '../parameters';
import { comprehensionClauses, importedNames } from '../statementForms';
import { SymbolFlag } from '../symbolFlags';
import { children, Chunk, COMPREHENSIONS, containsError, firstError, split, unparenthesized } from '../syntaxNodes';
import type { Scope } from './scope';
import { SyntaxProblems } from './syntaxProblems';
import { dispatchOf, type AnyVisitor, type BindHow, type Dispatch, type Handler, type TargetContext } from './visitor';

/** An assignment statement taken apart: its target groups (`a = b = value`) and its value. */
export interface Assignment {
  readonly node: SyntaxNode;
  readonly targets: SyntaxNode[][];
  readonly value: SyntaxNode[];
}

export class ChunkWalk {
  readonly chunk: Chunk;
  readonly problems: SyntaxProblems;
  readonly facts: ChunkFacts = {
    keys: [],
    dynamicVariables: false,
    imports: [],
    functions: [],
    executes: [],
    nestedExecute: false,
    boundExecute: false,
    secrets: [],
    first: 'none',
    futures: [],
  };
  private readonly scopeStack: Scope[] = [{ kind: 'module', async: false }];
  /** Inside a comprehension's iterable expression (nested scopes included, as CPython's symtable). */
  private iterableDepth = 0;
  /** Walking a comprehension's `for` targets. */
  private iterationTarget = false;
  /** The try statements whose `try:` body holds the walk, innermost last. */
  private readonly tryStack: SyntaxNode[] = [];
  /** The top-level statement being walked holds a grammar error (else none of its parts does). */
  private inBroken = false;
  /** Each visitor's record for this chunk. */
  private readonly records: never[];
  private readonly dispatch: Dispatch;
  private lastAssignment?: Assignment;
  private lastChildren?: { node: SyntaxNode; kids: SyntaxNode[] };

  /**
   * @param src the whole source; `base` the chunk's offset in it; `text` the chunk's text
   * @param nodes the top-level nodes of the chunk (positions absolute)
   */
  constructor(
    src: string,
    base: number,
    readonly text: string,
    readonly nodes: readonly SyntaxNode[],
    private readonly visitors: readonly AnyVisitor[],
  ) {
    this.chunk = new Chunk(src, base);
    this.problems = new SyntaxProblems(this.chunk);
    this.records = visitors.map((v) => v.start(this) as never);
    this.dispatch = dispatchOf(visitors);
  }

  run(): ChunkFacts {
    for (const node of this.nodes) {
      const err = firstError(node);
      this.inBroken = !!err;
      if (err) this.grammarError(err);
      this.statement(node);
    }
    for (let i = 0; i < this.visitors.length; i++) this.visitors[i].done?.(this.records[i]);
    this.problems.finish(this.facts, this.text);
    return this.facts;
  }

  // ---------------------------------------------------------------- what visitors ask

  get scope(): Scope {
    return this.scopeStack[this.scopeStack.length - 1];
  }

  get scopes(): readonly Scope[] {
    return this.scopeStack;
  }

  get atTopLevel(): boolean {
    return this.scopeStack.length === 1;
  }

  /** The try statements whose `try:` body holds the walk (their handlers guard it), innermost last. */
  get tries(): readonly SyntaxNode[] {
    return this.tryStack;
  }

  /** Inside a comprehension's iterable expression. */
  get inIterable(): boolean {
    return this.iterableDepth > 0;
  }

  /** The function or lambda whose body holds the walk (comprehensions crossed, classes not). */
  functionScope(): Scope | undefined {
    for (let s: Scope | undefined = this.scope; s; s = s.parent) {
      if (s.kind === 'function' || s.kind === 'lambda') return s;
      if (s.kind !== 'comprehension') return undefined;
    }
    return undefined;
  }

  /** Whether `node` holds a grammar error: looked for only inside a top-level statement that has one. */
  broken(node: SyntaxNode): boolean {
    return this.inBroken && containsError(node);
  }

  /** A node's children, comments left out (the last node asked for is kept: its visitors ask too). */
  children(node: SyntaxNode): SyntaxNode[] {
    if (this.lastChildren?.node !== node) this.lastChildren = { node, kids: children(node) };
    return this.lastChildren.kids;
  }

  /** An assignment statement's parts (taken apart once for the walk and its visitors). */
  assignment(node: SyntaxNode): Assignment {
    if (this.lastAssignment?.node !== node) {
      const groups = split(this.children(node), 'AssignOp');
      this.lastAssignment = {
        node,
        targets: groups.length > 1 ? groups.slice(0, -1) : groups,
        value: groups.length > 1 ? groups[groups.length - 1] : [],
      };
    }
    return this.lastAssignment;
  }

  // ---------------------------------------------------------------- statements

  private statement(node: SyntaxNode): void {
    if (node.type.isError) return this.recovered(node);
    if (node.name === 'Body') return this.body(node);
    this.emit(this.dispatch.enter[node.type.id], node);
    switch (node.name) {
      case 'FunctionDefinition':
        this.functionDef(node);
        break;
      case 'ClassDefinition':
        this.classDef(node);
        break;
      case 'DecoratedStatement':
        for (const k of children(node))
          if (k.name === 'FunctionDefinition' || k.name === 'ClassDefinition') this.statement(k);
          else this.expr(k);
        break;
      case 'AssignStatement':
        // A statement the grammar recovered from: its targets are guesses.
        if (this.broken(node)) this.walkChildren(node);
        else this.assign(node);
        break;
      case 'UpdateStatement':
        this.update(node);
        break;
      case 'YieldStatement':
        this.yielding();
        this.walkChildren(node);
        break;
      case 'ScopeStatement':
      case 'BreakStatement':
      case 'ContinueStatement':
        break;
      case 'DeleteStatement':
        for (const seg of split(children(node).slice(1), ',')) for (const t of seg) this.target(t, 'del');
        this.walkChildren(node);
        break;
      case 'ImportStatement':
        for (const bound of importedNames(this.children(node))) this.bind(bound, SymbolFlag.Import);
        break;
      case 'ForStatement': {
        const kids = this.children(node);
        const f = kids.findIndex((k) => k.name === 'for');
        const i = kids.findIndex((k) => k.name === 'in');
        if (f >= 0 && i > f) this.targetList(kids.slice(f + 1, i), 'assign');
        for (const k of kids) this.part(k);
        break;
      }
      case 'WithStatement':
      case 'TryStatement': {
        // `with … as target`, `except … as name`: bound where they stand, before the parts after them.
        const kids = this.children(node);
        kids.forEach((k, i) => {
          if (k.name === 'as' && kids[i + 1])
            if (node.name === 'WithStatement') this.target(kids[i + 1], 'assign');
            else if (kids[i + 1].name === 'VariableName') this.bind(kids[i + 1]);
          const tryBody = k.name === 'Body' && kids[i - 1]?.name === 'try';
          if (tryBody) this.tryStack.push(node);
          this.part(k);
          if (tryBody) this.tryStack.pop();
        });
        break;
      }
      case 'StatementGroup':
        for (const k of children(node)) this.statement(k);
        break;
      case 'IfStatement':
      case 'WhileStatement':
      case 'MatchStatement':
      case 'MatchClause':
      case 'MatchBody':
        for (const k of children(node)) this.part(k);
        break;
      default:
        this.walkChildren(node);
    }
    this.emit(this.dispatch.leave[node.type.id], node);
  }

  /** A compound statement's part: a body or a clause as a statement, the rest as an expression. */
  private part(node: SyntaxNode): void {
    if (node.name === 'Body' || node.name === 'MatchClause' || node.name === 'MatchBody') this.statement(node);
    else this.expr(node);
  }

  private body(node: SyntaxNode): void {
    this.emit(this.dispatch.enter[node.type.id], node);
    for (let c = node.firstChild; c; c = c.nextSibling) this.statement(c);
    this.emit(this.dispatch.leave[node.type.id], node);
  }

  private functionDef(node: SyntaxNode): void {
    const kids = this.children(node);
    const name = kids.find((k) => k.name === 'VariableName');
    const params = kids.find((k) => k.name === 'ParamList');
    const body = kids.find((k) => k.name === 'Body');
    for (const k of kids) if (k.name === 'TypeDef') this.expr(k);
    const check = params && this.parameters(params, node);
    if (name) this.bind(name);
    this.inScope({ kind: 'function', node, parent: this.scope, async: kids[0]?.name === 'async' }, (scope) => {
      for (const p of check?.names ?? []) this.bind(p, SymbolFlag.Param, scope);
      if (body) this.body(body);
    });
  }

  private classDef(node: SyntaxNode): void {
    const kids = this.children(node);
    const name = kids.find((k) => k.name === 'VariableName');
    if (name) this.bind(name);
    for (const k of kids) {
      if (k.name === 'Body')
        this.inScope({ kind: 'class', node, parent: this.scope, async: false }, () => this.body(k));
      else if (k.name === 'ArgList') this.args(k, true);
      else if (k.name !== 'VariableName') this.expr(k);
    }
  }

  private assign(node: SyntaxNode): void {
    const { targets, value } = this.assignment(node);
    for (const g of targets) {
      const ann = g.findIndex((n) => n.name === 'TypeDef');
      if (ann < 0) {
        this.targetList(g, 'assign');
        continue;
      }
      this.expr(g[ann]);
      if (ann !== 1) continue; // `a, b: int` is refused (syntaxForms.ts): no target
      const t = unparenthesized(g[0]);
      if (t.name !== 'VariableName' && t.name !== 'MemberExpression') continue;
      // `name: type` (not parenthesised) is an annotated name of the scope.
      if (t === g[0] && t.name === 'VariableName') this.bind(t, SymbolFlag.Annotated | SymbolFlag.Local);
      this.target(g[0], 'assign');
    }
    for (const n of value) this.expr(n);
  }

  /** `target op= value`: one name, attribute or subscript (syntaxForms.ts refuses the rest). */
  private update(node: SyntaxNode): void {
    const kids = this.children(node);
    const op = kids.findIndex((k) => k.name === 'UpdateOp');
    const targets = kids.slice(0, op).filter((k) => k.name !== '⚠');
    const t = targets.length === 1 && !this.broken(targets[0]) ? unparenthesized(targets[0]) : undefined;
    if (t?.name === 'VariableName') this.bind(t);
    this.walkChildren(node);
  }

  // ---------------------------------------------------------------- targets and names

  private bind(name: SyntaxNode, flag: SymbolFlag = SymbolFlag.Local, scope = this.scope, how?: BindHow): void {
    const way = how ?? (this.iterationTarget ? 'iteration' : undefined);
    for (let i = 0; i < this.visitors.length; i++) this.visitors[i].bind?.(this.records[i], name, flag, scope, way);
  }

  /** A comma-separated target list; `inDisplay`: the inside of a list or tuple display. */
  private targetList(nodes: SyntaxNode[], ctx: TargetContext, inDisplay = false): void {
    const items = split(nodes, ',').filter((s) => s.length);
    const tuple = inDisplay || nodes.some((n) => n.name === ',');
    for (let i = 0; i < this.visitors.length; i++) this.visitors[i].targetList?.(this.records[i], nodes, items, tuple);
    for (const item of items)
      if (item[0].name === '*') {
        if (item[1]) this.target(item[1], ctx);
      } else for (const t of item) this.target(t, ctx);
  }

  private target(node: SyntaxNode, ctx: TargetContext): void {
    for (let i = 0; i < this.visitors.length; i++) this.visitors[i].target?.(this.records[i], node, ctx);
    switch (node.name) {
      case 'VariableName':
        this.bind(node, SymbolFlag.Local, this.scope, ctx === 'del' ? 'del' : undefined);
        return;
      case 'MemberExpression':
        this.expr(node);
        return;
      case 'ParenthesizedExpression': {
        const inner = node.firstChild?.nextSibling;
        if (inner && inner.name !== ')' && inner.name !== '*' && inner.name !== 'YieldExpression')
          this.target(inner, ctx);
        return;
      }
      case 'TupleExpression':
      case 'ArrayExpression': {
        const inner = children(node).slice(1, -1);
        if (ctx === 'del' && inner.some((n) => n.name === '*')) return; // refused (syntaxForms.ts)
        this.targetList(inner, ctx, true);
        return;
      }
    }
  }

  // ---------------------------------------------------------------- expressions

  private expr(node: SyntaxNode): void {
    if (node.type.isError) return this.recovered(node);
    this.emit(this.dispatch.enter[node.type.id], node);
    switch (node.name) {
      case 'VariableName':
      case 'String':
        break;
      case 'CapturePattern':
      case 'AsPattern':
        // `case x`, `case p as x`: the name is bound (`_` is the wildcard, no name).
        for (let c = node.firstChild; c; c = c.nextSibling)
          if (c.name !== 'VariableName') this.expr(c);
          else if (this.chunk.text(c) !== '_') this.bind(c);
        break;
      case 'KeywordPattern':
        // `C(attr=pattern)`: `attr` names an attribute, not a variable.
        for (let c = node.firstChild?.nextSibling ?? null; c; c = c.nextSibling) this.expr(c);
        break;
      case 'YieldExpression':
        this.yielding();
        this.walkChildren(node);
        break;
      case 'LambdaExpression': {
        const kids = children(node);
        const params = kids.find((k) => k.name === 'ParamList');
        const check = params && this.parameters(params, node);
        const colon = kids.findIndex((k) => k.name === ':');
        this.inScope({ kind: 'lambda', node, parent: this.scope, async: false }, (scope) => {
          for (const p of check?.names ?? []) this.bind(p, SymbolFlag.Param, scope);
          for (const k of kids.slice(colon + 1)) this.expr(k);
        });
        break;
      }
      case 'ArgList':
        this.args(node);
        break;
      case 'NamedExpression': {
        const t = node.firstChild;
        if (t?.name === 'VariableName') this.bind(t, SymbolFlag.Local, this.walrusScope());
        this.walkChildren(node);
        break;
      }
      case 'ArrayComprehensionExpression':
      case 'SetComprehensionExpression':
      case 'DictionaryComprehensionExpression':
      case 'ComprehensionExpression':
        this.comprehension(children(node).slice(1, -1), COMPREHENSIONS[node.name], node);
        break;
      default:
        this.walkChildren(node);
    }
    this.emit(this.dispatch.leave[node.type.id], node);
  }

  private walkChildren(node: SyntaxNode): void {
    for (let c = node.firstChild; c; c = c.nextSibling) this.expr(c);
  }

  /** A node of the grammar's error recovery: reported, and its parts walked as expressions. */
  private recovered(node: SyntaxNode): void {
    this.grammarError(node);
    this.walkChildren(node);
  }

  private grammarError(node: SyntaxNode): void {
    for (let i = 0; i < this.visitors.length; i++) this.visitors[i].error?.(this.records[i], node);
  }

  /** A `yield` makes the function or lambda around it (not a comprehension's) a generator. */
  private yielding(): void {
    const s = this.scope;
    if (s.kind === 'function' || s.kind === 'lambda') s.generator = true;
  }

  /** A def's or lambda's parameters: checked, annotations and defaults walked in the scope around. */
  private parameters(node: SyntaxNode, owner: SyntaxNode): ParameterCheck {
    const check = checkParameters(node, this.chunk.src);
    for (let i = 0; i < this.visitors.length; i++) this.visitors[i].parameters?.(this.records[i], check, owner);
    for (const e of check.expressions) this.expr(e);
    return check;
  }

  /** A call's or a class's arguments (`bases`: a class's, where no generator expression may stand). */
  private args(node: SyntaxNode, bases = false): void {
    const check = checkArguments(node, this.chunk.src, bases);
    for (let i = 0; i < this.visitors.length; i++) this.visitors[i].arguments?.(this.records[i], check);
    for (const seg of check.segments) {
      if (seg.some((n) => n.name === 'for')) this.comprehension(seg, 'generator expression', seg[0]);
      else {
        // Keyword names are not expressions; walk values only. `f(x := 1)` binds x as `:=` does anywhere.
        const named = seg.length >= 3 && seg[1].name === 'AssignOp' && seg[0].name === 'VariableName';
        if (named && this.chunk.text(seg[1]) === ':=') this.bind(seg[0], SymbolFlag.Local, this.walrusScope());
        for (const n of seg.slice(named ? 2 : 0)) this.expr(n);
      }
    }
  }

  /**
   * Comprehension parts: element, then `[async] for targets in iter (if cond)*` clauses. Walked in
   * CPython's order: the first iterable outside, then the clauses, then the element, so that `:=`
   * meets the iteration variables.
   */
  private comprehension(parts: SyntaxNode[], what: string, at: SyntaxNode): void {
    const start = parts.findIndex((k) => k.name === 'for' || k.name === 'async');
    const clauses = start < 0 ? [] : comprehensionClauses(parts.slice(start));
    if (!clauses.length) {
      for (const p of parts) this.expr(p);
      return;
    }
    this.iterable(clauses[0].iterable);
    this.inScope({ kind: 'comprehension', node: at, parent: this.scope, async: false, what, clauses }, () => {
      clauses.forEach((c, i) => {
        this.iterationTarget = true;
        this.targetList(c.targets, 'assign');
        this.iterationTarget = false;
        if (i > 0) this.iterable(c.iterable);
        for (const n of c.conditions) this.expr(n);
      });
      for (const p of parts.slice(0, start)) this.expr(p);
    });
  }

  /** Where `:=` binds: in the scope around any comprehensions. */
  private walrusScope(): Scope {
    return this.scopeStack.filter((s) => s.kind !== 'comprehension').pop()!;
  }

  private iterable(nodes: SyntaxNode[]): void {
    this.iterableDepth++;
    for (const n of nodes) this.expr(n);
    this.iterableDepth--;
  }

  private inScope(scope: Scope, walk: (scope: Scope) => void): void {
    this.scopeStack.push(scope);
    for (let i = 0; i < this.visitors.length; i++) this.visitors[i].enterScope?.(this.records[i], scope);
    walk(scope);
    this.scopeStack.pop();
    for (let i = 0; i < this.visitors.length; i++) this.visitors[i].leaveScope?.(this.records[i], scope);
  }

  private emit(handlers: readonly Handler[] | null, node: SyntaxNode): void {
    if (handlers) for (const h of handlers) h.handle(this.records[h.visitor], node);
  }
}
