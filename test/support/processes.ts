/** Process-tree helpers for leak checks (Linux /proc), by pid rather than by sleeping: the benchmark's own. */
export { descendants, isAlive, waitAllGone } from "../../src/bench/reliability/procs.js"
