/**
 * The auto-update feed of a packaged build: electron-builder's `app-update.yml` in the resources (what
 * electron-updater reads), a `dev-app-update.yml` (its development feed, in the project or shipped in the
 * app), and electron-updater / update-electron-app in the app's package.json or node_modules. The feed
 * is shown by provider and host only (never a URL's path or query); a token-looking field is never shown,
 * only named, and fails the check; a plain http feed fails it too. A feed set in code (setFeedURL)
 * cannot be seen from the files.
 */
import { dynamicImport } from "../../dynamic-import.js"
import { join, relative } from "node:path"
import type { BuildInfo } from "./build.js"
import { locate, readSmall, unreadableReason } from "./bounded.js"
import type { ReleaseCheck } from "./checklist.js"

const MAX_YAML = 64 * 1024
const MAX_PACKAGE_JSON = 256 * 1024
const UPDATERS = ["electron-updater", "update-electron-app"] as const

export interface YamlEntry {
  readonly key: string
  readonly value: string
  /** Indented (inside a mapping): kept for the credential scan only. */
  readonly nested: boolean
}

/** The `key: value` lines of a small YAML file (electron-builder writes app-update.yml flat). */
export const parseFlatYaml = (text: string): ReadonlyArray<YamlEntry> =>
  text
    .split(/\r?\n/)
    .slice(0, 1_000)
    .flatMap((line) => {
      const match = /^(\s*)(?:-\s+)?([A-Za-z_][\w.-]*)\s*:(?:\s+(.*))?$/.exec(line)
      if (match === null) return []
      let value = (match[3] ?? "").trim()
      const quoted = /^(['"])(.*)\1$/.exec(value)
      value = quoted ? quoted[2]! : value.replace(/\s+#.*$/, "")
      return [{ key: match[2]!, value, nested: match[1]!.length > 0 || line.trimStart().startsWith("-") }]
    })

const SECRET_KEY = /token|secret|passw(or)?d|credential|api[-_]?key|access[-_]?key|private[-_]?key|^auth/i
const SECRET_VALUE = /^(gh[pousr]_[A-Za-z0-9]{16,}|github_pat_|glpat-|xox[abpr]-|AKIA[0-9A-Z]{12,}|npm_[A-Za-z0-9]{20,})/

/** Shown text of a config value: printable, short. */
const shown = (value: string) => value.replace(/[^\x20-\x7e]/g, "?").slice(0, 80)

interface Host {
  readonly host: string
  readonly secure: boolean
  readonly credentials: boolean
}

const hostOf = (url: string): Host => {
  try {
    const parsed = new URL(url)
    const credentials = parsed.username !== "" || parsed.password !== "" || [...parsed.searchParams.keys()].some((k) => /token|key|secret|sig|auth/i.test(k))
    return { host: shown(parsed.host), secure: parsed.protocol === "https:", credentials }
  } catch {
    return { host: "an unparseable URL", secure: false, credentials: false }
  }
}

export interface Feed {
  /** Provider and host, e.g. "github acme/app on github.com (https)". */
  readonly feed: string
  /** Hosts reached over plain http. */
  readonly insecure: ReadonlyArray<string>
  /** Fields that hold a credential (named, never shown): a token-looking key or value, or a URL carrying one. */
  readonly secrets: ReadonlyArray<string>
  readonly cacheDir: string | undefined
}

/** What an app-update.yml says, without a credential or a URL's path. */
export const describeFeed = (entries: ReadonlyArray<YamlEntry>): Feed => {
  const top = new Map(entries.filter((e) => !e.nested).map((e) => [e.key, e.value]))
  const get = (key: string) => {
    const value = top.get(key)
    return value === undefined || value === "" ? undefined : shown(value)
  }
  const secrets = new Set(entries.filter((e) => e.value !== "" && (SECRET_KEY.test(e.key) || SECRET_VALUE.test(e.value))).map((e) => e.key))
  const insecure: Array<string> = []
  const urlHost = (key: string) => {
    const value = top.get(key)
    if (value === undefined || value === "") return undefined
    const host = hostOf(value)
    if (!host.secure) insecure.push(host.host)
    if (host.credentials) secrets.add(key)
    return `${host.host} (${host.secure ? "https" : (value.split(":")[0]?.toLowerCase() ?? "?")})`
  }
  const provider = get("provider") ?? "none given"
  let feed: string
  if (provider === "github" || provider === "gitlab") {
    const host = get("host") ?? `${provider}.com`
    const protocol = (get("protocol") ?? "https").toLowerCase()
    if (protocol !== "https") insecure.push(host)
    const project = provider === "github" ? `${get("owner") ?? "?"}/${get("repo") ?? "?"}` : `project ${get("projectId") ?? "?"}`
    feed = `${provider} ${project} on ${host} (${protocol})`
  } else if (provider === "s3") {
    feed = `s3 bucket ${get("bucket") ?? "?"} on ${urlHost("endpoint") ?? `${get("region") ?? "the default region"}.amazonaws.com (https)`}`
  } else if (provider === "spaces") {
    feed = `spaces ${get("name") ?? "?"} on ${get("region") ?? "?"}.digitaloceanspaces.com (https)`
  } else if (provider === "bitbucket") {
    feed = `bitbucket ${get("owner") ?? "?"}/${get("slug") ?? "?"} on api.bitbucket.org (https)`
  } else if (provider === "keygen") {
    feed = `keygen ${get("account") ?? "?"}/${get("product") ?? "?"} on ${get("host") ?? "api.keygen.sh"} (https)`
  } else {
    feed = `${provider === "generic" ? "generic" : `provider ${provider}`} on ${urlHost("url") ?? "no url"}`
  }
  // Any URL field counts, whatever the provider (the set keeps each host once).
  for (const e of entries) if (/^http:\/\//i.test(e.value)) insecure.push(hostOf(e.value).host)
  return { feed, insecure: [...new Set(insecure)], secrets: [...secrets], cacheDir: get("updaterCacheDirName") }
}

interface AppPackage {
  readonly dependencies: Readonly<Record<string, string>>
  readonly repository: string | undefined
  /** Updater packages found in the app's node_modules. */
  readonly modules: ReadonlyArray<string>
  /** dev-app-update.yml packaged inside the app (asar root or resources/app), when there is one. */
  readonly devYaml: Buffer | undefined
}

type HeaderNode = { readonly files?: Record<string, HeaderNode>; readonly size?: number; readonly unpacked?: boolean; readonly link?: string }

/** The app's package.json facts from app.asar (bounded: sizes from its header) or resources/app. */
const appPackage = async (build: BuildInfo): Promise<AppPackage | { readonly error: string }> => {
  let packageJson: Buffer | undefined
  let devYaml: Buffer | undefined
  let modules: ReadonlyArray<string> = []
  if (build.asar !== undefined) {
    const located = await locate(build.path, build.asar)
    if (located.kind !== "file") return { error: unreadableReason(located, "resources/app.asar")! }
    const asar = await dynamicImport<typeof import("@electron/asar")>("@electron/asar")
    const files = (asar.getRawHeader(located.real).header as HeaderNode).files ?? {}
    const inArchive = (name: string, max: number) => {
      const node = files[name]
      // Only a plain packed file: an unpacked one or a link would be read from outside the archive.
      if (node === undefined || node.files !== undefined || node.link !== undefined || node.unpacked === true || (node.size ?? 0) > max) return undefined
      return asar.extractFile(located.real, name)
    }
    packageJson = inArchive("package.json", MAX_PACKAGE_JSON)
    devYaml = inArchive("dev-app-update.yml", MAX_YAML)
    modules = UPDATERS.filter((name) => files.node_modules?.files?.[name] !== undefined)
    asar.uncache(located.real)
  } else {
    const app = join(build.resources, build.platform === "macos" ? "Resources" : "resources", "app")
    const read = await readSmall(build.path, join(app, "package.json"), "resources/app/package.json", MAX_PACKAGE_JSON)
    if ("error" in read) return read
    packageJson = "data" in read ? read.data : undefined
    const dev = await readSmall(build.path, join(app, "dev-app-update.yml"), "resources/app/dev-app-update.yml", MAX_YAML)
    devYaml = "data" in dev ? dev.data : undefined
    const found = await Promise.all(
      UPDATERS.map(async (name) => ((await locate(build.path, join(app, "node_modules", name, "package.json"))).kind === "file" ? name : undefined))
    )
    modules = found.filter((name): name is (typeof UPDATERS)[number] => name !== undefined)
  }
  if (packageJson === undefined) return { error: "the app has no package.json Stagewright can read" }
  const parsed = JSON.parse(packageJson.toString("utf8")) as { dependencies?: unknown; optionalDependencies?: unknown; repository?: unknown }
  const record = (value: unknown): Record<string, string> => (typeof value === "object" && value !== null ? (value as Record<string, string>) : {})
  const repository =
    typeof parsed.repository === "string"
      ? parsed.repository
      : typeof (parsed.repository as { url?: unknown })?.url === "string"
        ? (parsed.repository as { url: string }).url
        : undefined
  return { dependencies: { ...record(parsed.optionalDependencies), ...record(parsed.dependencies) }, repository, modules, devYaml }
}

const githubRepo = (repository: string | undefined) =>
  repository === undefined ? undefined : /github(?:\.com)?[/:]([\w.-]+\/[\w.-]+?)(?:\.git)?\/?$/.exec(repository)?.[1]

/** The update-feed checks of a build: app-update.yml and the updater packages, then any dev-app-update.yml. */
export const updateChecks = async (build: BuildInfo, root: string): Promise<ReadonlyArray<ReleaseCheck>> => {
  const rel = (path: string) => relative(root, path) || "."
  const resources = join(build.resources, build.platform === "macos" ? "Resources" : "resources")
  const ymlPath = join(resources, "app-update.yml")
  const where = rel(ymlPath)
  const check = "update feed"
  const yml = await readSmall(build.path, ymlPath, where, MAX_YAML)
  const app = await appPackage(build).catch((error: unknown) => ({
    error: `the app's package.json could not be read: ${error instanceof Error ? error.message : String(error)}`
  }))
  const updaters = "error" in app ? [] : UPDATERS.filter((name) => app.dependencies[name] !== undefined || app.modules.includes(name))
  const packages =
    "error" in app
      ? ` (${app.error})`
      : updaters.length === 0
        ? "; package.json depends on neither electron-updater nor update-electron-app"
        : `; ${updaters.map((name) => `${name}${app.dependencies[name] ? ` ${shown(app.dependencies[name]!)}` : " (in node_modules)"}`).join(", ")}`
  const checks: Array<ReleaseCheck> = []
  if ("error" in yml) {
    checks.push({ id: "update-feed", check, status: "not-checked", detail: yml.error, where })
  } else if ("data" in yml) {
    const feed = describeFeed(parseFlatYaml(yml.data.toString("utf8")))
    const facts = `${feed.feed}${feed.cacheDir ? `, updaterCacheDirName ${feed.cacheDir}` : ""}${packages}`
    if (feed.secrets.length > 0) {
      checks.push({
        id: "update-feed-credential",
        check,
        status: "fail",
        severity: "high",
        where,
        detail: `app-update.yml ships a credential in ${feed.secrets.join(", ")} (value not shown): anyone who unpacks the app can read it; publish to a feed that needs no token${feed.insecure.length > 0 ? "" : `. ${facts}`}`
      })
    }
    if (feed.insecure.length > 0) {
      checks.push({
        id: "update-feed",
        check,
        status: "fail",
        severity: "high",
        where,
        detail: `the feed is plain http (${feed.insecure.join(", ")}): whoever is on the network path can substitute the update metadata and its checksums; use https. ${facts}`
      })
    } else if (feed.secrets.length === 0) {
      const unused = "error" in app || updaters.includes("electron-updater") ? "" : " (electron-updater is not in package.json: bundled, or unused?)"
      checks.push({ id: "update-feed", check, status: "pass", where, detail: `${facts}${unused}` })
    }
  } else if (updaters.includes("update-electron-app")) {
    const repo = "error" in app ? undefined : githubRepo(app.repository)
    const facts = `update-electron-app: feed update.electronjs.org (https)${repo ? ` for ${repo}` : ", repository not found in package.json"}`
    if (build.platform === "linux")
      checks.push({
        id: "update-feed",
        check,
        status: "warn",
        where: rel(build.path),
        detail: `${facts}; it updates macOS and Windows builds only, not this Linux build`
      })
    else checks.push({ id: "update-feed", check, status: repo ? "pass" : "warn", where: rel(build.path), detail: facts })
  } else if (updaters.includes("electron-updater")) {
    checks.push({
      id: "update-feed",
      check,
      status: "warn",
      where,
      detail: `electron-updater is in the app but ${where} is missing: checkForUpdates() fails unless the app sets a feed in code (setFeedURL)${packages}`
    })
  } else {
    checks.push({
      id: "update-feed",
      check,
      status: "warn",
      where: rel(build.path),
      detail: `no auto-update: no ${where}${packages}; users keep this build (and its Electron) until they reinstall, unless a store updates it or the app sets a feed in code`
    })
  }
  checks.push(...(await devFeedChecks(root, rel, "error" in app ? undefined : app.devYaml)))
  return checks
}

/** dev-app-update.yml: in the project it is the development feed (info); shipped in the app it does not belong. */
const devFeedChecks = async (root: string, rel: (path: string) => string, packaged: Buffer | undefined): Promise<ReadonlyArray<ReleaseCheck>> => {
  const checks: Array<ReleaseCheck> = []
  const check = "development update feed (dev-app-update.yml)"
  const project = await readSmall(root, join(root, "dev-app-update.yml"), "dev-app-update.yml", MAX_YAML)
  if ("error" in project)
    checks.push({ id: "dev-update-feed", check, status: "not-checked", detail: project.error, where: rel(join(root, "dev-app-update.yml")) })
  else if ("data" in project) {
    const feed = describeFeed(parseFlatYaml(project.data.toString("utf8")))
    const problems = [
      ...(feed.secrets.length > 0 ? [`it holds a credential in ${feed.secrets.join(", ")} (value not shown): keep it out of version control`] : []),
      ...(feed.insecure.length > 0 ? [`plain http (${feed.insecure.join(", ")})`] : [])
    ]
    checks.push({
      id: "dev-update-feed",
      check,
      status: problems.length > 0 ? "warn" : "pass",
      where: rel(join(root, "dev-app-update.yml")),
      detail: `${feed.feed}${problems.length > 0 ? `; ${problems.join("; ")}` : ""}`
    })
  }
  if (packaged !== undefined) {
    const feed = describeFeed(parseFlatYaml(packaged.toString("utf8")))
    const credential = feed.secrets.length > 0
    checks.push({
      id: "dev-update-feed-packaged",
      check,
      status: credential ? "fail" : "warn",
      severity: credential ? "high" : "low",
      where: "app (packaged)",
      detail: `dev-app-update.yml is packaged in the app (${feed.feed}): electron-updater reads it only with forceDevUpdateConfig; leave it out of the build${credential ? `; it ships a credential in ${feed.secrets.join(", ")} (value not shown)` : ""}`
    })
  }
  return checks
}
