// One input request of an InputRequiredResult (MR26 § InputRequiredResult): an elicitation, a
// sampling or a roots request, with the params its kind requires (ST26 InputRequest).
import { isPlainObject } from './json-value.js';

// MR26 § InputRequiredResult: the kinds of input a server may ask for (S3: `ping` is not one).
const INPUT_REQUEST_METHODS = new Set(['elicitation/create', 'sampling/createMessage', 'roots/list']);
// SJ26 ElicitRequest and CreateMessageRequest require params; ListRootsRequest does not.
const METHODS_WITH_PARAMS = new Set(['elicitation/create', 'sampling/createMessage']);

/** A problem with one input request, or undefined when the client can act on it. */
export function checkInputRequest(request: unknown): string | undefined {
  const method = isPlainObject(request) ? request['method'] : undefined;
  if (typeof method !== 'string' || !INPUT_REQUEST_METHODS.has(method)) return 'is not an elicitation, sampling or roots request';
  const params = (request as Record<string, unknown>)['params'];
  if (METHODS_WITH_PARAMS.has(method) && !isPlainObject(params)) return `(${method}) has no params object`;
  if (method === 'elicitation/create') return checkElicitationParams(params as Record<string, unknown>);
  return undefined;
}

// ST26 ElicitRequestFormParams (mode absent or "form"): message and requestedSchema required, the
// schema an object of type "object" with properties; ElicitRequestURLParams: mode "url", message and
// url required. A form without a schema leaves the client nothing to render or to validate the
// user's answer against (EL26 § Form Mode Elicitation Requests).
function checkElicitationParams(params: Record<string, unknown>): string | undefined {
  const mode = params['mode'] ?? 'form';
  if (typeof params['message'] !== 'string') return '(elicitation/create) has no message';
  if (mode === 'url') return typeof params['url'] === 'string' ? undefined : '(elicitation/create, url mode) has no url';
  if (mode !== 'form') return `(elicitation/create) has the unknown mode ${JSON.stringify(mode)}`;
  const schema = params['requestedSchema'];
  if (!isPlainObject(schema)) return '(elicitation/create, form mode) has no requestedSchema object';
  if (schema['type'] !== 'object' || !isPlainObject(schema['properties'])) return '(elicitation/create, form mode) requestedSchema is not an object schema with properties';
  return undefined;
}
