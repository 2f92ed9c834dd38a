// Every limit on what the tool reads from others, in one place (the README's "Input limits"
// section lists them). Each is far above what the bundled data needs; a file over its cap is
// refused with the cap in the message, never read to the end.

const KiB = 1024;
const MiB = 1024 * KiB;

/** A case file (the largest bundled case is ~4 KB; a raw or base64 body may be large on purpose). */
export const CASE_FILE_MAX_BYTES = 4 * MiB;
/** A client's verdict file: room for MAX_REPORT_CHARS (256 Ki characters) at 4 bytes each. */
export const VERDICT_FILE_MAX_BYTES = 1 * MiB;
/** A baseline file (the bundled default.yaml is ~31 KB). */
export const BASELINE_FILE_MAX_BYTES = 16 * MiB;
/** A results.json given to `compare` or `merge` (100,000 cells write ~100 MB). */
export const RESULTS_FILE_MAX_BYTES = 512 * MiB;
/**
 * One cell (or one other top-level field) of a results.json read streamed by `compare` and `run
 * --compare`: what is held at once (a cell of a real run is a few KB; its bodies come from case files
 * of at most 4 MiB and decoded responses of at most 16 MiB).
 */
export const RESULTS_CELL_MAX_BYTES = 64 * MiB;
/** A protocol schema from --schemas / MCP_SCHEMAS_DIR / the cache (the pinned ones are < 200 KB). */
export const SCHEMA_FILE_MAX_BYTES = 8 * MiB;
/** The message given to `validate FILE`. */
export const VALIDATE_INPUT_MAX_BYTES = 16 * MiB;
/** receipts.json and SHA256SUMS read by `verify`. */
export const RECEIPTS_FILE_MAX_BYTES = 64 * MiB;
/** One file hashed by `verify` (streamed, so this bounds time, not memory). */
export const HASHED_FILE_MAX_BYTES = 2048 * MiB;
/** A response body after gzip decoding, per exchange (the harness's decompression-bomb limit). */
export const DECODED_BODY_MAX_BYTES = 16 * MiB;
/**
 * What a classifier module may answer for one exchange, in characters (strings and keys; 8 for any
 * other value): as much as a command client's verdict file. A larger answer is the cell's `error`,
 * measured in the worker before it is copied (a 400 MB `detail` once peaked the run at 1.5 GB).
 */
export const CLASSIFIER_ANSWER_MAX_CHARS = 1024 * 1024;
/** One answer line of an SDK or client-stack worker (its verdicts, notes and error for one cell); more is the cell's `error`. */
export const SDK_ANSWER_MAX_BYTES = 4 * MiB;
/** Arrays and objects nested inside one another in a case file, counting the top-level object as 1. */
export const CASE_MAX_NESTING = 64;
