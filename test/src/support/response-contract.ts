import AjvModule, { type ValidateFunction } from 'ajv';
import type { TestResponse } from '@cerebro/sdk/testing';

// ajv is CommonJS with `exports.default`; under NodeNext the class sits on the module's `default`.
const Ajv = AjvModule.default;

interface MediaType {
  schema?: Record<string, unknown>;
}
interface OpenApiDocument {
  components: { schemas: Record<string, unknown> };
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, MediaType> }> }>>;
}

/**
 * Checks real answers against the response schemas the OpenAPI document declares for them, so a handler that
 * changes its output without its declared schema (or the reverse) fails a test instead of a generated client.
 */
export class ResponseContract {
  private readonly ajv = new Ajv({ allErrors: true, strict: false, allowUnionTypes: true, validateFormats: false });
  private readonly compiled = new Map<string, ValidateFunction>();
  /** Every `METHOD path status` checked, so a test can tell which operations it covered. */
  readonly checked = new Set<string>();

  constructor(private readonly doc: OpenApiDocument) {
    // `#/components/schemas/Error` references resolve against the document itself.
    this.ajv.addSchema({ components: doc.components }, 'openapi');
  }

  /** Asserts `res` is a status the operation declares and that its JSON body matches the declared schema. */
  check(method: string, template: string, res: TestResponse): void {
    const operation = this.doc.paths[template]?.[method.toLowerCase()];
    if (!operation) throw new Error(`${method} ${template} is not in the OpenAPI document`);
    const declared = operation.responses[String(res.status)];
    if (!declared)
      throw new Error(
        `${method} ${template} answered ${res.status}, which it does not declare: ${res.text.slice(0, 300)}`,
      );
    const key = `${method} ${template} ${res.status}`;
    this.checked.add(key);
    const schema = declared.content?.['application/json']?.schema;
    if (!schema) {
      if (res.text !== '' && declared.content === undefined)
        throw new Error(`${key} has a body but declares no content`);
      return;
    }
    let validate = this.compiled.get(key);
    if (!validate) {
      validate = this.ajv.compile(
        JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi#/components/')),
      );
      this.compiled.set(key, validate);
    }
    if (!validate(res.body)) {
      throw new Error(
        `${key}: the answer does not match its declared schema: ${this.ajv.errorsText(validate.errors)}\n${res.text.slice(0, 600)}`,
      );
    }
  }
}
