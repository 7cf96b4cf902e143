// One rule for the text people and imports write into a site: titles, names and free text. The
// server applies it wherever such text is written (a form, the desk, the Admin API, an import),
// and it sits in the contract so a form can show what will be kept; what is stored is what
// everyone sees. It removes what changes how text
// is shown without being seen, and the control characters that have no business in it; it refuses
// nothing: a credential (an email, a password) is refused instead, by account-rules.ts.

/**
 * Bidirectional embeddings, overrides and isolates (U+202A–202E, U+2066–2069): they reorder the
 * text around them, so "gnp.exe" can show as "exe.png" (the "Trojan Source" trick).
 */
const BIDI_CONTROLS = '\u202a-\u202e\u2066-\u2069';

/**
 * Invisible characters that a name or a title never needs: the bidirectional marks (LRM, RLM,
 * ALM), the zero-width space, word joiner and invisible operators, the deprecated format
 * characters, the byte order mark, the soft hyphen, the Mongolian vowel separator and the Hangul
 * fillers. ZWNJ and ZWJ (U+200C, U+200D) are handled apart: they do a job between letters and
 * in emoji sequences.
 */
const INVISIBLES =
  '\u00ad\u061c\u115f\u1160\u180e\u200b\u200e\u200f\u2060-\u2064\u206a-\u206f\u3164\ufeff\uffa0';

/** C0 and C1 control characters, tab and line breaks included; and the Unicode line separators. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const LINE_CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

/** The same, keeping tab and line feed (a carriage return becomes a line feed first). */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const PROSE_CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

const HIDDEN_IN_LINES = new RegExp(`[${BIDI_CONTROLS}${INVISIBLES}]`, 'gu');
const HIDDEN_IN_PROSE = new RegExp(`[${BIDI_CONTROLS}\\u200b\\u2060-\\u2064\\ufeff]`, 'gu');

/**
 * A joiner (ZWNJ, ZWJ) that does no job: one that is not between two letters (Persian, Indic
 * scripts) or, for ZWJ, between two pictographs (👩‍💻). Such a joiner is kept; any other is
 * removed, since it only hides a difference between two names that look the same.
 */
const IDLE_JOINER =
  /(?<![\p{L}\p{M}])\u200c|\u200c(?![\p{L}])|(?<![\p{L}\p{M}\p{Extended_Pictographic}\u{1f3fb}-\u{1f3ff}])(?<!\ufe0f)\u200d|\u200d(?![\p{L}\p{Extended_Pictographic}])/gu;

/**
 * A title or a name as it is stored and shown: one line in Unicode's composed form (NFC), with no
 * control characters (a line break or tab becomes a space), no bidirectional controls or marks,
 * no invisible characters and no idle joiners, runs of spaces made one, trimmed. It can be empty:
 * the caller says whether empty is allowed.
 */
export function cleanLine(text: string): string {
  return text
    .normalize('NFC')
    .replace(HIDDEN_IN_LINES, '')
    .replace(IDLE_JOINER, '')
    .replace(LINE_CONTROLS, ' ')
    .replace(/\s+/gu, ' ')
    .trim();
}

/**
 * Free text as it is stored (a note, a message, a summary, terms): its lines and tabs kept
 * (Windows and old Mac line ends become `\n`), the other control characters, the bidirectional
 * controls and the zero-width characters removed, trimmed. Marks (LRM, RLM) and joiners stay: in
 * prose that mixes right-to-left and left-to-right text they place the punctuation.
 */
export function cleanProse(text: string): string {
  return text
    .normalize('NFC')
    .replace(/\r\n?/g, '\n')
    .replace(HIDDEN_IN_PROSE, '')
    .replace(PROSE_CONTROLS, '')
    .trim();
}

/** A title or name cleaned, or null when nothing is left of it (or there was none). */
export function cleanLineOrNull(text: string | null | undefined): string | null {
  const cleaned = cleanLine(text ?? '');
  return cleaned === '' ? null : cleaned;
}
