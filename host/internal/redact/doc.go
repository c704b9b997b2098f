// Package redact finds the text of a request's secrets in strings (a
// Matcher: one pass whatever their number, ASCII case aside, as written or
// quoted, escaped or encoded), and with it redacts errors and failures and
// marks secret the values that hold a secret's text. The core applies it
// where a request's answer leaves it.
package redact
