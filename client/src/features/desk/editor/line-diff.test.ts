import { describe, expect, it } from 'vitest';
import { diffLines, foldUnchanged, type DiffLine } from './line-diff';

/** A diff written as a patch is read: ` ` same, `-` removed, `+` added. */
const patch = (lines: DiffLine[]) =>
  lines.map(({ change, text }) => `${{ same: ' ', removed: '-', added: '+' }[change]}${text}`);

describe('the history’s line diff', () => {
  it('marks nothing when the texts are the same, and everything when one is empty', () => {
    expect(patch(diffLines('one\ntwo', 'one\ntwo'))).toEqual([' one', ' two']);
    expect(patch(diffLines('', 'one\ntwo'))).toEqual(['+one', '+two']);
    expect(patch(diffLines('one\ntwo', ''))).toEqual(['-one', '-two']);
    expect(diffLines('', '')).toEqual([]);
  });

  it('keeps the longest run of shared lines and marks only the lines that changed', () => {
    const before = ['# Title', 'Intro.', 'Old middle.', 'Shared.', 'Gone.', 'End.'].join('\n');
    const after = ['# Title', 'Intro.', 'New middle.', 'Shared.', 'End.', 'Added.'].join('\n');
    expect(patch(diffLines(before, after))).toEqual([
      ' # Title',
      ' Intro.',
      '-Old middle.',
      '+New middle.',
      ' Shared.',
      '-Gone.',
      ' End.',
      '+Added.',
    ]);
  });

  it('finds lines that moved past an insertion, and reads Windows line ends as lines', () => {
    expect(patch(diffLines('a\r\nb\r\nc', 'x\na\nb\ny\nc'))).toEqual([
      '+x',
      ' a',
      ' b',
      '+y',
      ' c',
    ]);
  });

  it('rebuilds each text from its side of the diff', () => {
    const before = 'p\nq\nr\ns\nt\nu\nv';
    const after = 'q\nr\nX\nt\nv\nw';
    const lines = diffLines(before, after);
    const side = (keep: DiffLine['change']) =>
      lines
        .filter((line) => line.change === 'same' || line.change === keep)
        .map((line) => line.text)
        .join('\n');
    expect(side('removed')).toBe(before);
    expect(side('added')).toBe(after);
    // Four shared lines (q, r, t, v) is the most these texts have in common.
    expect(lines.filter((line) => line.change === 'same')).toHaveLength(4);
  });

  it('folds long unchanged runs into a count, keeping two lines of context by each change', () => {
    const before = Array.from({ length: 20 }, (_, n) => `line ${n + 1}`);
    const after = [...before];
    after[9] = 'line 10, rewritten';
    const parts = foldUnchanged(diffLines(before.join('\n'), after.join('\n')));
    expect(parts).toEqual([
      { change: 'folded', lines: 7 },
      { change: 'same', text: 'line 8' },
      { change: 'same', text: 'line 9' },
      { change: 'removed', text: 'line 10' },
      { change: 'added', text: 'line 10, rewritten' },
      { change: 'same', text: 'line 11' },
      { change: 'same', text: 'line 12' },
      { change: 'folded', lines: 8 },
    ]);
  });
});
