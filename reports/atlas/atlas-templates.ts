// The atlas pages' templates (reports/html/templates/atlas-*.hbs), compiled once per process with
// handlebars' compiler: an atlas is written once per run, so the build's precompiled form (which
// the run report needs for its start-up time) would save nothing here. The stack page reuses the
// run report's version-trend partial (trend.hbs) and its stylesheet.
import { createRequire } from 'node:module';
import { readTemplateFile } from '../html/index.js';

export interface AtlasTemplates {
  index: (view: object) => string;
  stack: (view: object) => string;
  case: (view: object) => string;
  cases: (view: object) => string;
}

let compiled: AtlasTemplates | undefined;

/** The compiled templates; each takes its view model (escaped by handlebars) and adds the stylesheets. */
export function getAtlasTemplates(): AtlasTemplates {
  if (compiled) return compiled;
  const handlebars = (createRequire(import.meta.url)('handlebars') as typeof import('handlebars')).create();
  const options = { strict: false, preventIndent: true } as const;
  handlebars.registerPartial('atlasHead', readTemplateFile('atlas-head.hbs'));
  handlebars.registerPartial('trend', readTemplateFile('trend.hbs'));
  const atlasCss = readTemplateFile('atlas.css');
  const trendCss = readTemplateFile('trend.css');
  const page = (name: string) => {
    const template = handlebars.compile(readTemplateFile(name), options);
    return (view: object) => template({ ...view, atlasCss, trendCss });
  };
  compiled = { index: page('atlas-index.hbs'), stack: page('atlas-stack.hbs'), case: page('atlas-case.hbs'), cases: page('atlas-cases.hbs') };
  return compiled;
}
