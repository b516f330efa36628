/** A response read whole: JSON bodies parsed, others as text. */
export interface TestResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface TestRequestOptions {
  /** JSON body (sets Content-Type). */
  json?: unknown;
  /** Raw body (FormData for multipart, string, bytes). */
  body?: RequestInit['body'];
  headers?: Record<string, string>;
  /** Credential to use instead of the client's default; `null` sends no Authorization header. */
  key?: string | null;
}

/** A small fetch wrapper bound to a base URL (`.../api`) and a default credential. */
export class TestClient {
  constructor(
    readonly baseUrl: string,
    readonly key: string | null,
  ) {}

  /** The same client with another default credential. */
  as(key: string | null): TestClient {
    return new TestClient(this.baseUrl, key);
  }

  async request<T = any>(method: string, path: string, options: TestRequestOptions = {}): Promise<TestResponse<T>> {
    const headers: Record<string, string> = { ...options.headers };
    const key = options.key === undefined ? this.key : options.key;
    if (key) headers.authorization = `Bearer ${key}`;
    let body = options.body;
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    }
    const response = await fetch(`${this.baseUrl}${path}`, { method, headers, body });
    const text = await response.text();
    const isJson = (response.headers.get('content-type') ?? '').includes('json');
    return {
      status: response.status,
      headers: response.headers,
      text,
      body: (isJson && text ? JSON.parse(text) : text) as T,
    };
  }

  get<T = any>(path: string, options?: TestRequestOptions) {
    return this.request<T>('GET', path, options);
  }
  post<T = any>(path: string, options?: TestRequestOptions) {
    return this.request<T>('POST', path, options);
  }
  patch<T = any>(path: string, options?: TestRequestOptions) {
    return this.request<T>('PATCH', path, options);
  }
  put<T = any>(path: string, options?: TestRequestOptions) {
    return this.request<T>('PUT', path, options);
  }
  delete<T = any>(path: string, options?: TestRequestOptions) {
    return this.request<T>('DELETE', path, options);
  }
}
