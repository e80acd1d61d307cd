/**
 * Page-controlled text an answer names in passing (a window's title, its URL) is cut to a bound: a page
 * can make either megabytes long (`document.title`, `history.pushState`, a `data:` URL), and every
 * window header, listing and snapshot would carry it. What was cut says how long it was.
 */

/** The most characters of a window title an answer shows (a title longer than this is cut). */
export const MAX_TITLE_CHARS = 200

/** The most characters of a URL a window header or listing shows. */
export const MAX_URL_CHARS = 300

/** `text` as it is when it fits in `max` characters, else its first `max - 1` and `… (N chars)`. */
export const clipText = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1)}… (${text.length} chars)` : text)
