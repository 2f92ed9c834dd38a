// The atlas's badges (issue 32 item 5): a shields.io endpoint JSON per stack@version and per stack
// (its newest measured version), and badges.md with the Markdown to paste into a README. A
// shields.io endpoint needs the JSON at a public URL: `atlas --site-url URL` says where the site
// is published; without it the lines say SITE_URL where that address goes.
import type { AtlasIndex, AtlasStack, AtlasVersion } from '../../runner/atlas/atlas-types.js';
import { getStackBadge, getStackPage, getVersionBadge, getVersionPage } from './atlas-paths.js';
import { BADGE_LABEL, makeVersionBadge, type ShieldsBadge } from './tally-version.js';

export const SITE_URL_PLACEHOLDER = 'SITE_URL';

/** The newest version of a stack that measured something (versions are newest first). */
export function findNewestMeasured(stack: AtlasStack): AtlasVersion | undefined {
  return stack.versions.find((version) => version.state === 'measured');
}

/** A stack's own badge: its newest measured version's, labelled with the stack and version. */
export function makeStackBadge(stack: AtlasStack): ShieldsBadge | undefined {
  const newest = findNewestMeasured(stack);
  if (!newest) return undefined;
  return { ...makeVersionBadge(newest), label: `${BADGE_LABEL} (${stack.kind}@${newest.version})` };
}

/** The Markdown of one badge: the shields.io image, linking to the page it stands for. */
export function formatBadgeMarkdown(siteUrl: string, alt: string, badgePath: string, pagePath: string): string {
  const base = siteUrl.replace(/\/+$/, '');
  const endpoint = siteUrl === SITE_URL_PLACEHOLDER ? `${base}/${badgePath}` : encodeURIComponent(`${base}/${badgePath}`);
  return `[![${alt.replace(/[[\]]/g, '')}](https://img.shields.io/endpoint?url=${endpoint})](${base}/${pagePath})`;
}

/** badges.md. */
export function renderBadgesMarkdown(index: AtlasIndex, siteUrl: string | undefined): string {
  const url = siteUrl ?? SITE_URL_PLACEHOLDER;
  const lines = [
    '# MCP errors badges',
    '',
    'Each badge is a [shields.io endpoint badge](https://shields.io/badges/endpoint-badge) whose JSON is in this site: how many of a version\'s cells are unsafe (false successes and unsafe retries), else how many fail a MUST, else how many fail a SHOULD, else "all pass".',
    siteUrl === undefined
      ? `Publish the site, then replace ${SITE_URL_PLACEHOLDER} below with its address (URL-encoded inside \`url=\`), or run \`atlas --site-url URL\` to have it filled in.`
      : `The site is published at ${url}.`,
    '',
  ];
  for (const stack of index.stacks) {
    lines.push(`## ${stack.kind} (\`${stack.packageName}\`)`, '');
    const newest = findNewestMeasured(stack);
    if (newest) {
      lines.push(`Newest measured version (${newest.version}), a badge that follows the atlas:`, '', '```markdown', formatBadgeMarkdown(url, `${BADGE_LABEL}: ${stack.kind}`, getStackBadge(stack.kind), getStackPage(stack.kind)), '```', '');
    }
    const measured = stack.versions.filter((version) => version.path !== undefined);
    if (measured.length > 0) {
      lines.push('| Version | Says | Markdown |', '|---|---|---|');
      for (const version of measured) {
        const markdown = formatBadgeMarkdown(url, `${BADGE_LABEL}: ${version.spec}`, getVersionBadge(stack.kind, version.version), getVersionPage(stack.kind, version.version));
        lines.push(`| ${version.version} | ${makeVersionBadge(version).message} | \`${markdown}\` |`);
      }
      lines.push('');
    }
  }
  return `${lines.join('\n')}\n`;
}
