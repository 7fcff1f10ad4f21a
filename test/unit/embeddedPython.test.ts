import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TextEdit } from 'vscode-languageserver-types';
import { applyEdits, codes, cursor, load, problems, smartTool } from '../helpers';
import { WARM_UP_SAMPLE, warmUpPython } from '../../server/src/lsp/warmUp';
import { analyzePython } from '../../server/src/service/python';
import { finish } from '../../server/src/service/steps';
import type { LanguageService } from '../../server/src/service/languageService';
import type { ToolModel } from '../../server/src/service/model';

const CODE =
  'import requests\n\ndef execute(variables):\n\t"""Say \\"hi\\" 😀"""\n    city = variables["city"]\n    return requests.get("x").text + city\n';

describe('embedded Python in a smart tool', () => {
  it('maps a Python syntax error to its characters in the JSON line, through escapes and astral characters', () => {
    const text = smartTool({ code: 'def execute(variables):\n    s = "é😀\\t"\n    return s +\n', variables: [] });
    const p = problems(text).find((x) => x.code === 'python-syntax');
    assert.ok(p, JSON.stringify(problems(text).map((x) => x.code)));
    const line = text.split('\n')[p.diagnostic.range.start.line];
    assert.ok(line.includes('"tool_code"'));
    assert.ok(
      p.diagnostic.range.start.character > line.indexOf('return s +'),
      `${p.diagnostic.range.start.character} vs ${line.indexOf('return s +')}`,
    );
  });

  it('checks the execute contract', () => {
    assert.ok(
      codes(smartTool({ code: 'def run(variables):\n    return ""\n', variables: [] })).includes('missing-execute'),
    );
    assert.equal(
      problems(smartTool({ code: 'def execute(vars, x):\n    return ""\n', variables: [] })).find(
        (p) => p.code === 'execute-signature',
      )?.code,
      'execute-signature',
    );
    assert.ok(
      codes(smartTool({ code: 'async def execute(variables):\n    return ""\n', variables: [] })).includes(
        'execute-async',
      ),
    );
    assert.ok(
      codes(smartTool({ code: 'def execute(variables):\n    return 42\n', variables: [] })).includes(
        'execute-returns-non-string',
      ),
    );
  });

  it('unknown-variable-key with fixes that keep Python and JSON escaping right, and unused variables', () => {
    const text = smartTool({ code: 'def execute(variables):\n    return variables["nmae"]\n' });
    const p = problems(text).find((x) => x.code === 'unknown-variable-key')!;
    assert.equal(p.text, 'nmae');
    const { service, model, doc } = load(text);
    const titles = service.doCodeActions(model, p.diagnostic.range, [p.diagnostic]).map((a) => a.title);
    assert.deepEqual(titles, ['Change to "name"', 'Add variable "nmae"']);
    const fixed = applyEdits(
      doc,
      service.doCodeActions(model, p.diagnostic.range, [p.diagnostic])[0].edit!.changes![doc.uri],
    );
    assert.deepEqual(codes(fixed), []);
    assert.ok(codes(smartTool({ code: 'def execute(variables):\n    return "x"\n' })).includes('unused-variable'));
    assert.ok(
      !codes(smartTool({ code: 'def execute(variables):\n    return str(dict(variables))\n' })).includes(
        'unused-variable',
      ),
      'dynamic use',
    );
  });

  it('imports against requirements, with a fix that adds the distribution', () => {
    const text = smartTool({
      code: 'import yaml\n\ndef execute(variables):\n    return yaml.dump(variables["name"])\n',
      metadata: { requirements: 'requests>=2\n' },
    });
    const missing = problems(text).find((x) => x.code === 'missing-requirement')!;
    assert.equal(missing.text, 'yaml');
    assert.ok(codes(text).includes('unused-requirement'));
    const { service, model, doc } = load(text);
    const action = service
      .doCodeActions(model, missing.diagnostic.range, [missing.diagnostic])
      .find((a) => a.title === 'Add "PyYAML" to requirements')!;
    assert.equal(
      JSON.parse(applyEdits(doc, action.edit!.changes![doc.uri])).metadata.requirements,
      'requests>=2\nPyYAML',
    );
    const invalid = problems(smartTool({ metadata: { requirements: 'requests\nnot a valid ==== line' } })).find(
      (x) => x.code === 'invalid-requirement',
    )!;
    assert.equal(invalid.diagnostic.range.start.line, invalid.diagnostic.range.end.line);
  });

  it('flags hard-coded secrets with the value redacted, never <API_KEY> or os.environ', () => {
    const secret = problems(
      smartTool({
        code: 'API_KEY = "sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD"\n\ndef execute(variables):\n    return variables["name"]\n',
      }),
    ).find((p) => p.code === 'hardcoded-secret')!;
    assert.ok(secret);
    assert.ok(!secret.message.includes('abcdefghijklmnopqrstuvwxyz0123456789'));
    assert.ok(
      !codes(
        smartTool({
          code: 'import os\nAPI_KEY = "<API_KEY>"\nTOKEN = os.environ["TOKEN"]\n\ndef execute(variables):\n    return variables["name"]\n',
        }),
      ).includes('hardcoded-secret'),
    );
  });

  it('completes variable names inside variables["…"], escaped for Python and JSON', () => {
    const { text, offset } = cursor(
      smartTool({
        code: 'def execute(variables):\n    return variables["|"]\n',
        variables: [{ name: 'say "hi"', description: '', default: '' }],
      }),
    );
    const { service, model, doc } = load(text);
    const list = service.doComplete(model, doc.positionAt(offset));
    assert.deepEqual(
      list.items.map((i) => i.label),
      ['say "hi"'],
    );
    const out = JSON.parse(applyEdits(doc, [list.items[0].textEdit as TextEdit]));
    assert.equal(out.metadata.tool_code, 'def execute(variables):\n    return variables["say \\"hi\\""]\n');
  });

  it('completes and hovers outside tool_code without running its analysis (the server runs it in slices)', () => {
    const { text, offset } = cursor(smartTool({ code: 'def execute(variables):\n    return variables["|"]\n' }));
    const { service, model, doc } = load(text);
    assert.ok(service.doComplete(model, doc.positionAt(offset)).items.length > 0);
    assert.ok(service.doHover(model, doc.positionAt(text.indexOf('"version"') + 2)));
    const steps = model.pythonSteps();
    assert.ok(steps && !steps.next().done, 'the analysis had not run');
  });

  it('renames a variable in its declaration and every key, hovers and goes to definition from a key', () => {
    const { text, offset } = cursor(
      smartTool({
        code: CODE.replace('variables["city"]', 'variables["ci|ty"]'),
        variables: [{ name: 'city', description: 'The city', default: 'Oslo' }],
        metadata: { requirements: 'requests' },
      }),
    );
    const { service, model, doc } = load(text);
    const pos = doc.positionAt(offset);
    assert.match((service.doHover(model, pos)!.contents as { value: string }).value, /Variable `city`/);
    assert.equal(doc.getText(service.findDefinition(model, pos)[0].range), '"city"');
    const result = service.doRename(model, pos, "town's");
    assert.ok('edit' in result);
    const renamed = JSON.parse(applyEdits(doc, result.edit.changes![doc.uri]));
    assert.equal(renamed.metadata.variables[0].name, "town's");
    assert.ok(renamed.metadata.tool_code.includes('variables["town\'s"]'));
  });

  it('warms up on a sample that is valid Python with a valid execute', () => {
    const codesFound = analyzePython(WARM_UP_SAMPLE).problems.map((p) => p.code);
    assert.ok(!codesFound.includes('python-syntax') && !codesFound.includes('missing-execute'), codesFound.join(', '));
  });

  it('warms up the way a real file is worked on: whole analyses, then keystrokes that reuse them', () => {
    const { service } = load('{}');
    const models: ToolModel[] = [];
    const work: { chunks: number; analysed: number }[] = [];
    const spy: LanguageService = {
      ...service,
      parse: (...args: Parameters<LanguageService['parse']>) => {
        const model = service.parse(...args);
        models.push(model);
        return model;
      },
      doValidation: (model) => {
        work.push({ ...model.pythonAnalysisWork! });
        return service.doValidation(model);
      },
    };
    finish(warmUpPython(spy));
    assert.equal(models.length, 28);
    assert.ok(
      models.every((m) => m.kind === 'smart' && m.pythonSteps() === undefined),
      'every analysis finished',
    );
    const whole = work.slice(0, 8);
    // The first edit of the typing phase starts from the last whole document (other names): after it, keystrokes.
    const typing = work.slice(9);
    assert.ok(
      whole.every((w) => w.chunks > 100 && w.analysed === w.chunks),
      JSON.stringify(whole),
    );
    assert.equal(typing.length, 19);
    assert.ok(
      typing.every((w) => w.analysed === 1),
      JSON.stringify(typing),
    );
  });

  it('finishes a partly run analysis when its result is read, with the same diagnostics', () => {
    const code =
      'def helper():\n    return 1\n\n'.repeat(400) + 'def execute(variables):\n    return variables["nmae"]\n';
    const text = smartTool({ code });
    const { service, model } = load(text);
    const steps = model.pythonSteps()!;
    for (let i = 0; i < 30; i++) assert.equal(steps.next().done, false);
    assert.equal(model.pythonSteps(), steps, 'the same work is resumed, not restarted');
    assert.deepEqual(service.doValidation(model), service.doValidation(load(text).model));
    assert.ok(codes(text).includes('unknown-variable-key'));
    assert.equal(model.pythonSteps(), undefined);
  });

  it('shows execute and the other top-level functions in the outline', () => {
    const { service, model } = load(
      smartTool({
        code: 'def helper():\n    return 1\n\nclass K:\n    pass\n\ndef execute(variables):\n    return variables["name"]\n',
      }),
    );
    const code = service
      .findDocumentSymbols(model)
      .find((s) => s.name === 'metadata')!
      .children!.find((s) => s.name === 'tool_code')!;
    assert.deepEqual(
      code.children!.map((c) => c.name),
      ['helper', 'K', 'execute'],
    );
  });
});
