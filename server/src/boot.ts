// dist/server.js: starts the language server bundle (dist/server-main.js), compiled from a V8 code
// cache when the client names a private directory for one ($TOOLDEF_CODE_CACHE: the extension's
// global storage). Compiling the bundle is most of the server's own start-up; from the cache the
// server answers `initialize` 25-45 ms sooner (measured by `npm run bench`, side by side).
//
// The cache file is named for the bundle's content hash and the V8 version, so a cache never meets
// other code (V8 itself checks only the source length); it is written to a temporary name and then
// renamed, so that servers starting side by side never read half a file. Without the directory, or
// on any failure before the bundle runs, the bundle is simply required.
import { mkdirSync, readdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Script } from 'node:vm';

/** sha256 of dist/server-main.js, written in by scripts/build.mjs. */
declare const MAIN_HASH: string;

const main = join(__dirname, 'server-main.js');
const cacheDir = process.env.TOOLDEF_CODE_CACHE;
const start = cacheDir ? compiled(main, cacheDir) : undefined;
if (start) start();
else createRequire(main)(main);

/** The bundle compiled (from the cache when it fits), ready to run; undefined on any failure. */
function compiled(file: string, dir: string): (() => void) | undefined {
  try {
    const source = readFileSync(file, 'utf8');
    const cacheFile = join(dir, `server-${MAIN_HASH.slice(0, 16)}-${process.versions.v8}.cache`);
    let cachedData: Buffer | undefined;
    try {
      cachedData = readFileSync(cacheFile);
    } catch {
      // none yet
    }
    const script = new Script(Module.wrap(source), { filename: file, cachedData });
    if (!cachedData || script.cachedDataRejected) {
      // Made a second after the start, so that the code run by then (`initialize` included) is in it,
      // and made again as the server exits, with the code of that first session's work (validation,
      // completion, …): code compiled only once a file is open is then read from it too.
      setTimeout(() => save(script, dir, cacheFile), 1000).unref();
      process.once('exit', () => save(script, dir, cacheFile));
    }
    const wrapper = script.runInThisContext() as (
      exports: object,
      require: NodeRequire,
      module: object,
      filename: string,
      dirname: string,
    ) => void;
    return () => {
      const mod = { exports: {}, filename: file, id: file, loaded: false };
      wrapper.call(mod.exports, mod.exports, createRequire(file), mod, file, dirname(file));
    };
  } catch {
    return undefined;
  }
}

function save(script: Script, dir: string, cacheFile: string): void {
  try {
    mkdirSync(dir, { recursive: true });
    const temporary = `${cacheFile}.${process.pid}.tmp`;
    writeFileSync(temporary, script.createCachedData());
    renameSync(temporary, cacheFile);
    // Caches of other builds and Node versions are never read again (nor are leftovers of a crash).
    for (const name of readdirSync(dir)) {
      if (/^server-.*\.cache(\.\d+\.tmp)?$/.test(name) && join(dir, name) !== cacheFile) unlinkSync(join(dir, name));
    }
  } catch {
    // a cache is an optimisation: the next start tries again
  }
}
