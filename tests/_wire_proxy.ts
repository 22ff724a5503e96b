// A recording proxy for Streamable HTTP: it stands between a client and an
// MCP endpoint, passes every request and response through unchanged, and
// keeps what crossed, headers and bodies, so that a test can read the wire of
// two programs neither of which it wrote (a Python client and the course's
// server, the course's client and an SDK's server).

/** One HTTP request through the proxy, and its response as far as it came. */
export interface Exchange {
  method: string;
  requestHeaders: Headers;
  requestBody: string;
  /** When the request came, on the proxy's clock (a count of what crossed, in order). */
  at: number;
  status: number;
  responseHeaders: Headers;
  /** The response body as it streamed through (complete once `done` resolves). */
  responseBody: string;
  /** The body's pieces as they came, each with when, on the same clock as `at`. */
  chunks: { at: number; text: string }[];
  done: Promise<void>;
  /** Cut the response off here, as a dropped connection would: its client's stream ends with no more. */
  cut(): void;
}

/** A running proxy: its URL (the endpoint's path on the proxy), what crossed it, and how to stop it. */
export interface RecordingProxy extends AsyncDisposable {
  readonly url: URL;
  readonly exchanges: Exchange[];
  /**
   * Every exchange's response, once each has ended, or been cut off: call it
   * once the client has closed. A response still open a second later is one
   * the client left (a stream it stopped reading by closing its connection,
   * which an idle stream does not tell the proxy): it is cut off, with what
   * the client was given recorded.
   */
  settled(): Promise<void>;
}

/**
 * A proxy on a free port of 127.0.0.1 in front of the endpoint `target`:
 * requests to its URL go to `target` (same method, headers and body), and
 * responses come back as they stream, each one recorded.
 */
export function recordingProxy(target: URL): RecordingProxy {
  const exchanges: Exchange[] = [];
  const aborts = new Set<AbortController>();
  let clock = 0;
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    async (request) => {
      const abort = new AbortController();
      aborts.add(abort);
      const requestBody = request.body === null ? "" : await request.text();
      const at = clock++;
      const headers = new Headers(request.headers);
      headers.delete("host");
      let response: Response;
      try {
        response = await fetch(target, {
          method: request.method,
          headers,
          body: requestBody === "" ? undefined : requestBody,
          signal: abort.signal,
        });
      } catch (error) {
        aborts.delete(abort);
        return new Response(`the proxy could not reach ${target}: ${error}`, { status: 502 });
      }
      const exchange: Exchange = {
        method: request.method,
        requestHeaders: new Headers(request.headers),
        requestBody,
        at,
        status: response.status,
        responseHeaders: new Headers(response.headers),
        responseBody: "",
        chunks: [],
        done: Promise.resolve(),
        cut: () => abort.abort(),
      };
      exchanges.push(exchange);
      if (response.body === null) {
        aborts.delete(abort);
        return new Response(null, { status: response.status, headers: response.headers });
      }
      // Each piece is recorded as it passes to the client; a client that stops reading
      // (closing a stream it opened) ends the request upstream too.
      const upstream = response.body.getReader();
      const decoder = new TextDecoder();
      let finished = () => {};
      exchange.done = new Promise((resolve) => finished = () => resolve());
      const finish = () => {
        aborts.delete(abort);
        finished();
      };
      // Cut off by the proxy: ended here, whether or not the client still reads.
      abort.signal.addEventListener("abort", () => {
        upstream.cancel().catch(() => {});
        finish();
      });
      const passed = new ReadableStream<Uint8Array>({
        async pull(controller) {
          try {
            const { done, value } = await upstream.read();
            if (done) {
              controller.close();
              return finish();
            }
            const text = decoder.decode(value, { stream: true });
            exchange.responseBody += text;
            exchange.chunks.push({ at: clock++, text });
            controller.enqueue(value);
          } catch (error) {
            // Cut off: by the server, or by the proxy closing.
            controller.error(error);
            finish();
          }
        },
        async cancel(reason) {
          abort.abort();
          await upstream.cancel(reason).catch(() => {});
          finish();
        },
      });
      return new Response(passed, { status: response.status, headers: response.headers });
    },
  );
  const { port } = server.addr as Deno.NetAddr;
  return {
    url: new URL(`http://127.0.0.1:${port}${target.pathname}`), // an HTTP URL's path
    exchanges,
    async settled() {
      const all = Promise.all(exchanges.map((exchange) => exchange.done));
      let timer: ReturnType<typeof setTimeout> | undefined;
      const grace = new Promise((resolve) => timer = setTimeout(resolve, 1000));
      await Promise.race([all, grace]);
      clearTimeout(timer);
      for (const abort of aborts) abort.abort();
      await all;
    },
    async [Symbol.asyncDispose]() {
      for (const abort of aborts) abort.abort();
      await Promise.all(exchanges.map((exchange) => exchange.done));
      await server.shutdown();
    },
  };
}
