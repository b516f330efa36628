export { ERROR_CATALOGUE, type ErrorCode } from './catalogue.js';
export { ApiError, apiError, validationError, invalidField, isApiError, type ValidationIssue } from './api-error.js';
