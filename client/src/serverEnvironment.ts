// The language server's environment: the private folders of its code cache (server/src/boot.ts: it
// starts sooner from it) and of its kept Python analyses (server/src/node/analysisCache.ts: a file
// opened again is complete at once), glibc's allocator told to give freed memory back, and a smaller
// young generation for V8.
import * as path from 'node:path';

/**
 * With a fixed trim threshold glibc returns freed memory at the top of its heap to the system; its
 * default threshold grows after large frees (the 12 MB messages of a huge file), and a server that
 * has handled one then keeps ~25 MB it no longer uses (measured by `npm run bench`: 134 → 107 MB after
 * the huge-file session). Other C libraries ignore the variable.
 */
export const ALLOCATOR_ENV = { MALLOC_TRIM_THRESHOLD_: '131072' } as const;

/**
 * V8's young generation at most 8 MB a semi-space (Node 20's default is 16): the server keeps the young
 * generation it grew to, and after the huge-file session and a full GC it holds 91–96 MB instead of
 * 108 MB (`npm run bench`). The price, measured there: ≈ 7 ms more to answer `initialize` (68 → 76 ms,
 * more scavenges while the bundle loads) and ≈ 1.5 ms on a whole analysis of the large tool_code;
 * nothing measurable on typing or on opening a file.
 */
export const SERVER_NODE_ARGS: readonly string[] = ['--max-semi-space-size=8'];

export function serverEnvironment(storage: string, base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return {
    ...base,
    ...ALLOCATOR_ENV,
    TOOLDEF_CODE_CACHE: path.join(storage, 'code-cache'),
    TOOLDEF_ANALYSIS_CACHE: path.join(storage, 'analysis'),
  };
}
