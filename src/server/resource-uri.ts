/**
 * The URIs of Stagewright's MCP resources: `stagewright://<root>/<path>` for a file the server wrote
 * (root `output`, `screenshots` or `visual`, each path segment percent-encoded) and
 * `stagewright://docs/tools|profiles` for the two documents. Parsing is strict and made on the raw
 * text (a URL parser would fold `..` away): every decoded segment must be a plain name, so `..`,
 * `%2e%2e`, an encoded `/`, an empty segment (an absolute path) or a query never reaches the disk.
 */

export const RESOURCE_SCHEME = "stagewright://"

export const ARTIFACT_ROOTS = ["output", "screenshots", "visual"] as const
export type ArtifactRoot = (typeof ARTIFACT_ROOTS)[number]

export const DOC_NAMES = ["tools", "profiles"] as const
export type DocName = (typeof DOC_NAMES)[number]

export const docUri = (name: DocName): string => `${RESOURCE_SCHEME}docs/${name}`

/** The URI of the file at `relativePath` (segments separated by `/` or the platform separator) under `root`. */
export const artifactUri = (root: ArtifactRoot, relativePath: string): string =>
  `${RESOURCE_SCHEME}${root}/${relativePath.split(/[\\/]/).map(encodeURIComponent).join("/")}`

export type ParsedUri =
  | { readonly _tag: "Doc"; readonly name: DocName }
  | { readonly _tag: "Artifact"; readonly root: ArtifactRoot; readonly segments: ReadonlyArray<string> }
  | { readonly _tag: "Refused"; readonly reason: string }

const MAX_URI_LENGTH = 4_096

const refused = (reason: string): ParsedUri => ({ _tag: "Refused", reason })

const segmentProblem = (segment: string): string | undefined => {
  if (segment === "") return "an empty path segment (an absolute path or a doubled /)"
  if (segment === "." || segment === "..") return `a "${segment}" segment`
  if (/[/\\]/.test(segment)) return "an encoded path separator"
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(segment)) return "a control character"
  return undefined
}

const decodeSegment = (raw: string): string | undefined => {
  try {
    return decodeURIComponent(raw)
  } catch {
    return undefined
  }
}

export const parseResourceUri = (uri: string): ParsedUri => {
  if (uri.length > MAX_URI_LENGTH) return refused(`the URI is longer than ${MAX_URI_LENGTH} characters`)
  if (!uri.startsWith(RESOURCE_SCHEME)) return refused(`only ${RESOURCE_SCHEME} URIs are served (resources/list gives them)`)
  const rest = uri.slice(RESOURCE_SCHEME.length)
  if (/[?#]/.test(rest)) return refused("a query or fragment")
  const slash = rest.indexOf("/")
  const authority = slash === -1 ? rest : rest.slice(0, slash)
  const path = slash === -1 ? "" : rest.slice(slash + 1)
  if (authority === "docs") {
    return (DOC_NAMES as ReadonlyArray<string>).includes(path) ? { _tag: "Doc", name: path as DocName } : refused(`no document named "${path.slice(0, 40)}"`)
  }
  if (!(ARTIFACT_ROOTS as ReadonlyArray<string>).includes(authority)) {
    return refused(`"${authority.slice(0, 40)}" is not a folder of this server (${[...ARTIFACT_ROOTS, "docs"].join(", ")})`)
  }
  if (path === "") return refused("no file named")
  const segments: Array<string> = []
  for (const raw of path.split("/")) {
    const segment = decodeSegment(raw)
    if (segment === undefined) return refused("malformed percent-encoding")
    const problem = segmentProblem(raw) ?? segmentProblem(segment)
    if (problem !== undefined) return refused(`the path holds ${problem}`)
    segments.push(segment)
  }
  return { _tag: "Artifact", root: authority as ArtifactRoot, segments }
}
