export { ERROR_CATALOGUE, type ErrorCode, type ErrorEntry, type ErrorCatalogue } from './catalogue.js';
export {
  ApiError,
  apiError,
  validationError,
  invalidField,
  isApiError,
  defineErrors,
  type ValidationIssue,
  type PluginErrors,
} from './api-error.js';
