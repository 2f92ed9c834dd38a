// describe() for a group of tests that needs something from outside the repository (see
// requirements.ts): it runs when the requirement is met, skips locally (the run's one notice
// says why) and, under CI=true, becomes one failing test that says what is missing.
import { describe, it } from 'vitest';
import { decideRequirementMode, describeMissing, getSchemaRequirement, type Requirement } from './requirements.js';

export function describeRequiring(requirement: Requirement, title: string, body: () => void): void {
  const mode = decideRequirementMode(requirement);
  if (mode === 'run') {
    describe(title, body);
  } else if (mode === 'skip') {
    describe.skip(title, body);
  } else {
    describe(title, () => {
      it(`needs ${requirement.name}`, () => {
        throw new Error(describeMissing(requirement));
      });
    });
  }
}

/** describeRequiring for the pinned schemas, the most common requirement. */
export function describeWithSchemas(title: string, body: () => void): void {
  describeRequiring(getSchemaRequirement(), title, body);
}

/**
 * The schemas folder, for groups run by describeWithSchemas. A skipped group's body is still
 * collected, so without schemas this is a path that does not exist rather than a throw.
 */
export function getTestSchemasDir(): string {
  return process.env.MCP_SCHEMAS_DIR || '/nonexistent/no-MCP_SCHEMAS_DIR';
}
