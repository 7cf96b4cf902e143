import { describe, expect, it } from 'vitest';
import { cleanLine, cleanLineOrNull, cleanProse } from '../../contract/text-hygiene.js';

describe('cleanLine: titles and names', () => {
  it('removes a right-to-left override, so a name cannot show reversed', () => {
    expect(cleanLine('Ann\u202eexe.gnp')).toBe('Annexe.gnp');
  });

  it('removes every bidirectional embedding, override, isolate and mark', () => {
    const controls = [
      '\u202a',
      '\u202b',
      '\u202c',
      '\u202d',
      '\u202e',
      '\u2066',
      '\u2067',
      '\u2068',
      '\u2069',
      '\u200e',
      '\u200f',
      '\u061c',
    ];
    for (const control of controls) expect(cleanLine(`a${control}b`)).toBe('ab');
  });

  it('removes zero-width and invisible characters, the byte order mark and soft hyphens', () => {
    for (const hidden of ['\u200b', '\u2060', '\u2063', '\ufeff', '\u00ad', '\u180e', '\u3164']) {
      expect(cleanLine(`Jo${hidden}hn`)).toBe('John');
    }
  });

  it('turns line breaks, tabs and other control characters into one space', () => {
    expect(cleanLine('  Two\r\nlines\tand\u0007a bell\u2028  ')).toBe('Two lines and a bell');
    expect(cleanLine('C1\u0085next')).toBe('C1 next');
  });

  it('keeps the joiners that do a job: in emoji sequences and between letters', () => {
    const technologist = '\u{1f469}\u200d\u{1f4bb}';
    const heartOnFire = '\u2764\ufe0f\u200d\u{1f525}';
    const persian = 'می\u200cخواهم';
    expect(cleanLine(technologist)).toBe(technologist);
    expect(cleanLine(heartOnFire)).toBe(heartOnFire);
    expect(cleanLine(persian)).toBe(persian);
  });

  it('removes joiners that do nothing: at the edges of a word or next to a space', () => {
    expect(cleanLine('\u200dAdmin\u200c')).toBe('Admin');
    expect(cleanLine('Ad\u200d min')).toBe('Ad min');
  });

  it('stores the composed form, so two spellings of é are one name', () => {
    expect(cleanLine('Rene\u0301')).toBe('René');
    expect(cleanLine('Rene\u0301')).toBe(cleanLine('Ren\u00e9'));
  });

  it('keeps the text of every script as written', () => {
    for (const name of ['Zoë Ødegård', 'Ελένη', 'Алёна', 'محمد', 'שָׁלוֹם', '山田 太郎', 'सीता']) {
      expect(cleanLine(name)).toBe(name.normalize('NFC'));
    }
  });

  it('says null for nothing left', () => {
    expect(cleanLineOrNull('\u202e \u200b')).toBeNull();
    expect(cleanLineOrNull(undefined)).toBeNull();
    expect(cleanLineOrNull(' Ada ')).toBe('Ada');
  });
});

describe('cleanProse: free text', () => {
  it('keeps lines and tabs, making every line end a line feed', () => {
    expect(cleanProse('one\r\ntwo\rthree\n\tfour')).toBe('one\ntwo\nthree\n\tfour');
  });

  it('removes bidirectional controls, zero-width spaces and other control characters', () => {
    expect(cleanProse('pay \u202emoc.evil\u202c now\u0000\u001b[31m\u200b')).toBe(
      'pay moc.evil now[31m',
    );
  });

  it('keeps the marks that place punctuation in mixed right-to-left text', () => {
    expect(cleanProse('שלום\u200f!')).toBe('שלום\u200f!');
  });
});
