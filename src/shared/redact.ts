/**
 * Hide a token in text about to be shown. `Bearer <token>` is always masked;
 * a bare occurrence only for tokens of 8 or more characters, since masking a
 * short token would garble ordinary words (and a short token is no secret).
 * A token with `"`, `\` or `/` is also masked as JSON text writes it
 * (`\"`, `\\`, and `\/` as some services write a slash): excerpts of JSON
 * show it so.
 */
export function redactToken(text: string, token: string): string {
  let masked = text;
  for (const form of tokenForms(token)) {
    masked = masked.replaceAll(`Bearer ${form}`, 'Bearer ***');
    if (token.length >= 8) masked = masked.replaceAll(form, '***');
  }
  return masked;
}

function tokenForms(token: string): string[] {
  if (!/["\\/]/.test(token)) return [token];
  const json = JSON.stringify(token).slice(1, -1);
  return [...new Set([token, json, json.replaceAll('/', '\\/')])];
}
