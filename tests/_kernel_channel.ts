// A Jupyter kernel reached as JupyterLab reaches one: a session through a
// server's REST API, then the kernel's channels over a WebSocket (messaging
// protocol 5.3, as JSON), through whatever proxy stands in front (a hub's).

/** What one cell did: the text it printed and showed, and its error, if any. */
export interface CellRun {
  output: string;
  error?: string;
}

/** A kernel started for `path` (a notebook path: the kernel runs in its folder) on `server`. */
export class KernelChannel {
  #socket: WebSocket;
  #session = crypto.randomUUID();
  /** Each cell waiting, by its request's id: done once the kernel is idle and has replied. */
  #waiting = new Map<
    string,
    { output: string[]; error?: string; idle: boolean; replied: boolean; check: () => void }
  >();

  #end: () => Promise<void>;

  private constructor(socket: WebSocket, end: () => Promise<void>) {
    this.#socket = socket;
    this.#end = end;
    socket.onmessage = (event) => {
      const message = JSON.parse(event.data as string);
      const run = this.#waiting.get(message.parent_header?.msg_id);
      if (run === undefined) return;
      const { content } = message;
      switch (message.header.msg_type) {
        case "stream":
          run.output.push(content.text);
          run.check();
          break;
        case "execute_result":
        case "display_data":
          run.output.push(content.data?.["text/plain"] ?? "");
          run.check();
          break;
        case "error":
          run.error = `${content.ename}: ${content.evalue}`;
          break;
        case "execute_reply":
          if (content.status === "error") run.error ??= `${content.ename}: ${content.evalue}`;
          run.replied = true;
          run.check();
          break;
        case "status":
          run.idle ||= content.execution_state === "idle";
          run.check();
      }
    };
  }

  /** Start a kernel named `kernel` for the notebook at `path`, and open its channels. */
  static async open(
    server: string,
    token: string,
    path: string,
    kernel: string,
  ): Promise<KernelChannel & { id: string }> {
    const response = await fetch(`${server}api/sessions`, {
      method: "POST",
      headers: { Authorization: `token ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ path, type: "notebook", name: path, kernel: { name: kernel } }),
    });
    if (!response.ok) {
      throw new Error(`POST api/sessions: ${response.status} ${await response.text()}`);
    }
    const { id: session, kernel: { id } } = await response.json();
    const url = new URL(`${server}api/kernels/${id}/channels`);
    url.protocol = url.protocol.replace("http", "ws");
    // Deno lets a WebSocket carry headers; the server refuses a token in the URL for one.
    const socket = new WebSocket(url, { headers: { Authorization: `token ${token}` } });
    await new Promise((resolve, reject) => {
      socket.onopen = resolve;
      socket.onerror = () => reject(new Error(`the kernel's channels at ${url.href} did not open`));
    });
    const end = async () => {
      const ended = await fetch(`${server}api/sessions/${session}`, {
        method: "DELETE",
        headers: { Authorization: `token ${token}` },
      });
      await ended.body?.cancel();
    };
    return Object.assign(new KernelChannel(socket, end), { id });
  }

  /**
   * Run `code` as one cell; what it printed and showed, and its error.
   *
   * Deno 2.9's kernel can publish a cell's last lines after its `idle` (see
   * lib/notebook/output_order.ts), stamped with that cell's request, where a
   * frontend still shows them under it. With `until`, the run keeps listening
   * past `idle` for up to `lateMs` until the output matches, as a frontend
   * that keeps a cell's output open would.
   */
  run(
    code: string,
    { until, lateMs = 15_000, timeoutMs = 120_000 }: {
      until?: RegExp;
      lateMs?: number;
      timeoutMs?: number;
    } = {},
  ): Promise<CellRun> {
    const id = crypto.randomUUID();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`a cell ran past ${timeoutMs} ms`)),
        timeoutMs,
      );
      let late: ReturnType<typeof setTimeout> | undefined;
      const finish = () => {
        clearTimeout(timer);
        clearTimeout(late);
        this.#waiting.delete(id);
        resolve({ output: run.output.join(""), error: run.error });
      };
      const run = {
        output: [] as string[],
        error: undefined as string | undefined,
        idle: false,
        replied: false,
        check: () => {
          if (!run.idle || !run.replied) return;
          if (until === undefined || run.error !== undefined || until.test(run.output.join(""))) {
            return finish();
          }
          late ??= setTimeout(finish, lateMs);
        },
      };
      this.#waiting.set(id, run);
      this.#socket.send(JSON.stringify({
        header: {
          msg_id: id,
          msg_type: "execute_request",
          session: this.#session,
          username: "test",
          date: new Date().toISOString(),
          version: "5.3",
        },
        parent_header: {},
        metadata: {},
        content: {
          code,
          silent: false,
          store_history: true,
          user_expressions: {},
          allow_stdin: false,
          stop_on_error: true,
        },
        channel: "shell",
        buffers: [],
      }));
    });
  }

  /** Close the channels and end the session, which shuts the kernel down. */
  async close(): Promise<void> {
    this.#socket.close();
    await this.#end();
  }
}
