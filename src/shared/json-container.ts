import { parseJson } from './json.js';

/** Small members are parsed together once their text is this long. */
const GATHER = 64 * 1024;

/** As JSON.parse makes a member: an own property, even `__proto__`; an earlier one of that key keeps its place. */
function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}

/** An object or array being built. */
export class Container {
  readonly array: boolean;
  readonly target: Record<string, unknown> | unknown[];
  /** What comes next: a first member or the end, a key (after a comma), a colon, a value, a comma or the end. */
  next: 'first' | 'key' | 'colon' | 'value' | 'comma' = 'first';
  /** The current member's key: its text (parsed with its value when that is small too), else the key (large). */
  keyText: string | undefined;
  key = '';
  /** A large string is in it, as a member or deeper. */
  large = false;
  /** Text of the small members not yet parsed: `"key":value` or a value. */
  #gathered: string[] = [];
  #gatheredLength = 0;

  constructor(array: boolean) {
    this.array = array;
    this.target = array ? [] : {};
  }

  /** A small member's text, parsed with the next ones. */
  gather(text: string): void {
    this.#gathered.push(text);
    this.#gatheredLength += text.length;
    if (this.#gatheredLength >= GATHER) this.flush();
  }

  /** A member already built (large, or under a large key), after those gathered before it. */
  add(value: unknown): void {
    this.flush();
    if (Array.isArray(this.target)) this.target.push(value);
    else define(this.target, this.keyText === undefined ? this.key : (JSON.parse(this.keyText) as string), value);
  }

  /** Parse the gathered members, in order. */
  flush(): void {
    if (this.#gathered.length === 0) return;
    const text = this.#gathered.join(',');
    this.#gathered = [];
    this.#gatheredLength = 0;
    if (Array.isArray(this.target)) {
      for (const item of parseJson(`[${text}]`) as unknown[]) this.target.push(item);
      return;
    }
    const members = parseJson(`{${text}}`) as Record<string, unknown>;
    for (const key of Object.keys(members)) define(this.target, key, members[key]);
  }
}
