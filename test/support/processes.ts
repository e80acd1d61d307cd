/** Process-tree helpers for leak checks (Linux /proc), by pid rather than by sleeping: the benchmark's own. */
export { commandOf, descendants, isAlive, waitAllGone } from "../../src/bench/reliability/procs.js"
