/** Numbers in messages, written one way by every part of tooldef: sizes, memory, durations. */

/** `812 B`, `12.3 KB`, `4.1 MB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${+(bytes / 1024).toFixed(1)} KB`;
  return `${+(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** `212.4 MB`, `1.5 GB`. */
export function formatMemory(mb: number): string {
  return mb >= 1024 ? `${+(mb / 1024).toFixed(1)} GB` : `${+mb.toFixed(1)} MB`;
}

/** `0.15 s`, `2.1 s`, `45 s`, `2 min`, `2 min 5 s`, `60 min`. */
export function formatDuration(ms: number): string {
  const t = Math.max(0, ms);
  if (t < 59_950) return `${+(t / 1000).toFixed(t < 10_000 ? 2 : 1)} s`;
  const s = Math.round(t / 1000);
  return s % 60 ? `${Math.floor(s / 60)} min ${s % 60} s` : `${s / 60} min`;
}
