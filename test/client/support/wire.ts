/**
 * What the client under test sends, seen from a fetch of the test's own that forwards each
 * request to the real service: the token route to `tokenTarget`, the data routes to
 * `dataTarget` (a load balancer the test can re-point mid-run). The client is configured with
 * CLIENT_BASE_URL, an address that exists only here.
 */
export const CLIENT_BASE_URL = 'https://pos-read.invalid';
const TOKEN_PATH = '/api/v1.0/Token';

export interface SentRequest {
  method: string;
  url: string;
  path: string;
  authorization: string | null;
  /** 0: a network error. */
  status: number;
}

export class Wire {
  readonly sent: SentRequest[] = [];
  /** Every token the service issued through this wire. */
  readonly issued: string[] = [];
  tokenTarget: string;
  dataTarget: string;

  constructor(target: string) {
    this.tokenTarget = target;
    this.dataTarget = target;
  }

  /** Points both routes at one instance. */
  pointAt(target: string): void {
    this.tokenTarget = target;
    this.dataTarget = target;
  }

  get tokenRequests(): number {
    return this.sent.filter((r) => r.path === TOKEN_PATH).length;
  }

  dataRequests(): SentRequest[] {
    return this.sent.filter((r) => r.path !== TOKEN_PATH);
  }

  readonly fetch: typeof fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const target = url.pathname === TOKEN_PATH ? this.tokenTarget : this.dataTarget;
    const headers = new Headers(init?.headers);
    const record = (status: number) =>
      this.sent.push({
        method: init?.method ?? 'GET',
        url: url.toString(),
        path: url.pathname,
        authorization: headers.get('authorization'),
        status,
      });
    let response: Response;
    try {
      response = await fetch(`${target}${url.pathname}${url.search}`, init);
    } catch (error) {
      record(0); // no answer: a network error
      throw error;
    }
    record(response.status);
    if (url.pathname === TOKEN_PATH && response.ok) {
      const body = (await response.clone().json()) as { token: string };
      this.issued.push(body.token);
    }
    return response;
  };
}

/** A clock the test moves by hand (the client's `now` option). */
export class FakeClock {
  constructor(private time = Date.now()) {}
  readonly now = (): number => this.time;
  set(time: number): void {
    this.time = time;
  }
}
