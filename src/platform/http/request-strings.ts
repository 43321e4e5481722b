import { invalidRequest } from "../errors.ts";

/**
 * The string rule of every request: a string of the body, the query or the path (values and object
 * keys alike) may hold any well-formed Unicode text except control characters. Refused: U+0000 to
 * U+001F other than tab, line feed and carriage return; U+007F; U+0080 to U+009F; and lone UTF-16
 * surrogates. Why: PostgreSQL refuses NUL in `text` and `jsonb` (a 500 before this rule), a lone
 * surrogate would be stored as U+FFFD (silently altered data), and the other control characters have
 * no place in a name, a reference or a note, while tabs and line breaks may (a multi-line narration).
 */

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const REFUSED_CHARACTER = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;

/** Why `text` breaks the string rule, or undefined when it does not. */
export function stringRuleViolation(text: string): string | undefined {
  const refused = REFUSED_CHARACTER.exec(text);
  if (refused !== null) {
    const codePoint = refused[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, "0");
    return `contains the control character U+${codePoint}; only tab, line feed and carriage return are allowed`;
  }
  if (!text.isWellFormed()) {
    return "contains a lone UTF-16 surrogate (not well-formed Unicode)";
  }
  return undefined;
}

/**
 * Throws 400 `invalid_characters`, naming the field, when a string in `input` (at any depth, keys
 * included) breaks the string rule; 400 `parameter_invalid` for a number JSON cannot represent
 * (`1e400` parses to Infinity, which no field accepts and the idempotency fingerprint cannot hash);
 * and 400 `parameter_invalid`, naming the object, for a key `__proto__` at any depth. JSON.parse
 * makes that key an ordinary property, but zod's records and objects skip it (writing it into the
 * parsed copy would replace its prototype), so a free-form object (`metadata`, `additional_data`)
 * would be stored without it and with its value unchecked: refused here, for every field at once.
 * `constructor` and `prototype` are ordinary keys and stay so. The walk is iterative, so no input
 * can exhaust the stack.
 */
export function refuseUnsafeValues(input: unknown, part: string): void {
  const pending: { value: unknown; path: string }[] = [{ value: input, path: part }];
  for (let item = pending.pop(); item !== undefined; item = pending.pop()) {
    const { value, path } = item;
    if (typeof value === "string") {
      const violation = stringRuleViolation(value);
      if (violation !== undefined) {
        throw invalidRequest("invalid_characters", `${path}: ${violation}.`);
      }
    } else if (typeof value === "number" && !Number.isFinite(value)) {
      throw invalidRequest("parameter_invalid", `${path}: the number is out of range (beyond ±1.8e308).`);
    } else if (Array.isArray(value)) {
      value.forEach((element, index) => {
        pending.push({ value: element, path: `${path}.${index}` });
      });
    } else if (value !== null && typeof value === "object") {
      for (const [key, element] of Object.entries(value)) {
        const violation = stringRuleViolation(key);
        if (violation !== undefined) {
          throw invalidRequest("invalid_characters", `${path}: a key ${violation}.`);
        }
        if (key === "__proto__") {
          throw invalidRequest("parameter_invalid", `${path}: the key "__proto__" is not allowed.`);
        }
        pending.push({ value: element, path: `${path}.${key}` });
      }
    }
  }
}
