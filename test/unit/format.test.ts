// Numbers in messages: one way of writing sizes, memory and durations everywhere.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatBytes, formatDuration, formatMemory } from '../../server/src/service/format';

describe('format', () => {
  it('sizes', () => {
    const table: [number, string][] = [
      [0, '0 B'],
      [812, '812 B'],
      [1024, '1 KB'],
      [12_595, '12.3 KB'],
      [1024 * 1024, '1 MB'],
      [4.1 * 1024 * 1024, '4.1 MB'],
    ];
    for (const [n, text] of table) assert.equal(formatBytes(n), text, String(n));
  });

  it('memory', () => {
    assert.equal(formatMemory(212.44), '212.4 MB');
    assert.equal(formatMemory(1023.96), '1024 MB');
    assert.equal(formatMemory(1536), '1.5 GB');
    assert.equal(formatMemory(10 * 1024), '10 GB');
  });

  it('durations', () => {
    const table: [number, string][] = [
      [-5, '0 s'],
      [0, '0 s'],
      [150, '0.15 s'],
      [300, '0.3 s'],
      [2_104, '2.1 s'],
      [7_000, '7 s'],
      [45_300, '45.3 s'],
      [59_949, '59.9 s'],
      [59_950, '1 min'],
      [125_000, '2 min 5 s'],
      [15 * 60_000, '15 min'],
      [3_600_400, '60 min'],
    ];
    for (const [ms, text] of table) assert.equal(formatDuration(ms), text, String(ms));
  });
});
