import { TextDocument } from 'vscode-languageserver-textdocument';
import type { LanguageService, ToolModel } from '../service/languageService';
import type { Steps } from '../service/steps';

/** A small module touching the grammar and the analysis paths a real tool_code takes. */
export const WARM_UP_SAMPLE = `import json
import os
from datetime import datetime as dt

API_KEY = os.environ.get("API_KEY", "")


class Helper:
    def __init__(self, base: str = "x") -> None:
        self.base = base

    async def fetch(self, *args, **kwargs):
        async with self.session() as s:
            return await s.get(f"{self.base}/{args[0]!r:>10}")


def _format(rows, sep=", "):
    out = [r for r in rows if r] + [x * 2 for x in range(3)]
    match rows:
        case [first, *rest] if first:
            return sep.join(map(str, [first, *rest]))
        case {"k": v}:
            return str(v)
        case _:
            pass
    try:
        return json.dumps({"rows": out, "at": dt.now().isoformat()}, indent=2)
    except (TypeError, ValueError) as e:
        raise RuntimeError("bad rows") from e
    finally:
        del out


def execute(variables):
    city = variables["city"]
    units = variables.get("units", "metric")
    lam = lambda a, /, b=1, *c, d, **e: (a, b, c, d, e)
    if not city:
        return "Give a city."
    elif units not in ("metric", "imperial"):
        return f"Unknown units {units}"
    while False:
        yield_ = None
    return _format([city, units, lam]) + """
done"""
`;

/** Copies of the sample, with fresh names, in the module the warm-up analyses (about 1,500 lines). */
const COPIES = 30;

/** A smart tool carrying `code`; incomplete (it need not be valid, only take the paths a real one takes). */
function definition(code: string): string {
  return JSON.stringify(
    {
      version: '1.0',
      metadata: { tool_name: 'warm_up', tool_code: code, variables: [{ name: 'city' }, { name: 'units' }] },
    },
    null,
    4,
  );
}

/**
 * The first open of a large smart tool pays for compiling the parser, the analysis and the JSON
 * side: a 5,000-line tool_code takes 2-4 times as long as once the JIT has seen large modules.
 * Opening a large definition built from the sample several times, then typing in it, while the
 * server is idle after start-up moves most of that cost out of the first real open; as steps, so
 * that a request arriving meanwhile waits for one slice at most. Nothing is kept afterwards.
 */
export function* warmUpPython(service: LanguageService): Steps<void> {
  const module = Array.from({ length: COPIES }, (_, i) =>
    WARM_UP_SAMPLE.replace(/\b(_format|Helper)\b/g, `$1_${i}`),
  ).join('\n\n');
  const uri = 'untitled:tooldef-warm-up.json';
  let previous: ToolModel | undefined;
  const open = function* (version: number, code: string): Steps<void> {
    const model = service.parse(TextDocument.create(uri, 'tooldef', version, definition(code)), 'smart', previous);
    const python = model.pythonSteps();
    if (python) yield* python;
    service.doValidation(model);
    previous = model;
    yield;
  };
  for (let i = 0; i < 8; i++) {
    previous = undefined; // a fresh document each time: whole analyses
    yield* open(1, module.replace('metric', `metric${i}`));
  }
  const at = module.indexOf('Give a city.', module.length >> 1);
  for (let i = 0; i < 20; i++) yield* open(i + 2, i % 2 ? module : `${module.slice(0, at)}x${module.slice(at)}`);
}
