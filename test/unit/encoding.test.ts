// How a definition file's bytes become text (tooldef check and the upload gate): UTF-8, and every other
// encoding said once.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeDefinition } from '../../server/src/service/encoding';

const utf16 = (text: string, bom: boolean, big: boolean): Uint8Array => {
  const le = Buffer.from((bom ? '\ufeff' : '') + text, 'utf16le');
  if (big) for (let i = 0; i < le.length; i += 2) [le[i], le[i + 1]] = [le[i + 1], le[i]];
  return le;
};

describe('decodeDefinition', () => {
  it('UTF-8, with or without a BOM, multi-byte characters included: the text, no problem', () => {
    assert.deepEqual(decodeDefinition(Buffer.from('{"a": "Grüße 🌍"}')), { text: '{"a": "Grüße 🌍"}' });
    assert.deepEqual(decodeDefinition(Buffer.from('\ufeff{}')), { text: '\ufeff{}' });
    assert.deepEqual(decodeDefinition(new Uint8Array()), { text: '' });
  });

  it('UTF-16 in either byte order, with or without a BOM: decoded, and said once', () => {
    for (const big of [false, true])
      for (const bom of [true, false]) {
        const d = decodeDefinition(utf16('{"a": "é"}', bom, big));
        assert.equal(d.text.replace(/^\ufeff/, ''), '{"a": "é"}', `big=${big} bom=${bom}`);
        assert.equal(d.problem?.offset, 0);
        assert.match(d.problem!.message, big ? /UTF-16 \(big-endian\)/ : /UTF-16 \(little-endian\)/);
        assert.match(d.problem!.message, /save it as UTF-8/);
      }
  });

  it('bytes that are not UTF-8: said at the first of them, its offset in the text', () => {
    const bytes = Buffer.concat([Buffer.from('{"a": "é'), Buffer.from([0xe9]), Buffer.from('"}')]);
    const d = decodeDefinition(bytes);
    assert.equal(
      d.problem?.message,
      'This file is not valid UTF-8 (byte 0xE9 at byte 9); definition files are UTF-8 JSON: save it as UTF-8.',
    );
    assert.equal(d.problem?.offset, 8, 'after {"a": "é (8 characters)');
    assert.equal(d.text[8], '\ufffd');
    for (const bad of [[0xc0, 0x80], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xe2, 0x82], [0xff]])
      assert.equal(decodeDefinition(Buffer.from([0x7b, ...bad])).problem?.offset, 1, bad.join(' '));
  });
});
