/** One entry of an error catalogue: the HTTP status and the default Spanish `detail` of a stable code. */
export interface ErrorEntry {
  readonly status: number;
  readonly detail: string;
}

/** Error codes (lower-case words joined by `_`) with their entries: the host's, or a plugin's own (`manifest.errors`). */
export type ErrorCatalogue = Readonly<Record<string, ErrorEntry>>;

/**
 * The one error catalogue of Cerebro: every error the host answers with, by stable code.
 *
 * The wire body is always `{"detail": ..., "codigo": <key>}`: the keys are the stable machine-readable codes
 * clients decide on, so a key is never renamed or reused for another meaning. Texts fixed by the contract are
 * reproduced to the letter (including the missing final dot of `module_disabled`, which the contract uses for the
 * brand module). Plugins use these codes through `apiError()` and add their own structured details where the
 * contract asks. A plugin's own codes (transcripcion's audio codes, for one) are declared in its manifest
 * (`errors`, see `defineErrors`); the host merges them into the catalogue it serves and documents.
 */
export const ERROR_CATALOGUE = {
  malformed_json: { status: 400, detail: 'El cuerpo de la petición no es JSON válido.' },
  bad_request: { status: 400, detail: 'Petición mal formada.' },
  missing_key: { status: 401, detail: 'Falta la credencial: envía la cabecera Authorization: Bearer <clave>.' },
  invalid_key: { status: 401, detail: 'Credencial no válida.' },
  payment_required: {
    status: 402,
    detail: 'La cuenta tiene pagos pendientes desde hace más de 7 días o está suspendida.',
  },
  credits_exhausted: { status: 402, detail: 'La bolsa de créditos de la cuenta no tiene saldo suficiente.' },
  space_not_reachable: { status: 403, detail: 'Sin acceso a este espacio.' },
  module_disabled: { status: 403, detail: 'módulo no habilitado para este espacio' },
  read_only: { status: 403, detail: 'Tu cuenta es de solo lectura en este espacio.' },
  trial_expired: { status: 403, detail: 'El periodo de prueba de este espacio ha terminado.' },
  api_disabled: { status: 403, detail: 'La API está desactivada en este espacio.' },
  ip_not_allowed: { status: 403, detail: 'La IP de origen no está en la lista permitida de este espacio.' },
  admin_only: { status: 403, detail: 'Ruta reservada a la administración de la plataforma.' },
  platform_field: { status: 403, detail: 'Campo reservado a la administración de la plataforma.' },
  spaces_not_owned: { status: 403, detail: 'Alguno de los espacios solicitados no es tuyo.' },
  no_api_module: { status: 403, detail: 'Ninguno de los espacios tiene el módulo API.' },
  key_scope_exceeded: {
    status: 403,
    detail: 'Una credencial no puede crear otra con más alcance o permisos que ella misma.',
  },
  audit_not_allowed: {
    status: 403,
    detail: 'El registro de actividad solo lo ven Studio y las claves con permiso de escritura.',
  },
  route_not_found: { status: 404, detail: 'Ruta no encontrada.' },
  not_found: { status: 404, detail: 'Recurso no encontrado.' },
  key_not_found: { status: 404, detail: 'Credencial no encontrada.' },
  method_not_allowed: { status: 405, detail: 'Método no permitido en esta ruta.' },
  key_already_revoked: { status: 409, detail: 'La credencial ya estaba revocada.' },
  conflict: { status: 409, detail: 'El recurso está en un estado que no permite esta operación.' },
  request_timeout: { status: 408, detail: 'La petición tardó demasiado en llegar.' },
  body_too_large: { status: 413, detail: 'El cuerpo de la petición supera el tamaño máximo permitido.' },
  unsupported_media_type: { status: 415, detail: 'Tipo de contenido no admitido en esta ruta.' },
  headers_too_large: { status: 431, detail: 'Las cabeceras de la petición son demasiado grandes.' },
  validation_failed: { status: 422, detail: 'Los datos enviados no son válidos.' },
  rate_limited: { status: 429, detail: 'Demasiadas peticiones por minuto para este espacio.' },
  daily_quota_exceeded: { status: 429, detail: 'Se ha agotado la cuota diaria de peticiones de este espacio.' },
  internal: { status: 500, detail: 'Error interno del servidor.' },
  not_ready: { status: 503, detail: 'El servicio está arrancando o deteniéndose; reintenta en unos segundos.' },
  plugin_unavailable: { status: 503, detail: 'El módulo no está disponible en este momento.' },
  // Storage (host/src/storage/storage-failure.ts): the server's disk or database, never the client's request.
  insufficient_storage: {
    status: 507,
    detail:
      'No queda espacio en el disco del servidor y la operación no se guardó. Avisa al operador del servicio; reintenta cuando haya liberado espacio.',
  },
  database_busy: {
    status: 503,
    detail: 'La base de datos está ocupada por otra escritura; reintenta en unos segundos.',
  },
  originals_unavailable: {
    status: 503,
    detail: 'El almacén de los documentos originales no responde; reintenta en unos segundos.',
  },
  space_busy: {
    status: 503,
    detail: 'Este espacio tiene demasiadas preguntas esperando turno; reintenta en unos segundos.',
  },
  storage_quota_bytes: { status: 413, detail: 'La cuenta ha alcanzado su cuota de almacenamiento.' },
  storage_quota_documents: { status: 422, detail: 'La cuenta ha alcanzado su número máximo de documentos.' },
  idempotency_key_reused: {
    status: 422,
    detail:
      'Esta Idempotency-Key ya se usó con otro cuerpo de petición; usa una clave nueva para una petición distinta.',
  },
  idempotency_in_flight: {
    status: 409,
    detail: 'Una petición con esta Idempotency-Key aún está en curso; reintenta cuando termine.',
  },
  idempotency_not_supported: { status: 400, detail: 'Esta ruta no admite la cabecera Idempotency-Key.' },
  // Studio (the owners' console): sign-in, cookie sessions and CSRF.
  invalid_credentials: { status: 401, detail: 'Email o contraseña incorrectos.' },
  sign_in_link_invalid: {
    status: 401,
    detail: 'El enlace de acceso no es válido, ya se usó o caducó. Pide otro al operador o entra con tu contraseña.',
  },
  csrf_invalid: { status: 403, detail: 'Falta el token CSRF o no es válido.' },
  console_only: { status: 403, detail: 'Esta ruta es solo para la consola (Studio): entra con tu email y contraseña.' },
  current_password_wrong: { status: 403, detail: 'La contraseña actual no es correcta.' },
  session_not_found: { status: 404, detail: 'Sesión no encontrada.' },
  email_taken: { status: 409, detail: 'Ese email ya lo usa otro propietario.' },
  space_allowance_reached: {
    status: 403,
    detail:
      'Tu cuenta ya tiene todos los espacios que puedes crear; pide al operador de la plataforma que amplíe el cupo.',
  },
  sign_in_throttled: {
    status: 429,
    detail: 'Demasiados intentos de entrada fallidos; espera unos minutos antes de volver a intentarlo.',
  },
  // Members and roles (Studio for a team).
  role_insufficient: { status: 403, detail: 'Tu rol en este espacio no permite esta operación.' },
  member_not_allowed: {
    status: 403,
    detail: 'Esta ruta es solo del propietario: los miembros no tienen acceso a ella.',
  },
  member_not_found: { status: 404, detail: 'Esa persona no es miembro de este espacio.' },
  invitation_not_found: { status: 404, detail: 'Invitación no encontrada o ya no está pendiente.' },
  member_exists: { status: 409, detail: 'Esa persona ya es miembro de este espacio.' },
  member_email_is_owner: {
    status: 409,
    detail: 'Ese email es el de un propietario: un propietario no se invita como miembro.',
  },
  member_email_fixed: {
    status: 403,
    detail:
      'Un miembro no puede cambiar su email: es la dirección a la que te invitaron los propietarios de tus espacios. Para usar otra, pide una invitación a esa dirección.',
  },
  invitation_invalid: {
    status: 410,
    detail: 'La invitación no es válida, ya se usó, se retiró o caducó. Pide otra a quien te invitó.',
  },
} as const satisfies ErrorCatalogue;

/** A code of the host's catalogue. */
export type ErrorCode = keyof typeof ERROR_CATALOGUE;
