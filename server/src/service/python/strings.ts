/** A name as the content of a Python string literal opened with `quote` (`"`, `'`, `"""` or `'''`). */
export function pythonStringContent(name: string, quote: string): string {
  const q = quote[0];
  return name.replace(/\\/g, '\\\\').replace(new RegExp(q, 'g'), `\\${q}`).replace(/\n/g, '\\n');
}
