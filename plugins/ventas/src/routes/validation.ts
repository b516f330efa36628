import type { ModuleRequest, Page, ValidationIssue } from '@cerebro/sdk';

/** Domain errors (`campo` dotted path, Spanish `mensaje`) as a 422 list naming each field. */
export function fieldIssues(
  errores: readonly { campo: string; mensaje: string }[],
  root: (string | number)[] = ['body'],
): ValidationIssue[] {
  return errores.map((e) => ({
    loc: [...root, ...e.campo.split('.').filter((p) => p !== '')],
    msg: e.mensaje,
    type: e.mensaje.includes('campo desconocido') ? 'extra_forbidden' : 'value_error',
  }));
}

/** `?limite&desde` of a list, as the host validated them against the route's `pagingQuery`. */
export function pageOf(req: ModuleRequest): Page {
  return { limite: req.query.limite as number, desde: req.query.desde as number };
}
