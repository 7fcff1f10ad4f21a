// PyPI is out of reach of the test machines: the examples' third-party requirements are installed from
// a wheelhouse built here from Debian's own copy of the package (python3-yaml, installed by
// scripts/test.mjs), its pure-Python part as a py3-none-any wheel. The package is the real one.
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';

const BUILD = String.raw`
import base64, csv, hashlib, io, os, sys, zipfile, importlib.metadata as md
out = sys.argv[1]
dist = md.distribution('PyYAML')
name, version = dist.metadata['Name'], dist.version
site = os.path.dirname(os.path.dirname(os.fspath(dist.locate_file('yaml/__init__.py'))))
files = []
for package in ('yaml', '_yaml'):
    base = os.path.join(site, package)
    for f in sorted(os.listdir(base)):
        if f.endswith('.py'):
            files.append((f'{package}/{f}', open(os.path.join(base, f), 'rb').read()))
info = f'{name}-{version}.dist-info'
files.append((f'{info}/METADATA', dist.read_text('METADATA').encode()))
files.append((f'{info}/WHEEL', b'Wheel-Version: 1.0\nGenerator: tooldef-tests\nRoot-Is-Purelib: true\nTag: py3-none-any\n'))
files.append((f'{info}/top_level.txt', b'_yaml\nyaml\n'))
record = io.StringIO()
w = csv.writer(record, lineterminator='\n')
for path, data in files:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b'=').decode()
    w.writerow([path, f'sha256={digest}', len(data)])
w.writerow([f'{info}/RECORD', '', ''])
files.append((f'{info}/RECORD', record.getvalue().encode()))
wheel = os.path.join(out, f'{name}-{version}-py3-none-any.whl')
with zipfile.ZipFile(wheel, 'w', zipfile.ZIP_DEFLATED) as z:
    for path, data in files:
        z.writestr(path, data)
print(wheel)
`;

/** Builds the wheelhouse into `dir`; the error when the system Python has no PyYAML to build it from. */
export function buildWheelhouse(dir: string): string | undefined {
  mkdirSync(dir, { recursive: true });
  const r = spawnSync('/usr/bin/python3', ['-c', BUILD, dir], { encoding: 'utf8' });
  return r.status === 0 ? undefined : `cannot build the PyYAML wheel from Debian's python3-yaml: ${r.stderr}`;
}
