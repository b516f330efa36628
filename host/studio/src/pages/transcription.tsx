import { useState } from 'preact/hooks';
import { api, seg } from '../api/client.js';
import type { Transcription, TranscriptionReadiness } from '../api/types.js';
import { uploadForm } from '../api/upload.js';
import { ErrorNotice, Loading } from '../components/notice.js';
import { PageHeader, Section } from '../components/page.js';
import { CopyButton } from '../components/copy-button.js';
import { FilePicker } from '../components/file-picker.js';
import { formatNumber, formatPercent } from '../lib/format.js';
import { useLoad } from '../lib/use-load.js';

/** Upload one audio (or a video's sound track) and read its text; nothing is stored. */
export function TranscriptionPage({ space }: { space: string }) {
  const [file, setFile] = useState<File | null>(null);
  const [idioma, setIdioma] = useState('es');
  const [progress, setProgress] = useState<number | null>(null);
  const [result, setResult] = useState<Transcription | null>(null);
  const [error, setError] = useState<unknown>(null);
  // Asked before any upload: without a model every upload would fail after being sent in full.
  const readiness = useLoad(
    () => api<TranscriptionReadiness>('GET', `/mod/transcripcion/${seg(space)}/estado`),
    [space],
  );
  const down = readiness.data && !readiness.data.listo ? readiness.data : null;

  const submit = async (e: Event) => {
    e.preventDefault();
    if (!file) return;
    const form = new FormData();
    form.append('idioma', idioma);
    form.append('archivo', file, file.name);
    setError(null);
    setResult(null);
    setProgress(0);
    try {
      setResult(
        await uploadForm<Transcription>(`/mod/transcripcion/${seg(space)}/transcripciones`, form, setProgress).done,
      );
    } catch (err) {
      setError(err);
    } finally {
      setProgress(null);
    }
  };

  return (
    <>
      <PageHeader
        title="Transcripción"
        intro="Sube un audio (OGG/Opus, MP3, M4A, WAV…) de hasta 25 MB y 120 segundos y lee su texto. Ni el audio ni el texto se guardan."
      />
      {down && (
        <div
          class={`notice ${down.reintentar ? 'notice-info' : 'notice-error'}`}
          role={down.reintentar ? 'status' : 'alert'}
        >
          <strong>
            {down.reintentar
              ? 'El motor de transcripción se está preparando.'
              : 'La transcripción no está disponible en este servidor.'}
          </strong>{' '}
          {down.detalle}{' '}
          {down.reintentar ? (
            <button type="button" class="button small" onClick={() => void readiness.reload()}>
              Comprobar otra vez
            </button>
          ) : (
            'Avisa al operador de la plataforma: hasta que instale el modelo no merece la pena subir audios.'
          )}
        </div>
      )}
      <form class="card form" onSubmit={submit}>
        <span class="field-label" id="audio-titulo">
          Audio o vídeo
        </span>
        <FilePicker
          id="audio"
          label="Elegir audio"
          accept="audio/*,video/*"
          onFiles={(files) => setFile(files[0] ?? null)}
        />
        <label for="audio-idioma">Idioma</label>
        <select id="audio-idioma" value={idioma} onChange={(e) => setIdioma(e.currentTarget.value)}>
          <option value="es">Español</option>
          <option value="en">Inglés</option>
          <option value="pt">Portugués</option>
          <option value="fr">Francés</option>
        </select>
        <div class="row">
          <button
            type="submit"
            class="button primary"
            disabled={!file || progress !== null || (down !== null && !down.reintentar)}
          >
            Transcribir
          </button>
        </div>
        {progress !== null &&
          (progress < 1 ? (
            <p role="status">
              Subiendo: {formatPercent(progress)} <progress max={1} value={progress} aria-label="Subida del audio" />
            </p>
          ) : (
            <Loading label="Transcribiendo… suele tardar unos segundos." />
          ))}
        <ErrorNotice error={error} title="No se pudo transcribir." />
      </form>
      {result && (
        <Section title="Texto">
          {result.vacio ? (
            <p class="notice notice-info">
              No se oye ninguna voz en este audio (silencio o ruido). No hace falta reintentarlo.
            </p>
          ) : (
            <>
              <p class="transcript" data-testid="transcripcion">
                {result.texto}
              </p>
              <CopyButton text={result.texto} label="Copiar el texto" />
            </>
          )}
          <p class="muted small">
            Duración {formatNumber(result.duracion_s)} s · idioma {result.idioma ?? '—'} · transcrito en{' '}
            {formatNumber(result.latencia_ms)} ms
          </p>
        </Section>
      )}
    </>
  );
}
