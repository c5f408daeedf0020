/**
 * Tag and name rules protect loosely: a plant whose tag or name a person
 * (or a service's search) takes for the protected one is protected, though
 * its text differs in ways that do not show. Both sides, the rule and the
 * plant's text, are read the same way (looseText):
 *
 * - invisible characters go: format characters (\p{Cf}: zero-width space,
 *   joiners, soft hyphen, BOM, bidi marks), the other default-ignorable
 *   ones (variation selectors, Hangul fillers) and control characters that
 *   are not white space;
 * - Unicode compatibility forms are one (NFKC): `ＭＯＴＨＥＲ` is `MOTHER`,
 *   `ﬁ` is `fi`, and a name in NFD is the same as in NFC;
 * - every white space character (NBSP, U+2000 to U+200A, U+202F, U+3000,
 *   line breaks, tabs) is a space, a run of them one space, and none at
 *   either end;
 * - dashes (\p{Pd}, and the minus sign) are `-`;
 * - letter case is folded: upper case, then lower (`ß`, `SS` and `ss` are
 *   one; so are final and other sigma, and the dotted and dotless i of
 *   Turkish: `I`, `ı`, `İ`, `i`).
 *
 * Selection stays exact (`--tag`, `--name` of list and prune): this reading
 * only ever protects more.
 */

/** One way two texts may differ unseen; a refusal names those a match needed. */
export type LooseStep = 'invisible characters' | 'Unicode forms' | 'white space' | 'dashes' | 'letter case';

export const LOOSE_STEPS: readonly LooseStep[] = [
  'invisible characters',
  'Unicode forms',
  'white space',
  'dashes',
  'letter case',
];

// eslint-disable-next-line no-control-regex
const INVISIBLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}\u0000-\u0008\u000e-\u001f\u007f-\u0084\u0086-\u009f]/gu;
const WHITE_SPACE = /[\s\u0085]+/g;
const DASH = /[\p{Pd}\u2212]/gu;
/** Text that reads the same loosely once lower-cased: printable ASCII, single spaces inside. */
const PLAIN = /^[\x21-\x7e]+(?: [\x21-\x7e]+)*$/;

/** `text` as tag and name rules compare it; `skip` leaves one step out (to tell which a match needed). */
export function looseText(text: string, skip?: LooseStep): string {
  if (skip === undefined && PLAIN.test(text)) return text.toLowerCase();
  let loose = text;
  if (skip !== 'invisible characters') loose = loose.replace(INVISIBLE, '');
  if (skip !== 'Unicode forms') loose = loose.normalize('NFKC');
  if (skip !== 'white space') loose = loose.replace(WHITE_SPACE, ' ').trim();
  if (skip !== 'dashes') loose = loose.replace(DASH, '-');
  if (skip !== 'letter case') {
    // Upper case first folds ß to SS and ς to Σ; ı and İ become I and i: one letter.
    loose = loose.toUpperCase().toLowerCase().replaceAll('ς', 'σ').replaceAll('i\u0307', 'i');
    if (skip !== 'Unicode forms') loose = loose.normalize('NFKC');
  }
  return loose;
}

/** What looseText drops or reads as a space unseen: invisible characters, and white space other than a space. */
// eslint-disable-next-line no-control-regex
const UNSEEN = /[\p{Cf}\p{Default_Ignorable_Code_Point}\u0000-\u001f\u007f-\u009f\s]/gu;

/**
 * `text` with what does not show written as escapes (`Mother\u00a0Fern`,
 * `Mo\u200bther`), a space kept: so a refusal shows how a plant's text
 * differs from the rule that matched it.
 */
export function unseenShown(text: string): string {
  return text.replace(UNSEEN, (ch) => (ch === ' ' ? ch : `\\u${ch.codePointAt(0)!.toString(16).padStart(4, '0')}`));
}
