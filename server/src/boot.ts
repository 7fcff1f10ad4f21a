// dist/server.js: starts the language server bundle (dist/server-main.js), compiled from a V8 code
// cache when the client names a private directory for one ($TOOLDEF_CODE_CACHE: the extension's
// global storage), and so are the parts it loads on first use (dist/python.js, …). Compiling the
// bundle is most of the server's own start-up; from the cache the server answers `initialize` 12-17 ms
// sooner (71-73 ms against 83-90 in `npm run bench`), and the first analysis of a smart tool skips
// compiling the Python parser.
//
// A cache file is named for its bundle's content hash and the V8 version, so a cache never meets
// other code (V8 itself checks only the source length); it is written to a temporary name and then
// renamed, so that servers starting side by side never read half a file. Without the directory, or
// on any failure before a bundle runs, the bundle is simply required.
import { mkdirSync, readdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';

/** sha256 (16 hex digits) of each bundle named for its file: server-main and the parts, by scripts/build.mjs. */
declare const BUNDLE_HASHES: Readonly<Record<string, string>>;

const main = join(__dirname, 'server-main.js');
const cacheDir = process.env.TOOLDEF_CODE_CACHE;
const run = cacheDir ? compiled(main, cacheDir) : undefined;
if (run) run();
else createRequire(main)(main);

/** A bundle beside this file compiled (from its cache when it fits), ready to run; undefined on any failure. */
function compiled(file: string, dir: string): (() => unknown) | undefined {
  try {
    const name = basename(file, '.js');
    const hash = BUNDLE_HASHES[name];
    if (!hash) return undefined;
    const source = readFileSync(file, 'utf8');
    const cacheFile = join(dir, `${name}-${hash}-${process.versions.v8}.cache`);
    let cachedData: Buffer | undefined;
    try {
      cachedData = readFileSync(cacheFile);
    } catch {
      // none yet
    }
    const script = new Script(Module.wrap(source), { filename: file, cachedData });
    if (!cachedData || script.cachedDataRejected) {
      // Made a second after the bundle loads, so that the code run by then (`initialize`, a first
      // analysis) is in it, and made again as the server exits, with the code of that session's work
      // (validation, completion, …): code compiled only later is then read from it too.
      setTimeout(() => save(script, dir, name, cacheFile), 1000).unref();
      process.once('exit', () => save(script, dir, name, cacheFile));
    }
    const wrapper = script.runInThisContext() as (
      exports: object,
      require: NodeRequire,
      module: { exports: unknown },
      filename: string,
      dirname: string,
    ) => void;
    return () => {
      const mod = { exports: {}, filename: file, id: file, loaded: false };
      wrapper.call(mod.exports, mod.exports, requireOf(file, dir), mod, file, dirname(file));
      return mod.exports;
    };
  } catch {
    return undefined;
  }
}

/** The `require` of a bundle run from the cache: the parts beside it (`./python.js`, …) load from the cache too. */
function requireOf(file: string, dir: string): NodeRequire {
  const plain = createRequire(file);
  const parts = new Map<string, unknown>();
  const load = (id: string): unknown => {
    const part = /^\.\/([\w-]+)\.js$/.exec(id);
    if (!part || !(part[1] in BUNDLE_HASHES)) return plain(id);
    if (!parts.has(id)) parts.set(id, (compiled(join(dirname(file), id), dir) ?? (() => plain(id)))());
    return parts.get(id);
  };
  return Object.assign(load, plain);
}

function save(script: Script, dir: string, name: string, cacheFile: string): void {
  try {
    mkdirSync(dir, { recursive: true });
    const temporary = `${cacheFile}.${process.pid}.tmp`;
    writeFileSync(temporary, script.createCachedData());
    renameSync(temporary, cacheFile);
    // Caches of this bundle's other builds and Node versions are never read again (nor are leftovers of a crash).
    const ours = new RegExp(`^${name}-[0-9a-f]{16}-.*\\.cache(\\.\\d+\\.tmp)?$`);
    for (const entry of readdirSync(dir)) {
      if (ours.test(entry) && join(dir, entry) !== cacheFile) unlinkSync(join(dir, entry));
    }
  } catch {
    // a cache is an optimisation: the next start tries again
  }
}
