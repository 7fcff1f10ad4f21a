// One list per fact: what package.json declares about rules and the version is what the code has.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { RULES, SEVERITY_SETTINGS } from '../../server/src/service/rules';
import { VERSION } from '../../server/src/version';

const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8'));
const properties = (manifest.contributes.configuration.properties ?? {}) as Record<
  string,
  { propertyNames?: { enum: string[] }; additionalProperties?: { enum: string[] } }
>;

describe('package.json', () => {
  it("offers every rule code in tooldef.rules, in the catalogue's order, and nothing else", () => {
    assert.deepEqual(properties['tooldef.rules'].propertyNames!.enum, Object.keys(RULES));
  });

  it('offers the severities the server and the CLI accept', () => {
    assert.deepEqual(properties['tooldef.rules'].additionalProperties!.enum, SEVERITY_SETTINGS);
  });

  it('is where the version comes from', () => {
    assert.equal(VERSION, manifest.version);
    assert.match(VERSION, /^\d+\.\d+\.\d+/);
  });
});
