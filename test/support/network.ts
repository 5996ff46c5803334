/**
 * A company's network on loopback, for the network tests: an HTTP proxy (forwarding http:// requests
 * in absolute form, tunnelling CONNECT) that counts what went through it and may demand credentials,
 * and a TLS front (node:tls, certificates from test/support/tls/, made for the tests by the CA there)
 * that demands a client certificate and hands each connection to a plain HTTP server behind it.
 */
import { createServer as createHttpServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { connect as netConnect, type AddressInfo, type Socket } from 'node:net';
import { createServer as createTlsServer, type TLSSocket } from 'node:tls';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startMock, type RunningMock } from '../../src/mock/server.js';

/**
 * The test PKI: a CA, a server certificate (localhost, 127.0.0.1) and a client certificate it signed, a PKCS#12 of the
 * client's.
 */
export const TLS_DIR = fileURLToPath(new URL('./tls/', import.meta.url));
export const TLS_FILES = {
  ca: `${TLS_DIR}ca.pem`,
  serverCert: `${TLS_DIR}server.pem`,
  serverKey: `${TLS_DIR}server.key`,
  clientCert: `${TLS_DIR}client.pem`,
  clientKey: `${TLS_DIR}client.key`,
  clientPfx: `${TLS_DIR}client.p12`,
} as const;
/** The passphrase of client.p12. */
export const PFX_PASSPHRASE = 'test-pfx-passphrase';

export interface TestProxy {
  readonly url: string;
  /** Requests forwarded (http:// targets) and CONNECT tunnels opened (https:// targets). */
  readonly counts: { forwarded: number; tunnels: number; refused: number };
  /** The Proxy-Authorization headers received. */
  readonly auth: string[];
  /** The request headers of the forwarded requests. */
  readonly headers: IncomingHttpHeaders[];
  close(): Promise<void>;
}

/**
 * A forward and CONNECT proxy on 127.0.0.1; with `credentials` ("user:pass") it answers 407 without them; with `echo`
 * (a header name) it answers every forwarded request itself with an HTTP 500 SOAP fault that quotes that header's value
 * (a gateway echoing a key: what the redaction must catch); `localAddress`: the loopback address its tunnels leave from
 * (a firewall letting only the proxy through tells them so).
 */
export async function startProxy(credentials?: string, echo?: string, localAddress?: string): Promise<TestProxy> {
  const counts = { forwarded: 0, tunnels: 0, refused: 0 };
  const auth: string[] = [];
  const headers: IncomingHttpHeaders[] = [];
  const sockets = new Set<Socket>();
  const allowed = (h: IncomingHttpHeaders) => {
    const given = h['proxy-authorization'];
    if (given) auth.push(given);
    return credentials === undefined || given === `Basic ${Buffer.from(credentials).toString('base64')}`;
  };
  const server = createHttpServer((req, res) => {
    if (!allowed(req.headers)) {
      counts.refused++;
      res.writeHead(407, { 'proxy-authenticate': 'Basic realm="test"' }).end();
      return;
    }
    counts.forwarded++;
    headers.push(req.headers);
    if (echo !== undefined) {
      const value = String(req.headers[echo.toLowerCase()] ?? '');
      req.resume();
      res
        .writeHead(500, { 'content-type': 'text/xml; charset=utf-8', 'x-echo': value })
        .end(
          '<?xml version="1.0" encoding="utf-8"?>'
            + '<soap:Envelope '
            + 'xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><soap:Fault><faultcode>soap:Client</faultcode>'
            + `<faultstring>gateway: key ${value.replace(/&/g, '&amp;').replace(/</g, '&lt;')} is not `
            + `allowed</faultstring></soap:Fault></soap:Body></soap:Envelope>`,
        );
      return;
    }
    const u = new URL(req.url!);
    const { 'proxy-authorization': _a, 'proxy-connection': _c, ...rest } = req.headers;
    const up = httpRequest(
      { host: u.hostname, port: u.port, path: `${u.pathname}${u.search}`, method: req.method, headers: rest },
      (r) => {
        res.writeHead(r.statusCode!, r.headers);
        r.pipe(res);
      },
    );
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.on('connect', (req, socket: Socket, head: Buffer) => {
    if (!allowed(req.headers)) {
      counts.refused++;
      socket.end(
        'HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic '
          + 'realm="test"\r\nContent-Length: 0\r\n\r\n',
      );
      return;
    }
    counts.tunnels++;
    const [host, port] = req.url!.split(':');
    const up = netConnect({ port: Number(port), host: host!, ...(localAddress ? { localAddress } : {}) }, () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) up.write(head);
      up.pipe(socket);
      socket.pipe(up);
    });
    sockets.add(up);
    up.on('close', () => sockets.delete(up));
    up.on('error', () => socket.destroy());
    socket.on('error', () => up.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    counts,
    auth,
    headers,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

export interface TlsFront {
  readonly url: string;
  /** TLS connections whose handshake completed, and those refused (no or a wrong client certificate). */
  readonly counts: { accepted: number; refused: number };
  close(): Promise<void>;
}

/**
 * A TLS server on 127.0.0.1 with the test CA's server certificate, demanding a client certificate, in front of
 * `backend` (host:port).
 */
export async function startTlsFront(backend: string): Promise<TlsFront> {
  const counts = { accepted: 0, refused: 0 };
  const sockets = new Set<Socket>();
  const { hostname, port: backendPort } = new URL(backend);
  const server = createTlsServer(
    {
      cert: readFileSync(TLS_FILES.serverCert),
      key: readFileSync(TLS_FILES.serverKey),
      ca: readFileSync(TLS_FILES.ca),
      requestCert: true,
      rejectUnauthorized: true,
    },
    (tls: TLSSocket) => {
      counts.accepted++;
      const up = netConnect(Number(backendPort), hostname);
      sockets.add(up);
      up.on('close', () => sockets.delete(up));
      tls.pipe(up);
      up.pipe(tls);
      up.on('error', () => tls.destroy());
      tls.on('error', () => up.destroy());
    },
  );
  server.on('tlsClientError', () => {
    counts.refused++;
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    counts,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

/**
 * A test's loopback network: the mock, an open proxy, a proxy asking for `credentials`, and a TLS front of the mock.
 */
export interface NetworkRig {
  readonly mock: RunningMock;
  readonly proxy: TestProxy;
  readonly authed: TestProxy;
  readonly front: TlsFront;
  close(): Promise<void>;
}

/** Start a NetworkRig (close it in afterAll). */
export async function startNetworkRig(credentials: string): Promise<NetworkRig> {
  const mock = await startMock({ port: 0 });
  const [proxy, authed, front] = await Promise.all([startProxy(), startProxy(credentials), startTlsFront(mock.url)]);
  return {
    mock,
    proxy,
    authed,
    front,
    close: async () => {
      await Promise.all([mock.close(), proxy.close(), authed.close(), front.close()]);
    },
  };
}

/**
 * A loopback HTTP server answering each request with `answer(url)` as text/xml, or 404 where it gives none (a target
 * serving a document of the test's).
 */
export async function serveXml(
  answer: (url: string) => string | undefined,
): Promise<{ readonly url: string; close(): Promise<void> }> {
  const server = createHttpServer((req, res) => {
    const body = answer(req.url ?? '');
    if (body === undefined) {
      res.statusCode = 404;
      res.end('no');
      return;
    }
    res.setHeader('content-type', 'text/xml; charset=utf-8');
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/**
 * A gateway on 127.0.0.1 in front of `backend` that demands the header `name` with `value` (else 401 text/html, as an
 * API gateway answers) and counts both.
 */
export async function startHeaderGate(
  backend: string,
  name: string,
  value: string,
): Promise<{ readonly url: string; readonly counts: { passed: number; refused: number }; close(): Promise<void> }> {
  const counts = { passed: 0, refused: 0 };
  const { hostname, port: backendPort } = new URL(backend);
  const server = createHttpServer((req, res) => {
    if (req.headers[name.toLowerCase()] !== value) {
      counts.refused++;
      req.resume();
      res.writeHead(401, { 'content-type': 'text/html' }).end('<html><body>API key required</body></html>');
      return;
    }
    counts.passed++;
    const up = httpRequest(
      { host: hostname, port: backendPort, path: req.url, method: req.method, headers: req.headers },
      (r) => {
        res.writeHead(r.statusCode!, r.headers);
        r.pipe(res);
      },
    );
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  const sockets = new Set<Socket>();
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    counts,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}
