import {
  errorResponse,
  listSchema,
  objectSchema,
  pageSchema,
  VALIDATION_RESPONSE,
  type JsonSchema,
} from '@cerebro/sdk';

/** Short names for the sdk's response-schema builders, and the one this module words its own way. */
export { objectSchema as object, listSchema as list, pageSchema as page, VALIDATION_RESPONSE as error422 };
export const nullable = (type: string, extra: JsonSchema = {}): JsonSchema => ({ type: [type, 'null'], ...extra });
export const error404 = (what: string) => errorResponse('404', `${what} no encontrada.`);
