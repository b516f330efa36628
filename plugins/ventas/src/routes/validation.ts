import { validationError, type ModuleRequest, type ValidationIssue } from '@cerebro/sdk';

/** Domain errors (`campo` dotted path, Spanish `mensaje`) as a 422 list naming each field. */
export function fieldIssues(errores: readonly { campo: string; mensaje: string }[], root: (string | number)[] = ['body']): ValidationIssue[] {
  return errores.map((e) => ({
    loc: [...root, ...e.campo.split('.').filter((p) => p !== '')],
    msg: e.mensaje,
    type: e.mensaje.includes('campo desconocido') ? 'extra_forbidden' : 'value_error',
  }));
}

export interface Page {
  limite: number;
  desde: number;
}

/** `?limite=N&desde=M` (the Cerebro's paging): 1..max, >= 0. */
export function pageOf(req: ModuleRequest, defaultLimit: number, maxLimit: number): Page {
  const limite = Number(req.query.limite ?? defaultLimit);
  const desde = Number(req.query.desde ?? 0);
  const issues: ValidationIssue[] = [];
  if (!Number.isInteger(limite) || limite < 1 || limite > maxLimit) {
    issues.push({ loc: ['query', 'limite'], msg: `\`limite\` debe ser un entero de 1 a ${maxLimit}.`, type: 'int_type' });
  }
  if (!Number.isInteger(desde) || desde < 0) issues.push({ loc: ['query', 'desde'], msg: '`desde` debe ser un entero mayor o igual a 0.', type: 'int_type' });
  if (issues.length > 0) throw validationError(issues);
  return { limite, desde };
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
