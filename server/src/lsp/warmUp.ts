import { pythonAnalysis } from '../service/python/load';
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

/**
 * The first analysis of a large tool_code pays for compiling the parser and the analysis (hundreds
 * of milliseconds). Running them on a small module while the server is idle after start-up moves
 * that cost out of the first real request; as steps, so that requests arriving meanwhile wait for
 * one slice at most.
 */
export function* warmUpPython(): Steps<void> {
  const doc = new (pythonAnalysis().PythonDocument)();
  for (let i = 0; i < 20; i++) yield* doc.updateSteps(i % 2 ? WARM_UP_SAMPLE : WARM_UP_SAMPLE.replace('metric', `metric${i}`));
}
