import { immediate } from './immediate';
import type { Steps } from '../service/steps';

/** How long one slice may hold the event loop: well under a keystroke's budget. */
export const SLICE_MS = 8;

/** Foreground runs in progress, and the background runs waiting for them to end. */
let foreground = 0;
const waiting: (() => void)[] = [];

/**
 * Runs resumable steps a slice at a time, returning to the event loop between slices so that
 * requests and newer edits are handled while a long analysis runs. Answers true when the steps
 * finished and false when `stale` said, before a slice, that their result is no longer wanted.
 * Background runs (work nobody waits for: warming up, analysing files ahead) pause while any
 * foreground run (a document's analysis) is in progress, so that they do not halve its speed.
 */
export function runInSlices(
  steps: Steps<unknown>,
  stale: () => boolean,
  priority: 'foreground' | 'background' = 'foreground',
): Promise<boolean> {
  const background = priority === 'background';
  if (!background) foreground++;
  return new Promise<boolean>((resolve, reject) => {
    const slice = (): void => {
      if (stale()) return resolve(false);
      if (background && foreground > 0) return void waiting.push(slice);
      const end = performance.now() + SLICE_MS;
      try {
        do if (steps.next().done) return resolve(true);
        while (performance.now() < end);
      } catch (e) {
        return reject(e);
      }
      immediate(slice);
    };
    slice();
  }).finally(() => {
    if (!background && --foreground === 0) for (const resume of waiting.splice(0)) immediate(resume);
  });
}
