/** Rules of fields that several forms share (kept apart so that a public page loads only these). */

/** A phone number as people write one: digits, spaces, +, -, dots and parentheses. */
export const PHONE = /^[0-9+()\-. ]{3,40}$/
