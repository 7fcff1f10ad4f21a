// The language server's environment: the private folders of its code cache (server/src/boot.ts: it
// starts sooner from it) and of its kept Python analyses (server/src/node/analysisCache.ts: a file
// opened again is complete at once), and glibc's allocator told to give freed memory back.
import * as path from 'node:path';

/**
 * With a fixed trim threshold glibc returns freed memory at the top of its heap to the system; its
 * default threshold grows after large frees (the 12 MB messages of a huge file), and a server that
 * has handled one then keeps ~25 MB it no longer uses (measured by `npm run bench`: 134 → 107 MB after
 * the huge-file session). Other C libraries ignore the variable.
 */
export const ALLOCATOR_ENV = { MALLOC_TRIM_THRESHOLD_: '131072' } as const;

export function serverEnvironment(storage: string, base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return {
    ...base,
    ...ALLOCATOR_ENV,
    TOOLDEF_CODE_CACHE: path.join(storage, 'code-cache'),
    TOOLDEF_ANALYSIS_CACHE: path.join(storage, 'analysis'),
  };
}
