/** The ONNX runtime module (types only at compile time: the package is an optional peer of the host). */
export type OnnxRuntime = typeof import('onnxruntime-node');

/**
 * Loads onnxruntime-node on first use. It is an optional peer dependency (~290 MB): the service installs it, a
 * plugin project that only needs the host for its tests does not, and then local models are simply unavailable.
 */
export async function loadOnnxRuntime(): Promise<OnnxRuntime> {
  try {
    return await import('onnxruntime-node');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND') {
      throw new Error(
        'onnxruntime-node no está instalado: instálalo (npm install onnxruntime-node) para usar modelos ONNX locales.',
      );
    }
    throw err;
  }
}
