/**
 * The import rules of Stagewright's rooms (docs/ARCHITECTURE.md): imports run one way, down the list
 * cli -> server -> plugins -> tools -> layers/driver -> layers/config -> eval-policy, profile -> errors (the error
 * registry, a leaf every room may import); no cycles;
 * nothing in src/ imports test/; a benchmark imports only the public API (src/index.ts) and the sample apps
 * (src/samples.ts), which only the demo and the benchmarks may use: the installed package has no sample apps.
 * `npm run deps:check` runs it (and `npm test` runs that first).
 */
const ENTRY_POINTS = "^src/(index|cli|demo)\\.ts$"

/** A room may not import from these. */
const forbid = (name, from, to, comment) => ({ name, comment, severity: "error", from: { path: from }, to: { path: to } })

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "Import cycles make the rooms unreadable and the start order fragile.",
      severity: "error",
      from: {},
      to: { circular: true }
    },
    forbid("src-not-test", "^src/", "^test/", "Production code never depends on tests or their fixtures."),
    {
      name: "bench-public-api-only",
      comment: "A benchmark is a separate program: it uses src/index.ts (and the sample apps, src/samples.ts), nothing internal.",
      severity: "error",
      from: { path: "^src/bench/" },
      to: { path: "^src/", pathNot: ["^src/bench/", "^src/index\\.ts$", "^src/samples\\.ts$"] }
    },
    {
      name: "samples-for-demo-and-bench-only",
      comment: "The sample apps live in test/fixtures, which the installed package does not have: the runtime never reaches them.",
      severity: "error",
      from: { path: "^src/", pathNot: ["^src/bench/", "^src/demo\\.ts$"] },
      to: { path: "^src/samples\\.ts$" }
    },
    forbid("no-entry-point-imports", "^src/(?!bench/)", ENTRY_POINTS, "Entry points are imported by nobody (the bench may use src/index.ts)."),
    {
      name: "errors-import-nothing-of-ours",
      comment: "The error registry is the ground floor: one row per code, every room reads it.",
      severity: "error",
      from: { path: "^src/errors/" },
      to: { path: "^src/", pathNot: ["^src/errors/"] }
    },
    {
      name: "eval-policy-imports-nothing-of-ours",
      severity: "error",
      from: { path: "^src/eval-policy/" },
      to: { path: "^src/", pathNot: ["^src/eval-policy/", "^src/errors/"] }
    },
    {
      name: "profile-imports-nothing-of-ours",
      severity: "error",
      from: { path: "^src/profile/" },
      to: { path: "^src/", pathNot: ["^src/profile/", "^src/errors/"] }
    },
    {
      name: "config-imports-policy-and-profile-types-only",
      severity: "error",
      from: { path: "^src/layers/config/" },
      to: { path: "^src/", pathNot: ["^src/layers/config/", "^src/eval-policy/", "^src/profile/", "^src/errors/"] }
    },
    {
      name: "config-imports-types-only-from-policy-and-profile",
      severity: "error",
      from: { path: "^src/layers/config/" },
      to: { path: "^src/(eval-policy|profile)/", dependencyTypesNot: ["type-only"] }
    },
    {
      name: "driver-imports-config-only",
      severity: "error",
      from: { path: "^src/layers/driver/" },
      to: { path: "^src/", pathNot: ["^src/layers/driver/", "^src/layers/config/", "^src/errors/", "^src/version\\.ts$", "^src/dynamic-import\\.ts$"] }
    },
    {
      name: "tools-use-driver-services",
      comment:
        "Tools, plugins, the server and the CLI reach the driver through its services and types (ElectronDriver.ts re-exports them) and a few stateless helpers; never its session store, launch code or the operations behind the services (session state changes only through the services).",
      severity: "error",
      from: { path: "^src/(tools|plugins|server|cli)/" },
      to: {
        path: "^src/layers/driver/",
        pathNot: ["^src/layers/driver/(ElectronDriver|errors|display|electron-runtime|process|waits|buffers|main-hooks)\\.ts$"]
      }
    },
    // The rooms inside src/tools (docs/ARCHITECTURE.md): the snapshot model (view, fold, diff, digest) reads no other
    // tool room; the call contract (what plugins build on) reads no tool group; plugins read only the contract and
    // the policy helpers, never a core tool group.
    forbid(
      "snapshot-model-stands-alone",
      "^src/tools/snapshot/",
      "^src/tools/(?!snapshot/)",
      "The snapshot model (view, fold, diff, digest, the change summary) reads only the driver and itself."
    ),
    forbid(
      "contract-below-the-tool-groups",
      "^src/tools/(contract|policy)/",
      "^src/tools/(app|windows|navigation|observe|interact|assert|author|native|debug|eval|pipeline)/",
      "The call contract and policy helpers are what the tool groups and plugins build on, never the reverse."
    ),
    forbid(
      "plugins-use-the-contract",
      "^src/plugins/",
      "^src/tools/(?!(contract|policy)/)",
      "Plugins reach the app through the call contract (contract/, policy/), like any third-party tool."
    ),
    forbid("tools-stay-below-the-server", "^src/tools/", "^src/(server|plugins|cli|bench)/", "Tools stand on the driver, config, policy and profile."),
    forbid("plugins-stay-below-the-server", "^src/plugins/", "^src/(server|cli|bench)/", "Plugins stand on the tool contract and below."),
    forbid("server-stays-below-the-cli", "^src/server/", "^src/(cli|bench)/", "The server is composed by the CLI, never the reverse."),
    forbid("cli-never-imports-the-bench", "^src/cli/", "^src/bench/", "The runtime has no benchmark in it.")
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(dist|node_modules)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" }
  }
}
