/** One check of `stagewright doctor` and its line of human output. */
export interface Check {
  readonly name: string
  readonly ok: boolean
  readonly required: boolean
  readonly detail: string
  /** What to do about a failed check. */
  readonly next?: string | undefined
}

/** One line of human output: ok / warn / FAIL, the check, what was found and the next step. */
export const formatCheck = (c: Check): string =>
  `${c.ok ? "ok  " : c.required ? "FAIL" : "warn"} ${c.name.padEnd(16)} ${c.detail}${!c.ok && c.next !== undefined ? ` — next: ${c.next}` : ""}`
