import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  canonicalLanguage,
  checkOutput,
  fencedBlocks,
  positionAt,
  type OutputViolation,
} from '../../server/src/engine/llm/expectedOutput';
import type { ExpectedOutput } from '../../server/src/engine/llm/prompt';

const brief = (vs: OutputViolation[]) =>
  vs.map((v) => [
    v.code,
    v.severity,
    ...(v.line === undefined ? [] : [v.line]),
    ...(v.column === undefined ? [] : [v.column]),
  ]);
const fence = '```';

describe('checkOutput: limited', () => {
  const limited: ExpectedOutput = { type: 'limited', allowedValues: ['Positive', 'Negative', 'Not sure'] };

  it('accepts an allowed value, surrounding whitespace and line breaks trimmed', () => {
    assert.deepEqual(checkOutput('Positive', limited), []);
    assert.deepEqual(checkOutput('\n  Not sure \r\n', limited), []);
  });

  it('a case-only mismatch or decoration is a warning naming the value; anything else an error listing the values', () => {
    const caseOnly = checkOutput('positive', limited);
    assert.deepEqual(brief(caseOnly), [['case-mismatch', 'warning']]);
    assert.match(caseOnly[0].message, /"positive" differs only in case from the allowed value "Positive"/);
    assert.deepEqual(brief(checkOutput('"Negative".', limited)), [['decorated-value', 'warning']]);
    assert.deepEqual(brief(checkOutput('**not sure**', limited)), [['decorated-value', 'warning']]);
    const wrong = checkOutput('The sentiment is positive.', limited);
    assert.deepEqual(brief(wrong), [['not-allowed-value', 'error']]);
    assert.match(wrong[0].message, /not one of the allowed values \("Positive", "Negative", "Not sure"\)/);
  });

  it('an empty answer is an error; limited without allowed_values only a hint', () => {
    assert.deepEqual(brief(checkOutput('  \n', limited)), [['empty-output', 'error']]);
    assert.deepEqual(brief(checkOutput('x', { type: 'limited' })), [['no-allowed-values', 'hint']]);
  });
});

describe('checkOutput: code language', () => {
  const python: ExpectedOutput = { type: 'code', language: 'Python' };

  it('accepts a fence marked with the language or an alias', () => {
    assert.deepEqual(checkOutput(`Here:\n${fence}python\nprint(1)\n${fence}\n`, python), []);
    assert.deepEqual(checkOutput(`${fence}py title="x.py"\nprint(1)\n${fence}`, python), []);
    assert.deepEqual(checkOutput(`~~~python3\nprint(1)\n~~~`, python), []);
    assert.deepEqual(
      checkOutput(`${fence}js\nx\n${fence}\n${fence}python\ny\n${fence}`, python),
      [],
      'one matching block among several is enough',
    );
    assert.deepEqual(checkOutput(`${fence}ts\nlet x = 1\n${fence}`, { type: 'code', language: 'TypeScript' }), []);
  });

  it('reports a block in another language (warning, with its line), no fence or an unmarked fence (hints)', () => {
    const other = checkOutput(`Sure!\n\n${fence}javascript\nconsole.log(1)\n${fence}`, python);
    assert.deepEqual(brief(other), [['language-mismatch', 'warning', 3]]);
    assert.match(other[0].message, /marked "javascript", but the tool expects Python/);
    assert.deepEqual(brief(checkOutput('print(1)', python)), [['missing-fence', 'hint']]);
    assert.deepEqual(brief(checkOutput(`${fence}\nprint(1)\n${fence}`, python)), [['fence-without-language', 'hint']]);
    assert.deepEqual(checkOutput('print(1)', { type: 'code' }), [], 'no language, nothing to check');
  });

  it('finds fences like CommonMark: longer closing fences, ~~~, unclosed blocks, info strings', () => {
    const blocks = fencedBlocks('a\n````md\n```py\nx\n```\n````\n~~~ {.rust}\nfn\n');
    assert.deepEqual(
      blocks.map((b) => [b.language, b.content, b.closed]),
      [
        ['md', '```py\nx\n```\n', true],
        ['rust', 'fn\n', false],
      ],
    );
    assert.equal(canonicalLanguage('Python 3'), 'python');
    assert.equal(canonicalLanguage('C++'), 'cpp');
    assert.equal(canonicalLanguage('bash'), canonicalLanguage('sh'));
  });
});

describe('checkOutput: JSON', () => {
  const json: ExpectedOutput = { type: 'text', format: 'JSON' };

  it('accepts bare JSON, and JSON in a single fenced block with a hint', () => {
    assert.deepEqual(checkOutput(' {"a": [1, 2, {"b": null}]}\n', json), []);
    assert.deepEqual(brief(checkOutput(`Here you go:\n${fence}json\n{"a": 1}\n${fence}\nDone.`, json)), [
      ['format-in-fence', 'hint'],
    ]);
    assert.deepEqual(brief(checkOutput(`${fence}\n[1,2]\n${fence}`, json)), [['format-in-fence', 'hint']]);
  });

  it('reports the line and column of the first error, in the answer', () => {
    const e = checkOutput('{\n  "a": 1,\n  "b": 2,\n}', json);
    assert.deepEqual(brief(e), [['invalid-json', 'error', 4, 1]]);
    assert.match(e[0].message, /Invalid JSON at line 4, column 1: property name expected/);
    assert.deepEqual(brief(checkOutput('{"a": \'x\'}', json)), [['invalid-json', 'error', 1, 7]]);
    assert.deepEqual(brief(checkOutput('{"a": 1} trailing', json)), [['invalid-json', 'error', 1, 10]]);
    assert.deepEqual(brief(checkOutput('{"a": 1', json)), [['invalid-json', 'error', 1, 8]]);
  });

  it('maps an error inside a fenced block to the answer', () => {
    const e = checkOutput(`Intro line\r\n${fence}json\r\n{\r\n  "a": 1\r\n  "b": 2\r\n}\r\n${fence}`, json);
    assert.deepEqual(brief(e), [['invalid-json', 'error', 5, 3]]);
    assert.match(e[0].message, /in the fenced block.*comma expected/);
  });

  it('checks the format for any output type, after the type check', () => {
    assert.deepEqual(brief(checkOutput('nope', { type: 'code', language: 'json', format: 'json' })), [
      ['missing-fence', 'hint'],
      ['invalid-json', 'error', 1, 1],
    ]);
  });
});

describe('checkOutput: XML', () => {
  const xml: ExpectedOutput = { type: 'text', format: 'XML' };

  it('accepts well-formed XML with a prolog, comments, CDATA and a DOCTYPE', () => {
    assert.deepEqual(
      checkOutput(
        '<?xml version="1.0"?>\n<!DOCTYPE r [<!ENTITY e "x">]>\n<!-- c -->\n<r a="1 > 0"><x/><![CDATA[<y>]]></r>\n',
        xml,
      ),
      [],
    );
    assert.deepEqual(brief(checkOutput(`${fence}xml\n<r/>\n${fence}`, xml)), [['format-in-fence', 'hint']]);
  });

  it('reports mismatched tags, bad attributes, several roots and stray text with their places', () => {
    const mismatched = checkOutput('<a>\n  <b></a>', xml);
    assert.deepEqual(brief(mismatched), [['invalid-xml', 'error', 2, 6]]);
    assert.match(mismatched[0].message, /Expected closing tag 'b'/);
    assert.deepEqual(brief(checkOutput('<r x=1/>', xml)), [['invalid-xml', 'error', 1, 4]]);
    assert.deepEqual(brief(checkOutput('<a/>\n<b/>', xml)), [['invalid-xml', 'error', 2, 1]]);
    assert.match(checkOutput('<a/>\n<b/>', xml)[0].message, /more than one root/);
    assert.deepEqual(brief(checkOutput('<a/> trailing', xml)), [['invalid-xml', 'error', 1, 6]]);
    assert.deepEqual(brief(checkOutput('Sure, here it is', xml)), [['invalid-xml', 'error', 1, 1]]);
    assert.deepEqual(
      brief(checkOutput('<a>', xml)).map((v) => v[0]),
      ['invalid-xml'],
    );
  });

  it('maps an error inside a fenced block to the answer', () => {
    assert.deepEqual(brief(checkOutput(`Text\n${fence}xml\n<a>\n</b>\n${fence}`, xml)), [
      ['invalid-xml', 'error', 4, 1],
    ]);
  });
});

describe('checkOutput: CSV', () => {
  const csv: ExpectedOutput = { type: 'text', format: 'CSV' };

  it('accepts consistent CSV with quotes, embedded commas and line breaks, CRLF', () => {
    assert.deepEqual(checkOutput('name,notes\r\n"Smith, J","said ""hi""\r\nthen left"\r\nLee,\r\n', csv), []);
    assert.deepEqual(brief(checkOutput(`Here:\n${fence}csv\na,b\n1,2\n${fence}\nThat is all, thanks.`, csv)), [
      ['format-in-fence', 'hint'],
    ]);
  });

  it('reports rows whose field count differs from the header, with their lines', () => {
    const e = checkOutput('a,b,c\n1,2,3\n4,5\n\n6,7,8,9\n', csv);
    assert.deepEqual(brief(e), [
      ['inconsistent-columns', 'error', 3],
      ['inconsistent-columns', 'error', 5],
    ]);
    assert.match(e[0].message, /line 3: this row has 2 field\(s\), the first row \(line 1\) has 3/);
  });

  it('reports a parse error (unclosed quote, junk after a quote) with its line', () => {
    assert.deepEqual(brief(checkOutput('a,b\n1,"open\n', csv)), [['invalid-csv', 'error', 2]]);
    assert.deepEqual(brief(checkOutput('a,b\n"x"y,2\n', csv)), [['invalid-csv', 'error', 2]]);
    assert.deepEqual(brief(checkOutput(`Intro\n${fence}csv\na,b\n1,2,3\n${fence}`, csv)), [
      ['inconsistent-columns', 'error', 4],
    ]);
  });

  it('warns when the data seems to use another delimiter; TSV is checked with tabs', () => {
    assert.deepEqual(brief(checkOutput('a;b\n1;2\n', csv)), [['invalid-csv', 'warning', 1]]);
    assert.deepEqual(checkOutput('a\tb\n1\t2\n', { type: 'text', format: 'tsv' }), []);
  });
});

describe('checkOutput: other', () => {
  it('plain text, unknown formats and types', () => {
    assert.deepEqual(checkOutput('anything', { type: 'text' }), []);
    assert.deepEqual(checkOutput('anything', undefined), []);
    assert.deepEqual(brief(checkOutput('a: 1', { type: 'text', format: 'YAML' })), [['format-not-checked', 'hint']]);
    assert.deepEqual(brief(checkOutput('x', { type: 'table' })), [['unknown-type', 'hint']]);
  });

  it('positionAt counts CRLF, LF and CR as one line break each', () => {
    assert.deepEqual(positionAt('a\r\nb\nc\rd', 7), { line: 4, column: 1 });
    assert.deepEqual(positionAt('a\r\nb\nc\rd', 8), { line: 4, column: 2 });
    assert.deepEqual(positionAt('ab', 1), { line: 1, column: 2 });
  });
});
