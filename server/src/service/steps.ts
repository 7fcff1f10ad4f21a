/**
 * Long computations of the service (the Python analysis) are written as generators that yield
 * between small steps: the language server runs them in slices between requests, everything else
 * runs them to the end at once with `finish`.
 */
export type Steps<T> = Generator<void, T, void>;

/** Runs steps to the end and answers their result. */
export function finish<T>(steps: Steps<T>): T {
  let r = steps.next();
  while (!r.done) r = steps.next();
  return r.value;
}
