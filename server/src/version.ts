// The version, from the one place it is written: package.json (a named import, so the bundles keep
// only this field of it).
import { version } from '../../package.json';

export const VERSION: string = version;
