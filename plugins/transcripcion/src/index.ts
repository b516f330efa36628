import { HostServices, definePlugin } from '@cerebro/sdk';
import { degradedReason, TranscriptionEngine, TranscriptionErrors, type EngineState } from './engine/index.js';
import { engineReadiness } from './readiness.js';
import { MAX_UPLOAD_BYTES, transcriptionHandler } from './route.js';
import { OPENAI_TRANSCRIPTION_ROUTE, openAiTranscriptionHandler } from './openai-route.js';
import { pluginModelPath } from './model-path.js';

/**
 * Module `transcripcion`: a route that transcribes an uploaded audio with Whisper (contract section 4.D).
 * Configuration (env `CEREBRO_TRANSCRIPCION_<KEY>`): `modelo` (ggml file; default `<plugin data dir>/whisper.bin`),
 * `ffmpeg`, `ffprobe`, `workers`, `hilos` (0 = cores / workers), `cola` (waiting requests before `ocupado`),
 * `haz` (beam width, 1 = greedy).
 */
/** Every state the engine reports, so each appears in the metrics (0 or 1) and an alert can watch any of them. */
const ENGINE_STATES: readonly EngineState[] = ['stopped', 'loading', 'ready', 'no_model', 'failed', 'closed'];

export default definePlugin({
  manifest: {
    id: 'transcripcion',
    version: '0.1.0',
    sdk: '^1.0.0',
    title: 'Transcripción',
    description: 'Transcripción de audio a texto con Whisper.',
    moduleDisabledDetail: 'módulo no habilitado para este espacio.',
    errors: TranscriptionErrors.catalogue,
    needs: [HostServices.Uploads, HostServices.Config, HostServices.Logger],
    config: { modelo: '', ffmpeg: 'ffmpeg', ffprobe: 'ffprobe', workers: 1, hilos: 0, cola: 4, haz: 1 },
    routes: [
      {
        id: 'transcribir',
        audit: false,
        method: 'POST',
        path: '/transcripciones',
        permission: 'escribe',
        body: 'multipart',
        summary: 'Transcribir un audio',
        description:
          `Multipart: \`archivo\` (obligatorio, hasta ${MAX_UPLOAD_BYTES / 1048576} MB y 120 s; OGG/Opus, MP3, M4A, WAV, WebM, ` +
          'FLAC o la pista de sonido de un vídeo), `idioma` (dos letras, por defecto `es`), `duracion_max_s` (mínimo 1; ' +
          'más de 120 cuenta como 120). Responde en la misma petición; ni el audio ni el texto se guardan.',
        requestSchema: {
          type: 'object',
          required: ['archivo'],
          properties: {
            archivo: { type: 'string', format: 'binary' },
            idioma: { type: 'string', pattern: '^[a-z]{2}$', default: 'es' },
            duracion_max_s: { type: 'number', minimum: 1 },
          },
        },
        responses: {
          '200': {
            description: 'Resultado de la transcripción',
            schema: {
              type: 'object',
              required: ['texto', 'vacio', 'idioma', 'duracion_s', 'latencia_ms'],
              properties: {
                texto: { type: 'string' },
                vacio: { type: 'boolean' },
                idioma: { type: ['string', 'null'] },
                duracion_s: { type: 'number' },
                latencia_ms: { type: 'integer' },
              },
            },
          },
          '413': { description: '`{detail: {codigo: "demasiado_grande", detalle}}`' },
          '422': {
            description: '`demasiado_largo`, `no_soportado`, `audio_invalido`, o lista de errores de validación',
          },
          '503': {
            description:
              '`ocupado`, o `motor_no_listo` (con `Retry-After` solo mientras el modelo se carga; sin modelo instalado, o con uno que no arranca, no lleva `Retry-After` y `detalle` dice qué archivo instalar y con qué orden)',
          },
        },
      },
      OPENAI_TRANSCRIPTION_ROUTE,
      {
        id: 'estado',
        method: 'GET',
        path: '/estado',
        permission: 'lee',
        summary: 'Si el motor de transcripción está listo',
        description:
          'Para avisar antes de subir un audio (Studio lo hace): `listo` true si el motor acepta transcripciones; si no, `detalle` es ' +
          'el mismo texto que daría `motor_no_listo` (sin modelo: qué archivo instalar y con qué orden) y `reintentar` dice si ' +
          'basta con esperar (el modelo se está cargando) o hace falta que el operador actúe.',
        responses: {
          '200': {
            description: 'Estado del motor',
            schema: {
              type: 'object',
              required: ['listo', 'motor', 'reintentar', 'detalle'],
              properties: {
                listo: { type: 'boolean' },
                motor: { enum: [...ENGINE_STATES] },
                reintentar: { type: 'boolean', description: 'true si el motor se está cargando y basta con esperar.' },
                detalle: { type: ['string', 'null'] },
              },
            },
          },
        },
      },
    ],
  },
  setup(scope) {
    const config = scope.resolve(HostServices.Config);
    const log = scope.resolve(HostServices.Logger);
    const engine = new TranscriptionEngine({
      modelPath: pluginModelPath(config.string('modelo'), config.dataDir),
      ffmpegPath: config.string('ffmpeg'),
      ffprobePath: config.string('ffprobe'),
      workers: config.number('workers'),
      ...(config.number('hilos') > 0 ? { threadsPerWorker: config.number('hilos') } : {}),
      maxQueue: config.number('cola'),
      beamSize: config.number('haz'),
      logger: log,
    });
    // Loading runs in the background: until it ends the route answers 503 motor_no_listo (Retry-After while loading).
    void engine
      .start()
      .catch((err: unknown) => log.error({ err: String(err) }, 'transcription engine failed to start'));
    return {
      handlers: {
        transcribir: transcriptionHandler(engine, scope.resolve(HostServices.Uploads)),
        openaiTranscribir: openAiTranscriptionHandler(engine, scope.resolve(HostServices.Uploads)),
        estado: () => engineReadiness(engine),
      },
      dispose: () => engine.close(),
      status: () => {
        const { state, reason, modelPath, simd, build, workers, inFlight, queued, capacity } = engine.status();
        // The module's one job needs a model: without one (or with one that failed) health is degraded, with the fix.
        const degradado =
          state === 'no_model' || state === 'failed' ? degradedReason(state, reason, modelPath) : undefined;
        return {
          motor: state,
          ...(reason ? { motivo: reason } : {}),
          ...(degradado ? { degradado } : {}),
          simd,
          compilacion_whisper: build,
          workers,
          en_curso: inFlight,
          en_cola: queued,
          capacidad: capacity,
        };
      },
      metrics: {
        en_cola: { help: 'Transcripciones esperando un worker.', read: () => engine.status().queued },
        en_curso: { help: 'Transcripciones en curso.', read: () => engine.status().inFlight },
        capacidad: {
          help: 'Transcripciones admitidas a la vez (en curso más cola).',
          read: () => engine.status().capacity,
        },
        motor: {
          help: 'Estado del motor Whisper: 1 en el estado actual, 0 en los demás.',
          labels: ['estado'],
          read: () => {
            const { state } = engine.status();
            return ENGINE_STATES.map((estado) => ({ labels: { estado }, value: estado === state ? 1 : 0 }));
          },
        },
      },
    };
  },
});

export { TranscriptionEngine } from './engine/index.js';
export { installModel, KNOWN_MODELS, ModelInstallError, validateModelFile, ModelFileError } from './engine/index.js';
