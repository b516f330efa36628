import { apiUrl, csrfHeaders } from './client.js';
import { ApiError } from './errors.js';

export interface UploadHandle<T> {
  done: Promise<T>;
  abort(): void;
}

/**
 * Multipart upload with progress. fetch cannot report upload progress, XMLHttpRequest can (`upload.onprogress`).
 * `onProgress` receives the share sent, 0–1.
 */
export function uploadForm<T>(path: string, form: FormData, onProgress: (share: number) => void): UploadHandle<T> {
  const xhr = new XMLHttpRequest();
  const done = new Promise<T>((resolve, reject) => {
    xhr.open('POST', apiUrl(path));
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    for (const [name, value] of Object.entries(csrfHeaders('POST'))) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = xhr.responseText ? JSON.parse(xhr.responseText) : null;
      } catch {
        body = xhr.responseText;
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(1);
        resolve(body as T);
      } else {
        const record = (body && typeof body === 'object' ? body : {}) as { detail?: unknown; codigo?: string };
        reject(new ApiError(xhr.status, record.detail, record.codigo ?? null));
      }
    };
    xhr.onerror = () => reject(new ApiError(0, null, null));
    xhr.onabort = () => reject(new DOMException('Subida cancelada', 'AbortError'));
    xhr.send(form);
  });
  return { done, abort: () => xhr.abort() };
}
