// What `vitest related <file>` cannot see on its own. It selects the test files whose module graph
// (static imports and literal `import()`s, followed through every module they reach) holds the
// file. A script started in a worker thread or child process by path (classifier-worker.mjs,
// sdk/worker.mjs and the stacks it loads by computed URL), a browser script inlined into a page
// (templates/matrix.client.js) and the sources a test runs compiled from dist/ are in no graph.
// A test that exercises one names it here, and then `vitest related` selects that test for it and
// for every module the script imports. test/every-file-selected.test.ts fails when a product file
// is selected by no test.

/**
 * Declares the files this test file exercises without importing them. Pass each as
 * `() => import('<relative path>' as string)`: once TypeScript's types are stripped the argument
 * is a plain literal, which vite records as a dependency of the test file; `as string` keeps
 * TypeScript from resolving a module that has no type declarations (or is no module at all).
 * The loaders are never called.
 */
export function declareLoadedByPath(..._loaders: readonly (() => Promise<unknown>)[]): void {}
