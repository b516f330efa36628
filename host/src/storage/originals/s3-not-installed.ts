/** The single executable carries neither the S3 store nor `aws4` (scripts/binary/bundle.mjs). */
export const S3_NOT_INSTALLED =
  'CEREBRO_ARCHIVOS pide un almacén S3, pero este Cerebro no lo trae (el ejecutable único solo guarda en carpetas): instala Cerebro con npm para usar S3.';
