/**
 * Runs `fn` once the messages already received have been handled: `setImmediate` in Node; in a web
 * worker, a message the worker posts itself (a nested `setTimeout(0)` waits at least 4 ms there, which
 * would slow every slice of a long analysis).
 */
export const immediate: (fn: () => void) => void =
  typeof setImmediate === 'function' ? (fn) => void setImmediate(fn) : viaMessageChannel();

function viaMessageChannel(): (fn: () => void) => void {
  const queue: (() => void)[] = [];
  const channel = new MessageChannel();
  // A browser's MessagePort (Node's types describe Node's, which has setImmediate and never gets here).
  (channel.port1 as unknown as { onmessage: () => void }).onmessage = () => queue.shift()?.();
  return (fn) => {
    queue.push(fn);
    channel.port2.postMessage(0);
  };
}
