// requirements: PEP 508 parsing with exact error ranges, duplicate/missing/unused requirements,
// standard-library names of 3.8–3.13 and import → distribution mapping.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { distributionsFor, normalizeName } from '../../server/src/service/python/distributions';
import { analyzePython } from '../../server/src/service/python/index';
import { checkRequirements, parseRequirement, parseRequirements } from '../../server/src/service/python/requirements';
import { isStdlib } from '../../server/src/service/python/stdlib';

describe('PEP 508 parsing', () => {
  for (const [line, expected] of [
    ['requests', { name: 'requests', extras: [], specifier: '' }],
    ['requests==2.31.0', { name: 'requests', specifier: '==2.31.0' }],
    ['requests >= 2.0, < 3', { name: 'requests', specifier: '>= 2.0, < 3' }],
    ['Django~=4.2', { name: 'Django', specifier: '~=4.2' }],
    ['numpy!=1.25.*', { name: 'numpy', specifier: '!=1.25.*' }],
    ['pkg===weird-version', { name: 'pkg', specifier: '===weird-version' }],
    ['pkg (>=1.0)', { name: 'pkg', specifier: '>=1.0' }],
    ['uvicorn[standard]>=0.20', { name: 'uvicorn', extras: ['standard'], specifier: '>=0.20' }],
    ['a[b, c]', { name: 'a', extras: ['b', 'c'] }],
    ['pywin32; sys_platform == "win32"', { name: 'pywin32', marker: 'sys_platform == "win32"' }],
    ['foo>=1; python_version >= "3.8" and (os_name == \'nt\' or extra == "x")', { name: 'foo', specifier: '>=1' }],
    ['mypkg @ https://example.com/mypkg-1.0.tar.gz', { name: 'mypkg', url: 'https://example.com/mypkg-1.0.tar.gz' }],
    [
      'mypkg @ git+https://github.com/o/r.git@v1 ; python_version > "3"',
      { name: 'mypkg', url: 'git+https://github.com/o/r.git@v1' },
    ],
    ['torch==2.1.0+cpu', { name: 'torch', specifier: '==2.1.0+cpu' }],
    ['pkg>=1.0.post1,<2.0.dev0', { name: 'pkg' }],
    ['zope.interface>=5', { name: 'zope.interface' }],
  ] as const) {
    it(`parses ${line}`, () => {
      const r = parseRequirement(line);
      for (const [k, v] of Object.entries(expected))
        assert.deepEqual((r as unknown as Record<string, unknown>)[k], v, k);
    });
  }

  // [line, the text the error range covers, message fragment]
  for (const [line, at, message] of [
    ['requests=2.0', '=2', 'not a version operator'],
    ['requests 2.0', '2.0', 'needs an operator'],
    ['requests>=', '', 'Expected a version'],
    ['requests>=abc', 'abc', 'not a valid version'],
    ['requests>=1.*', '1.*', 'wildcard'],
    ['requests~=1', '~=1', 'at least two parts'],
    ['requests[security', '[security', "Unclosed '['"],
    ['pkg; python_versoin > "3"', 'python_versoin', 'Unknown environment marker'],
    ['pkg; python_version > "3', '"3', 'Unterminated string'],
    ['pkg @ not a url', 'not', 'is not a URL'],
    ['https://example.com/x.whl', 'https://example.com/x.whl', 'is a URL: the service installs packages by name'],
    ['./local/pkg', './local/pkg', 'is a path: the service installs packages by name'],
    ['pkg,other', ',other', 'Unexpected'],
  ] as const) {
    it(`rejects ${line}`, () => {
      const { problems } = parseRequirements(line);
      assert.equal(problems.length, 1, JSON.stringify(problems));
      const p = problems[0];
      assert.equal(p.code, 'invalid-requirement');
      if (at) assert.equal(line.slice(p.start, p.end), at);
      assert.ok(p.message.includes(message), p.message);
    });
  }

  it('skips blank lines and comments, and reports pip options and continuations', () => {
    const text = '# tools\n\nrequests  # http\n-r other.txt\n--index-url https://x/simple\nnumpy \\\n';
    const { requirements, problems } = parseRequirements(text);
    assert.deepEqual(
      requirements.map((r) => [r.name, r.line]),
      [['requests', 3]],
    );
    assert.deepEqual(
      problems.map((p) => [p.code, text.slice(p.start, p.end)]),
      [
        ['invalid-requirement', '-r other.txt'],
        ['invalid-requirement', '--index-url https://x/simple'],
        ['invalid-requirement', '\\'],
      ],
    );
  });

  it('reports errors at the exact offset of their line (CRLF too)', () => {
    const text = 'requests\r\nflask>=2\r\nbad==\r\n';
    const p = parseRequirements(text).problems[0];
    assert.equal(text.slice(0, p.start).split(/\r\n/).length, 3);
    assert.equal(text.slice(p.start - 4, p.end), 'bad==');
  });
});

describe('standard library and distributions', () => {
  it('knows standard-library modules of 3.8–3.13', () => {
    for (const m of [
      'os',
      'os.path',
      'json',
      'asyncio',
      'tomllib',
      'zoneinfo',
      'distutils.core',
      'imp',
      'asyncore',
      'cgi',
      'telnetlib',
      'binhex',
      'formatter',
      '__future__',
      'lib2to3',
      'xml.etree.ElementTree',
    ]) {
      assert.ok(isStdlib(m), m);
    }
    for (const m of ['requests', 'yaml', 'numpy', 'typing_extensions', 'dataclasses_json', 'six'])
      assert.ok(!isStdlib(m), m);
  });

  it('maps import names to distributions', () => {
    assert.deepEqual(
      [
        'yaml',
        'PIL.Image',
        'sklearn.linear_model',
        'bs4',
        'cv2',
        'dateutil.parser',
        'dotenv',
        'jwt',
        'magic',
        'docx',
        'pptx',
        'Crypto.Cipher',
        'OpenSSL',
        'serial',
        'usb.core',
        'google.protobuf.message',
        'attr',
        'google.cloud.storage',
        'azure.identity',
        'requests',
      ].map((m) => distributionsFor(m)[0]),
      [
        'PyYAML',
        'Pillow',
        'scikit-learn',
        'beautifulsoup4',
        'opencv-python',
        'python-dateutil',
        'python-dotenv',
        'PyJWT',
        'python-magic',
        'python-docx',
        'python-pptx',
        'pycryptodome',
        'pyOpenSSL',
        'pyserial',
        'pyusb',
        'protobuf',
        'attrs',
        'google-cloud-storage',
        'azure-identity',
        'requests',
      ],
    );
  });

  it('normalises names as PEP 503 does', () => {
    assert.equal(normalizeName('Python_Dateutil'), 'python-dateutil');
    assert.equal(normalizeName('zope.interface'), 'zope-interface');
    assert.equal(normalizeName('a-_.b'), 'a-b');
  });
});

describe('checkRequirements', () => {
  const code = [
    'import os',
    'import yaml',
    'from PIL import Image',
    'import requests',
    'from . import local',
    'try:',
    '    import ujson',
    'except ImportError:',
    '    ujson = None',
    'import sklearn',
    'def execute(variables):',
    '    return ""',
    '',
  ].join('\n');
  const imports = analyzePython(code).imports;

  it('reports third-party imports no requirement provides, with the distribution to add', () => {
    const p = checkRequirements('pyyaml>=6\nRequests\n', imports).filter((x) => x.code === 'missing-requirement');
    assert.deepEqual(
      p.map((x) => [x.in, code.slice(x.start, x.end), x.data]),
      [
        ['tool_code', 'PIL', { module: 'PIL', distribution: 'Pillow' }],
        ['tool_code', 'sklearn', { module: 'sklearn', distribution: 'scikit-learn' }],
      ],
    );
    assert.match(p[0].message, /Pillow/);
  });

  it('treats an absent requirements field as empty', () => {
    const p = checkRequirements(undefined, imports).filter((x) => x.code === 'missing-requirement');
    assert.deepEqual(
      p.map((x) => (x.data as { distribution: string }).distribution),
      ['PyYAML', 'Pillow', 'requests', 'scikit-learn'],
    );
  });

  it('reports unused and duplicate requirements (names normalised)', () => {
    const text = 'PyYAML\npillow\nrequests\nscikit_learn\nflask\npyyaml==6.0\nlxml\nujson\n';
    const p = checkRequirements(text, imports);
    assert.deepEqual(
      p.map((x) => [x.code, x.in, (x.in === 'requirements' ? text : code).slice(x.start, x.end)]),
      [
        ['unused-requirement', 'requirements', 'flask'],
        ['duplicate-requirement', 'requirements', 'pyyaml'],
      ],
    );
  });

  it('does not call requirements with different markers duplicates', () => {
    const p = checkRequirements(
      'numpy<2; python_version < "3.9"\nnumpy>=2; python_version >= "3.9"\n',
      analyzePython('import numpy\n').imports,
    );
    assert.deepEqual(p, []);
  });

  it('accepts the module name itself as a distribution (bs4 shim, same-name packages)', () => {
    const p = checkRequirements('bs4\n', analyzePython('import bs4\n').imports);
    assert.deepEqual(p, []);
  });
});
