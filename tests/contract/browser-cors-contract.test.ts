import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { headlessChromium, MOUNTS, subgraphUrlEnv } from '@fedgw/test-support';
import { SignJWT } from 'jose';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayForBlock, subgraphsForFile } from '../support/lifecycle.js';

/**
 * The origin policy as a browser enforces it: a real headless Chromium opens pages served
 * from two other origins, the app's (CORS_ORIGINS, with credentials) and one that is not
 * allowed, both holding the user's session cookie (JWT_COOKIE) for the gateway. The app's
 * page calls the gateway with fetch and a WebSocket as a web app would; the other page tries
 * the same with the user's cookie (cross-site request forgery, cross-site WebSocket hijacking).
 */
const SECRET = 'browser-cors-secret-long-enough-0123456789';
const ADDRESS = '{ user(id: "user-3") { id address } }';

const subgraphs = subgraphsForFile();
let browser: Browser;
let pages: Server;
let appOrigin: string;
let otherOrigin: string;
let otherPages: Server;

/** A blank page: the tests run their script in it, so it is the origin that matters. */
async function pageServer(): Promise<{ server: Server; origin: string }> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><title>app</title>');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

beforeAll(async () => {
  const { executablePath, args } = await headlessChromium();
  [browser, { server: pages, origin: appOrigin }, { server: otherPages, origin: otherOrigin }] = await Promise.all([
    chromium.launch({ executablePath, headless: true, args: [...args] }),
    pageServer(),
    pageServer(),
  ]);
});
afterAll(async () => {
  await browser?.close();
  pages?.close();
  otherPages?.close();
});

async function signedInContext(gatewayUrl: string): Promise<BrowserContext> {
  const token = await new SignJWT({})
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject('user-3')
    .setExpirationTime('5m')
    .sign(new TextEncoder().encode(SECRET));
  const context = await browser.newContext();
  await context.addCookies([{ name: 'session', value: token, url: new URL(gatewayUrl).origin }]);
  return context;
}

/** What a page's fetch with the user's cookie got: the answer and a header it may read, or the browser's error. */
function fetchFrom(page: Page, url: string) {
  return page.evaluate(
    async ({ url, query }) => {
      try {
        const response = await fetch(url, {
          method: 'POST',
          credentials: 'include',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query }),
        });
        return { body: await response.json(), requestId: response.headers.get('x-request-id') };
      } catch (error) {
        return { error: String(error) };
      }
    },
    { url, query: ADDRESS },
  );
}

/** graphql-ws by hand in the page (as a web app's client would speak it): the query's answer, or how it ended. */
function webSocketFrom(page: Page, url: string) {
  return page.evaluate(
    ({ url, query }) =>
      new Promise<{ data?: unknown; ended?: string }>((resolve) => {
        const socket = new WebSocket(url.replace(/^http/, 'ws'), 'graphql-transport-ws');
        socket.onopen = () => socket.send(JSON.stringify({ type: 'connection_init' }));
        socket.onmessage = (event) => {
          const message = JSON.parse(String(event.data));
          if (message.type === 'connection_ack')
            socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query } }));
          if (message.type === 'next') {
            resolve({ data: message.payload.data });
            socket.close();
          }
        };
        socket.onerror = () => resolve({ ended: 'error' });
        socket.onclose = (event) => resolve({ ended: `closed ${event.code}` });
      }),
    { url, query: ADDRESS },
  );
}

/** An EventSource with credentials (no preflight): whether it opened, or failed. */
function eventSourceFrom(page: Page, url: string) {
  return page.evaluate(
    (url) =>
      new Promise<string>((resolve) => {
        const source = new EventSource(url, { withCredentials: true });
        source.addEventListener('next', (event) => {
          resolve(`next ${(event as MessageEvent).data}`);
          source.close();
        });
        source.onerror = () => {
          resolve('error');
          source.close();
        };
      }),
    url,
  );
}

describe.each(MOUNTS)('a browser page on another origin, on %s', (mount) => {
  const gateway = gatewayForBlock(mount, () => ({
    ...subgraphUrlEnv(subgraphs()),
    CORS_ORIGINS: appOrigin,
    CORS_ALLOW_CREDENTIALS: 'true',
    CORS_EXPOSE_HEADERS: 'x-request-id',
    GATEWAY_PLUGINS: 'jwt',
    JWT_SECRET: SECRET,
    JWT_ALGORITHMS: 'HS256',
    JWT_REQUIRED: 'false',
    JWT_COOKIE: 'session',
  }));

  it("the app's page calls it with the user's cookie (through the preflight) and reads the exposed header", async () => {
    const context = await signedInContext(gateway().url);
    const page = await context.newPage();
    await page.goto(appOrigin);
    const result = await fetchFrom(page, gateway().url);
    expect(result).toEqual({
      body: { data: { user: { id: 'user-3', address: expect.any(String) } } },
      requestId: expect.stringMatching(/.+/),
    });
    expect(await webSocketFrom(page, gateway().url)).toEqual({
      data: { user: { id: 'user-3', address: expect.any(String) } },
    });
    const stream = await eventSourceFrom(page, `${gateway().url}?query=${encodeURIComponent(ADDRESS)}`);
    expect(stream).toMatch(/^next .*"address":"/);
    await context.close();
  });

  it("another origin's page gets nothing: fetch fails the preflight, the WebSocket and the EventSource are refused", async () => {
    const context = await signedInContext(gateway().url);
    const page = await context.newPage();
    await page.goto(otherOrigin);
    expect(await fetchFrom(page, gateway().url)).toEqual({ error: expect.stringMatching(/TypeError/) });
    expect(await webSocketFrom(page, gateway().url)).toEqual({ ended: expect.stringMatching(/error|closed/) });
    expect(await eventSourceFrom(page, `${gateway().url}?query=${encodeURIComponent(ADDRESS)}`)).toBe('error');
    await context.close();
  });
});
