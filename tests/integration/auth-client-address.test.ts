import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as authRoute from '@/app/api/auth/[...all]/route';
import { installClientAddressFrontDoor } from '@/lib/auth/client-address';
import { config, resetConfig } from '@/lib/config';
import { BASE } from '../support/auth';
import { useTestDatabase } from '../support/db';
import { readRequestBody, startServer, type TestServer } from '../support/http-server';

/*
 * Requests made by hand, not through the typed client (tests/support/api-client): better-auth's
 * routes under /api/auth are not in the /v1 document the client is generated from.
 */

/*
 * Rate limits key on the client's address. These tests put the auth route behind a real HTTP server
 * on loopback with the server's front door installed, as `npm start` runs it, and send requests from
 * different loopback source addresses (127.0.0.1 and 127.0.0.2) with forged forwarding headers.
 * Three code requests a minute are allowed per client address, so a fourth from the same client is 429.
 */

const SEND_CODE = '/email-otp/send-verification-otp';
let emailCount = 0;
const nextEmail = () => `client-${++emailCount}@example.com`;

/** The auth route handler behind a real server, the way Next hands it requests. */
async function serveAuth(): Promise<TestServer> {
  return startServer('127.0.0.1', {
    '*': async (req: IncomingMessage, res: ServerResponse) => {
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
      }
      const body = await readRequestBody(req);
      const request = new Request(`${BASE}${req.url}`, { method: req.method, headers, body });
      const response = await authRoute.POST(request);
      res.statusCode = response.status;
      res.end(await response.text());
    },
  });
}

/** Asks for a sign-in code over the wire, from `from`, with whatever headers a client chooses. */
function askForCode(
  server: TestServer,
  options: { from?: string; headers?: Record<string, string> } = {},
): Promise<number> {
  const body = JSON.stringify({ email: nextEmail(), type: 'sign-in' });
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: server.host,
        port: server.port,
        method: 'POST',
        path: `/api/auth${SEND_CODE}`,
        localAddress: options.from ?? '127.0.0.1',
        headers: { 'content-type': 'application/json', origin: BASE, ...options.headers },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function statuses(n: number, send: (i: number) => Promise<number>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(await send(i));
  return out;
}

/** One database, auth instance and front door per TRUSTED_PROXY value. */
function withTrustedProxy(value: string | undefined) {
  const state = {} as { server: TestServer; teardown: () => Promise<void>; uninstall: () => void };
  beforeAll(async () => {
    if (value === undefined) delete process.env.TRUSTED_PROXY;
    else process.env.TRUSTED_PROXY = value;
    ({ teardown: state.teardown } = await useTestDatabase());
    state.uninstall = installClientAddressFrontDoor(config().trustedProxy);
    state.server = await serveAuth();
  });
  afterAll(async () => {
    state.uninstall();
    await state.server.close();
    await state.teardown();
    delete process.env.TRUSTED_PROXY;
    resetConfig();
  });
  return state;
}

describe('TRUSTED_PROXY unset: the server is reached directly', () => {
  const state = withTrustedProxy(undefined);

  it('keys on the connection: a forged X-Forwarded-For does not open a fresh bucket', async () => {
    const forged = await statuses(4, (i) =>
      askForCode(state.server, { headers: { 'x-forwarded-for': `203.0.113.${i + 1}` } }),
    );
    expect(forged).toEqual([200, 200, 200, 429]);
    // Another connection address is another client.
    expect(await askForCode(state.server, { from: '127.0.0.2' })).toBe(200);
  });
});

describe('TRUSTED_PROXY lists the proxy in front', () => {
  const state = withTrustedProxy('127.0.0.1');

  it('takes the client address the proxy appended', async () => {
    const viaProxy = await statuses(4, (i) =>
      askForCode(state.server, { headers: { 'x-forwarded-for': `198.51.100.${i + 1}` } }),
    );
    expect(viaProxy).toEqual([200, 200, 200, 200]);
    const sameClient = await statuses(4, () =>
      askForCode(state.server, { headers: { 'x-forwarded-for': '198.51.100.99' } }),
    );
    expect(sameClient).toEqual([200, 200, 200, 429]);
  });

  it('keys a client that goes around the proxy on its own connection, whatever it forwards', async () => {
    const around = await statuses(4, (i) =>
      askForCode(state.server, { from: '127.0.0.2', headers: { 'x-forwarded-for': `192.0.2.${i + 1}` } }),
    );
    expect(around).toEqual([200, 200, 200, 429]);
  });
});

describe('TRUSTED_PROXY=vercel', () => {
  withTrustedProxy('vercel');

  /** A request as Vercel's edge passes it on (no front door of ours: Vercel is the one). */
  const viaVercel = (client: string, forwardedFor: string) =>
    authRoute
      .POST(
        new Request(`${BASE}/api/auth${SEND_CODE}`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            origin: BASE,
            'x-vercel-forwarded-for': client,
            'x-forwarded-for': forwardedFor,
          },
          body: JSON.stringify({ email: nextEmail(), type: 'sign-in' }),
        }),
      )
      .then((res) => res.status);

  it("keys on Vercel's client header, not on X-Forwarded-For", async () => {
    expect(await statuses(4, (i) => viaVercel('203.0.113.50', `192.0.2.${i + 1}`))).toEqual([
      200, 200, 200, 429,
    ]);
    expect(await statuses(3, (i) => viaVercel(`203.0.113.${60 + i}`, '192.0.2.1'))).toEqual([200, 200, 200]);
  });
});
