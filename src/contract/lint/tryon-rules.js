// @ts-check
// The `tryon` Redocly plugin: lint rules that hold openapi.yaml to the Virtual Try-On spec.
//
// Plain ESM JavaScript with JSDoc types, not TypeScript: Redocly CLI loads plugins with a bare
// `import()` from redocly.yaml, without tsx or any loader, so a .ts plugin would need a build step.
// `// @ts-check` lets editors and `tsc --allowJs --checkJs` type-check it all the same.
//
// Rules (enabled in redocly.yaml as `tryon/<name>`; proven by tryon-rules.test.ts):
//   error-responses-use-error-schema  every 4xx/5xx body is the Error envelope
//   documents-spec-errors             401/429/500 on every keyed operation; 429 has Retry-After
//   operation-examples                every request/response media type has an example
//   error-code-enum                   error bodies pin `code` to ErrorCode values
//   implementation-defined            x-implementation-defined carries x-point & co.
//   links-resolve                     response links name real operations, parameters and fields
//   arazzo-steps-resolve (Arazzo)     workflow steps call real operations of their source descriptions

import ArazzoStepsResolve from './arazzo-steps-resolve.js';
import DocumentsSpecErrors from './documents-spec-errors.js';
import ErrorCodeEnum from './error-code-enum.js';
import ErrorResponsesUseErrorSchema from './error-responses-use-error-schema.js';
import ImplementationDefined from './implementation-defined.js';
import LinksResolve from './links-resolve.js';
import OperationExamples from './operation-examples.js';

/** Redocly plugin entry: `plugins: [src/contract/lint/tryon-rules.js]` in redocly.yaml. */
export default function tryonRules() {
  return {
    id: 'tryon',
    rules: {
      oas3: {
        'error-responses-use-error-schema': ErrorResponsesUseErrorSchema,
        'documents-spec-errors': DocumentsSpecErrors,
        'operation-examples': OperationExamples,
        'error-code-enum': ErrorCodeEnum,
        'implementation-defined': ImplementationDefined,
        'links-resolve': LinksResolve,
      },
      arazzo1: {
        'arazzo-steps-resolve': ArazzoStepsResolve,
      },
    },
  };
}
