/** "Did you mean" support: edit distance with a bound, so long inputs cost nothing. */
export function closest(word: string, candidates: Iterable<string>, maxResults = 3): string[] {
  if (word.length > 64) return [];
  const limit = Math.max(2, Math.floor(word.length / 3));
  const scored: { c: string; d: number }[] = [];
  const lower = word.toLowerCase();
  for (const c of candidates) {
    if (c === word || c.length > 64) continue;
    const d = c.toLowerCase() === lower ? 0 : distance(lower, c.toLowerCase());
    if (d <= limit) scored.push({ c, d });
  }
  return scored
    .sort((a, b) => a.d - b.d || a.c.localeCompare(b.c))
    .slice(0, maxResults)
    .map((s) => s.c);
}

/** Optimal string alignment distance (Levenshtein plus adjacent transpositions). */
function distance(a: string, b: string): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    rows.push([i]);
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        rows[0].push(j);
        continue;
      }
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2][j - 2] + 1);
      rows[i].push(d);
    }
  }
  return rows[a.length][b.length];
}
