/**
 * The profile-membership gate, pure. ADR 0001 (docs/adr/) records, in each of its amendments, which core
 * tools every named profile holds and which profile is the default, as a fenced JSON block right after the
 * marker line below. The latest block (the last one in the file) is what the code must match: a tool that
 * joins or leaves a profile, a profile that appears or goes, or a new default fails `npm run manifest:check`
 * until an amendment records it. No files here: the command reads the ADR (./cli.ts).
 */
import { Data, Either, ParseResult, Schema } from "effect"

/** The line that introduces a membership block in an ADR; the next fenced ```json block is the record. */
export const MEMBERSHIP_MARKER = "<!-- stagewright:profile-membership -->"

const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
const sortedUnique = (names: Iterable<string>) => [...new Set(names)].sort(byName)
const isSortedUnique = (names: ReadonlyArray<string>) => names.every((name, i) => i === 0 || byName(names[i - 1]!, name) < 0)

const ToolList = Schema.Array(Schema.String.pipe(Schema.pattern(/^[a-z][a-z0-9_]*$/, { message: () => "a tool name" }))).pipe(
  Schema.filter((names) => isSortedUnique(names) || "tool names must be sorted and unique")
)

/** What one amendment records. */
export const MembershipRecord = Schema.Struct({
  /** The amendment's label, as its heading names it: "A1", "A2", ... */
  amendment: Schema.String.pipe(Schema.pattern(/^A\d+$/, { message: () => "an amendment label such as A2" })),
  date: Schema.String.pipe(Schema.pattern(/^\d{4}-\d{2}-\d{2}$/, { message: () => "a date (YYYY-MM-DD)" })),
  default: Schema.String,
  profiles: Schema.Record({ key: Schema.String, value: ToolList })
}).pipe(Schema.filter((r) => r.profiles[r.default] !== undefined || `the default "${r.default}" is not one of the recorded profiles`))
export type MembershipRecord = typeof MembershipRecord.Type

/** The membership the code has now (no amendment label or date: those belong to the record). */
export interface Membership {
  readonly default: string
  readonly profiles: Readonly<Record<string, ReadonlyArray<string>>>
}

/** The membership of the given lists, names sorted (profile order kept). */
export const membershipOf = (defaultProfile: string, profiles: Readonly<Record<string, Iterable<string>>>): Membership => ({
  default: defaultProfile,
  profiles: Object.fromEntries(Object.entries(profiles).map(([name, tools]) => [name, sortedUnique(tools)]))
})

export class AdrMembershipMissing extends Data.TaggedError("AdrMembershipMissing")<{ readonly path: string }> {
  override get message() {
    return `${this.path} records no profile membership: ADR 0001 must hold at least one "${MEMBERSHIP_MARKER}" line followed by a \`\`\`json block (docs/adr/README.md says how)`
  }
}

export class AdrMembershipInvalid extends Data.TaggedError("AdrMembershipInvalid")<{ readonly path: string; readonly block: number; readonly reason: string }> {
  override get message() {
    return `The profile membership block ${this.block} of ${this.path} is not valid:\n${this.reason}`
  }
}

/** One profile whose tools differ from the record (sorted names). */
export interface ProfileChange {
  readonly profile: string
  /** "new": the record has no such profile; "gone": the code has none. */
  readonly kind: "changed" | "new" | "gone"
  readonly added: ReadonlyArray<string>
  readonly removed: ReadonlyArray<string>
}

export interface MembershipDiff {
  readonly profiles: ReadonlyArray<ProfileChange>
  readonly default?: { readonly recorded: string; readonly current: string }
}

export const isUnchanged = (diff: MembershipDiff) => diff.profiles.length === 0 && diff.default === undefined

/** How `current` differs from `recorded`: profiles in the code's order, then those only the record has. */
export const diffMembership = (recorded: Membership, current: Membership): MembershipDiff => {
  const names = [...Object.keys(current.profiles), ...Object.keys(recorded.profiles).filter((p) => current.profiles[p] === undefined)]
  const profiles: Array<ProfileChange> = []
  for (const profile of names) {
    const before = recorded.profiles[profile]
    const after = current.profiles[profile]
    const was = new Set(before ?? [])
    const is = new Set(after ?? [])
    const added = sortedUnique([...is].filter((t) => !was.has(t)))
    const removed = sortedUnique([...was].filter((t) => !is.has(t)))
    const kind = before === undefined ? "new" : after === undefined ? "gone" : "changed"
    if (kind !== "changed" || added.length > 0 || removed.length > 0) profiles.push({ profile, kind, added, removed })
  }
  return recorded.default === current.default ? { profiles } : { profiles, default: { recorded: recorded.default, current: current.default } }
}

/** One line per change: `essential: added electron_screenshot; removed electron_check`. */
export const describeDiff = (diff: MembershipDiff): ReadonlyArray<string> => [
  ...diff.profiles.map((c) => {
    const parts = [...(c.added.length > 0 ? [`added ${c.added.join(", ")}`] : []), ...(c.removed.length > 0 ? [`removed ${c.removed.join(", ")}`] : [])]
    const label = c.kind === "new" ? `${c.profile} (a new profile)` : c.kind === "gone" ? `${c.profile} (no longer a profile)` : c.profile
    return `${label}: ${parts.length > 0 ? parts.join("; ") : "no tools"}`
  }),
  ...(diff.default !== undefined ? [`default: ${diff.default.recorded} -> ${diff.default.current}`] : [])
]

const BLOCK = new RegExp(
  `${MEMBERSHIP_MARKER.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}[ \\t]*\\r?\\n[ \\t]*\`\`\`json[ \\t]*\\r?\\n([\\s\\S]*?)\\r?\\n[ \\t]*\`\`\``,
  "g"
)

const formatIssues = (error: ParseResult.ParseError) =>
  ParseResult.ArrayFormatter.formatErrorSync(error)
    .map((issue) => `  ${issue.path.length > 0 ? issue.path.map(String).join(".") : "(block)"}: ${issue.message}`)
    .join("\n")

/**
 * Every membership block of an ADR's text, decoded, in file order; a marker that no ```json block follows
 * counts as a block and is refused, so a half-written amendment never passes for the previous one.
 */
export const readMembershipRecords = (
  path: string,
  text: string
): Either.Either<ReadonlyArray<MembershipRecord>, AdrMembershipMissing | AdrMembershipInvalid> => {
  const markers = text.split(MEMBERSHIP_MARKER).length - 1
  const blocks = [...text.matchAll(BLOCK)].map((m) => m[1]!)
  if (markers === 0) return Either.left(new AdrMembershipMissing({ path }))
  if (blocks.length !== markers) {
    return Either.left(
      new AdrMembershipInvalid({
        path,
        block: blocks.length + 1,
        reason: `  a "${MEMBERSHIP_MARKER}" line must be followed by a \`\`\`json block (${markers} markers, ${blocks.length} blocks)`
      })
    )
  }
  const records: Array<MembershipRecord> = []
  for (const [i, block] of blocks.entries()) {
    const decoded = Schema.decodeUnknownEither(Schema.parseJson(MembershipRecord))(block)
    if (Either.isLeft(decoded)) return Either.left(new AdrMembershipInvalid({ path, block: i + 1, reason: formatIssues(decoded.left) }))
    records.push(decoded.right)
  }
  const seen = new Set<string>()
  for (const [i, record] of records.entries()) {
    if (seen.has(record.amendment))
      return Either.left(new AdrMembershipInvalid({ path, block: i + 1, reason: `  amendment: ${record.amendment} is recorded twice` }))
    seen.add(record.amendment)
  }
  return Either.right(records)
}

/** The latest amendment's record: the last block in the file. */
export const latestMembership = (path: string, text: string): Either.Either<MembershipRecord, AdrMembershipMissing | AdrMembershipInvalid> =>
  Either.flatMap(readMembershipRecords(path, text), (records) =>
    records.length === 0 ? Either.left(new AdrMembershipMissing({ path })) : Either.right(records[records.length - 1]!)
  )

const wrap = (names: ReadonlyArray<string>, indent: string, width = 112): ReadonlyArray<string> => {
  const lines: Array<string> = []
  let line = ""
  for (const name of names.map((n) => JSON.stringify(n))) {
    if (line !== "" && indent.length + line.length + name.length + 2 > width) {
      lines.push(`${indent}${line},`)
      line = ""
    }
    line = line === "" ? name : `${line}, ${name}`
  }
  if (line !== "") lines.push(`${indent}${line}`)
  return lines
}

/** The marker and the fenced block an amendment pastes in (JSON; tool names wrapped a few to a line). */
export const formatMembershipBlock = (amendment: string, date: string, membership: Membership): string => {
  const profiles = Object.entries(membership.profiles)
  const body = profiles.map(([name, tools], i) =>
    [`    ${JSON.stringify(name)}: [`, ...wrap(tools, "      "), `    ]${i < profiles.length - 1 ? "," : ""}`].join("\n")
  )
  const json = [
    "{",
    `  "amendment": ${JSON.stringify(amendment)},`,
    `  "date": ${JSON.stringify(date)},`,
    `  "default": ${JSON.stringify(membership.default)},`,
    `  "profiles": {`,
    ...body,
    "  }",
    "}"
  ].join("\n")
  return `${MEMBERSHIP_MARKER}\n\`\`\`json\n${json}\n\`\`\`\n`
}
