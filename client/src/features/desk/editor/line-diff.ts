/**
 * A line diff for the editor's history: which lines of the old text were removed, which of the
 * new one added, and which both share (the longest common subsequence of their lines).
 */

export type DiffLine = { change: 'same' | 'removed' | 'added'; text: string };

/** What a diff shows: its changed lines with a little context, the unchanged runs between folded. */
export type DiffPart = DiffLine | { change: 'folded'; lines: number };

/**
 * Beyond this many cells (old lines × new lines, after the common start and end are set aside)
 * the texts are shown as all removed, then all added, rather than compared line by line.
 */
const MAX_CELLS = 4_000_000;

const linesOf = (text: string) => (text === '' ? [] : text.replace(/\r\n?/g, '\n').split('\n'));

/** The old text's lines and the new one's, in order, each marked same, removed or added. */
export function diffLines(before: string, after: string): DiffLine[] {
  const a = linesOf(before);
  const b = linesOf(after);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start += 1;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA -= 1;
    endB -= 1;
  }
  const same = (lines: string[]) => lines.map((text): DiffLine => ({ change: 'same', text }));
  return [
    ...same(a.slice(0, start)),
    ...diffMiddle(a.slice(start, endA), b.slice(start, endB)),
    ...same(a.slice(endA)),
  ];
}

/** The LCS table, filled from the ends, then walked from the start. */
function diffMiddle(a: string[], b: string[]): DiffLine[] {
  const removed = (text: string): DiffLine => ({ change: 'removed', text });
  const added = (text: string): DiffLine => ({ change: 'added', text });
  if (a.length === 0 || b.length === 0 || a.length * b.length > MAX_CELLS) {
    return [...a.map(removed), ...b.map(added)];
  }
  const width = b.length + 1;
  // common[i * width + j]: the length of the longest common subsequence of a[i..] and b[j..].
  const common = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i -= 1) {
    for (let j = b.length - 1; j >= 0; j -= 1) {
      common[i * width + j] =
        a[i] === b[j]
          ? (common[(i + 1) * width + j + 1] ?? 0) + 1
          : Math.max(common[(i + 1) * width + j] ?? 0, common[i * width + j + 1] ?? 0);
    }
  }
  const lines: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const lineA = a[i] ?? '';
    const lineB = b[j] ?? '';
    if (lineA === lineB) {
      lines.push({ change: 'same', text: lineA });
      i += 1;
      j += 1;
    } else if ((common[(i + 1) * width + j] ?? 0) >= (common[i * width + j + 1] ?? 0)) {
      lines.push(removed(lineA));
      i += 1;
    } else {
      lines.push(added(lineB));
      j += 1;
    }
  }
  return [...lines, ...a.slice(i).map(removed), ...b.slice(j).map(added)];
}

/**
 * The diff as it is read: each change with up to `context` unchanged lines around it, and each
 * longer unchanged run folded into a count.
 */
export function foldUnchanged(lines: DiffLine[], context = 2): DiffPart[] {
  const changed = lines.map((line) => line.change !== 'same');
  const near = (index: number) => {
    for (let k = Math.max(0, index - context); k <= index + context; k += 1) {
      if (changed[k]) return true;
    }
    return false;
  };
  const parts: DiffPart[] = [];
  lines.forEach((line, index) => {
    if (near(index)) {
      parts.push(line);
      return;
    }
    const last = parts.at(-1);
    if (last?.change === 'folded') last.lines += 1;
    else parts.push({ change: 'folded', lines: 1 });
  });
  return parts;
}
