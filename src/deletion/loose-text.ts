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

/** Invisible characters, dropped before text is compared; idSpellings drops them from an id too. */
export const INVISIBLE =
  // eslint-disable-next-line no-control-regex
  /[\p{Cf}\p{Default_Ignorable_Code_Point}\u0000-\u0008\u000e-\u001f\u007f-\u0084\u0086-\u009f]/gu;
const WHITE_SPACE = /[\s\u0085]+/g;
const DASH = /[\p{Pd}\u2212]/gu;
/** Text that reads the same loosely once lower-cased: printable ASCII, single spaces inside. */
const PLAIN = /^[\x21-\x7e]+(?: [\x21-\x7e]+)*$/;

/** `text` as tag and name rules compare it; `steps`, only some of the ways (to tell which a match needed). */
export function looseText(text: string, steps?: ReadonlySet<LooseStep>): string {
  if (steps === undefined && PLAIN.test(text)) return text.toLowerCase();
  const on = (step: LooseStep) => steps === undefined || steps.has(step);
  let loose = text;
  if (on('invisible characters')) loose = loose.replace(INVISIBLE, '');
  if (on('Unicode forms')) loose = loose.normalize('NFKC');
  if (on('white space')) loose = loose.replace(WHITE_SPACE, ' ').trim();
  if (on('dashes')) loose = loose.replace(DASH, '-');
  if (on('letter case')) {
    // Upper case first folds ß to SS and ς to Σ; ı and İ become I and i: one letter.
    loose = loose.toUpperCase().toLowerCase().replaceAll('ς', 'σ').replaceAll('i\u0307', 'i');
    if (on('Unicode forms')) loose = loose.normalize('NFKC');
  }
  return loose;
}

/** The order in which looseSteps tries the ways: the likeliest first. */
const LIKELIEST: readonly LooseStep[] = [
  'white space',
  'invisible characters',
  'dashes',
  'letter case',
  'Unicode forms',
];

/**
 * The ways a text matched a rule only loosely differs from it: steps are
 * taken, likeliest first, until it matches, then each that the match does
 * without is dropped. Undefined when it matches as written, or not at all.
 */
export function looseSteps(
  text: string,
  rule: string,
  matches: (text: string, rule: string) => boolean,
): LooseStep[] | undefined {
  if (matches(text, rule)) return undefined;
  const test = (steps: ReadonlySet<LooseStep>) => matches(looseText(text, steps), looseText(rule, steps));
  const steps = new Set<LooseStep>();
  for (const step of LIKELIEST) {
    steps.add(step);
    if (test(steps)) break;
  }
  if (!test(steps)) return undefined;
  for (const step of [...steps]) {
    steps.delete(step);
    if (!test(steps)) steps.add(step);
  }
  return LOOSE_STEPS.filter((step) => steps.has(step));
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
  return text.replace(UNSEEN, (ch) => {
    if (ch === ' ') return ch;
    const code = ch.codePointAt(0)!;
    // Past the BMP in braces (`\u{e0020}`): `\ue0020` would read as U+E002 and a 0.
    return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}
