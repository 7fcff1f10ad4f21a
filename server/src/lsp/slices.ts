import type { Steps } from '../service/steps';

/** How long one slice may hold the event loop: well under a keystroke's budget. */
export const SLICE_MS = 8;

/**
 * Runs resumable steps a slice at a time, returning to the event loop between slices so that
 * requests and newer edits are handled while a long analysis runs. Answers true when the steps
 * finished and false when `stale` said, before a slice, that their result is no longer wanted.
 */
export function runInSlices(steps: Steps<unknown>, stale: () => boolean, sliceMs = SLICE_MS): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const slice = (): void => {
      if (stale()) return resolve(false);
      const end = performance.now() + sliceMs;
      try {
        do if (steps.next().done) return resolve(true);
        while (performance.now() < end);
      } catch (e) {
        return reject(e);
      }
      setImmediate(slice);
    };
    slice();
  });
}
