// The parse tables inlined as text: the browser bundle's replacement for tables.ts (scripts/build.mjs).
import tablesText from './python-tables.grammar-data';

export const tables: unknown = JSON.parse(tablesText);
