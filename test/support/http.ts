/** Small HTTP helpers over fetch for the end-to-end specs. */
export interface HttpResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export async function http<T = any>(
  baseUrl: string,
  path: string,
  init: RequestInit & { json?: unknown } = {},
): Promise<HttpResult<T>> {
  const headers = new Headers(init.headers);
  let body = init.body;
  if (init.json !== undefined) {
    headers.set('Content-Type', 'application/json');
    body = JSON.stringify(init.json);
  }
  const response = await fetch(`${baseUrl}${path}`, { ...init, headers, body });
  const text = await response.text();
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, body: parsed as T, text };
}

export async function getToken(
  baseUrl: string,
  username: string,
  password: string,
): Promise<string> {
  const res = await http<{ token: string }>(baseUrl, '/api/v1.0/Token', {
    method: 'POST',
    json: { username, password },
  });
  if (res.status !== 200) throw new Error(`token request failed: ${res.status} ${res.text}`);
  return res.body.token;
}

export const bearer = (token: string): Record<string, string> => ({
  Authorization: `Bearer ${token}`,
});
