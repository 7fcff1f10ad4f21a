// The parse tables of parser.ts: data, not code, so they ship as a file of their own beside the bundle
// (esbuild's file loader copies it, see scripts/build.mjs), which keeps them out of the JavaScript that
// loads at start-up. The browser bundle, which has no files, takes tablesInline.ts instead.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import tablesFile from './python-tables.grammar-data';

export const tables: unknown = JSON.parse(readFileSync(join(__dirname, tablesFile), 'utf8'));
