/**
 * A client's requests as the era agreed with its server has them. Connecting
 * decides the era: a client that speaks only legacy versions performs the
 * handshake, byte for byte as it always did; one that speaks a modern
 * version first probes with `server/discover` ("A client that supports both
 * … SHOULD probe with `server/discover` before sending any other request")
 * and takes the probe's answer as `negotiation.ts` reads it. After that, a
 * legacy request goes as it is (in a Streamable HTTP session the server
 * ended, after a new handshake); a modern one carries its version, the
 * client's capabilities and name in `_meta`, its result's `resultType` is
 * read ("All results now carry a required `resultType` field": only results
 * from earlier-protocol servers, the legacy era's, may omit it, and they are
 * never read for it; "A `resultType` of any value unrecognized by the client
 * MUST be considered invalid"), and an `input_required` result is answered
 * and the request retried with a new id, for a bounded number of rounds.
 *
 * @module
 */

import { ProtocolError, TimeoutError } from "../shared/errors.ts";
import type { JsonObject } from "../shared/jsonrpc.ts";
import type { LogLevel } from "../shared/log_levels.ts";
import { withRequestMeta } from "../shared/meta.ts";
import { type McpVersion, versionFeatures } from "../shared/versions.ts";
import type { Connection, OpenRequest, RequestOptions } from "./connection.ts";
import { CLIENT_INFO, Handshake } from "./handshake.ts";
import { retryParams } from "./input_responses.ts";
import { resultTypeProblem } from "./result_type.ts";
import { type ProbeOutcome, probeOutcome } from "./negotiation.ts";
import { supportedVersions } from "../shared/modern_errors.ts";
import type { Elicit } from "./elicitation.ts";
import type { Sample } from "./sampling.ts";
import { HttpTransport } from "./http_transport.ts";

/** Options for {@linkcode DualEra}. */
export interface DualEraOptions {
  /** The versions the client speaks, newest first. */
  versions: readonly McpVersion[];
  /** What the client declares it can do. */
  capabilities: JsonObject;
  /** How long a stdio server has to answer the probe before it is taken for a legacy one. */
  probeMs: number;
  /** The most rounds of one multi round-trip request. */
  maxRounds: number;
  /** Answers elicitation, if the client offers it. */
  elicit?: Elicit;
  /** Answers sampling, if the client offers it. */
  sample?: Sample;
}

/**
 * The requests of a client to the server behind `connection`, in the era
 * agreed when it connects.
 *
 * @example A client that speaks legacy versions only performs the handshake
 * ```ts
 * import assert from "node:assert/strict";
 * import { fileURLToPath } from "node:url";
 * import { Connection } from "./connection.ts";
 *
 * const grammar = [Deno.execPath(), "run", "--quiet", fileURLToPath(new URL("../../../servers/grammar.ts", import.meta.url))];
 * await using connection = new Connection(grammar);
 * const requests = new DualEra(connection, { versions: ["2025-06-18"], capabilities: {}, probeMs: 2000, maxRounds: 8 });
 * assert.equal((await requests.connect()).protocolVersion, "2025-06-18");
 * assert.equal(requests.handshake.era, "legacy");
 * ```
 */
export class DualEra {
  /** What was agreed with the server: its version and capabilities. */
  readonly handshake = new Handshake();
  readonly #connection: Connection<unknown>;
  /** The deadline of the requests that connect, when it is not the connection's. */
  #connectMs?: number;
  readonly #options: DualEraOptions;
  #logLevel?: LogLevel;
  #renewing?: Promise<JsonObject>;
  #endedAtProbe = false;

  /** Requests over `connection`, made as `options` say. */
  constructor(connection: Connection<unknown>, options: DualEraOptions) {
    this.#connection = connection;
    this.#options = options;
  }

  /**
   * Whether `connect` failed because the server ended at the probe, as
   * legacy servers may on a request before `initialize`: it answered
   * nothing, so it is legacy, and its handshake needs a new process.
   */
  get endedAtProbe(): boolean {
    return this.#endedAtProbe;
  }

  /** The lowest log level the server may send in the modern era (each request asks for it). */
  get logLevel(): LogLevel | undefined {
    return this.#logLevel;
  }

  set logLevel(level: LogLevel | undefined) {
    this.#logLevel = level;
  }

  /**
   * Connect: the handshake, for a client of legacy versions only; otherwise
   * the probe, then the handshake (a legacy server) or nothing more (a
   * modern one). Resolves with the `initialize` result or the
   * `DiscoverResult`. Throws `ProtocolError` when the server and the
   * client share no version, or the server's answer cannot be taken.
   * `timeoutMs` is the deadline of the handshake and of a `server/discover`
   * that is not the probe (the probe waits `probeMs`): a server just started
   * may take seconds to answer on a busy machine. @default {the connection's}
   */
  async connect(timeoutMs?: number): Promise<JsonObject> {
    this.#connectMs = timeoutMs;
    const { versions } = this.#options;
    const modern = versions.filter((version) => versionFeatures(version).era === "modern");
    const legacy = versions.filter((version) => versionFeatures(version).era === "legacy");
    if (modern.length === 0) return await this.#handshake(legacy[0], legacy);
    const outcome = probeOutcome(await this.#discover(modern[0], true), modern[0], versions);
    if (outcome.era === "legacy") {
      if (legacy.length === 0) {
        throw new ProtocolError(
          `The server is not a modern one (${outcome.why}), and this client speaks ${
            versions.join(", ")
          } only`,
        );
      }
      if (this.#connection.ended) {
        this.#endedAtProbe = true;
        throw new ProtocolError(`The server ended at the probe (${outcome.why})`);
      }
      // A server slow to start may answer the probe after its deadline, and then refuse the
      // handshake with a modern error: that error, too, says the server is modern.
      const refused = await this.#handshake(outcome.version ?? legacy[0], legacy, true);
      if (!(refused instanceof ProtocolError)) return refused;
      return await this.#modern(probeOutcome(refused, modern[0], versions));
    }
    return await this.#modern(outcome);
  }

  /**
   * Speak the modern version `outcome` names: with its `DiscoverResult`, or,
   * when the server named its versions in an error, after asking again at
   * the one chosen.
   */
  async #modern(outcome: ProbeOutcome): Promise<JsonObject> {
    if (outcome.era === "modern" && outcome.discover === undefined) {
      const chosen = outcome.version;
      outcome = probeOutcome(await this.#discover(chosen, false), chosen, [chosen]);
    }
    if (outcome.era !== "modern") {
      const why = outcome.era === "none" ? outcome.why : `its answer changed: ${outcome.why}`;
      throw new ProtocolError(`The server and this client share no version: ${why}`);
    }
    const { version, discover } = outcome;
    if (discover === undefined) {
      // Asked at the version chosen from the server's own list, the server refused it again.
      throw this.#connection.distrust(
        `The server refused server/discover at ${version}, naming ${version} among the ` +
          "versions it supports: its answers contradict themselves",
      );
    }
    const problem = resultTypeProblem("server/discover", discover, version) ??
      this.handshake.acceptDiscover(discover, version);
    if (problem !== undefined) throw this.#connection.distrust(problem);
    this.#connection.version = version;
    return discover;
  }

  /**
   * Send `method` with `params` in the era agreed, and resolve with its
   * (complete) result. Refused with `ProtocolError`, and the connection
   * with it, for a modern result without a `resultType` or of a type the
   * client does not know, an `input_required` result to a request that may
   * not have one, or one that asks what the client did not declare.
   */
  async request(
    method: string,
    params: JsonObject,
    options: RequestOptions = {},
  ): Promise<JsonObject> {
    const version = this.handshake.version;
    if (version === undefined || this.handshake.era === "legacy") {
      return await this.#legacy(method, params, options);
    }
    let sent = this.#withMeta(params, version);
    for (let round = 1;; round++) {
      const result = await this.#connection.request(
        method,
        sent,
        round === 1 ? options : { ...options, deadline: undefined },
      );
      const problem = resultTypeProblem(method, result, version);
      if (problem !== undefined) throw this.#connection.distrust(problem);
      if (result.resultType === "complete") return result;
      if (round >= this.#options.maxRounds) {
        throw new ProtocolError(
          `${method} still needed input after ${round} rounds: the client stops there`,
        );
      }
      const { elicit, sample } = this.#options;
      try {
        sent = this.#withMeta(
          await retryParams(params, result, { elicit, sample, version }),
          version,
        );
      } catch (error) {
        if (error instanceof ProtocolError) throw this.#connection.distrust(error.message);
        throw error;
      }
    }
  }

  /**
   * Send `method` with `params` as a request with no deadline (a modern
   * subscription). Its result, when it ends with one, is refused as any
   * modern result is (`resultTypeProblem`), and the connection with it.
   */
  open(method: string, params: JsonObject): OpenRequest {
    const version = this.handshake.version!;
    const request = this.#connection.open(method, this.#withMeta(params, version));
    const reply = request.reply.then((result) => {
      const problem = result === undefined ? undefined : resultTypeProblem(method, result, version);
      if (problem !== undefined) throw this.#connection.distrust(problem);
      return result;
    });
    return { ...request, reply };
  }

  /** `params` with the `_meta` of a modern request at `version`. */
  #withMeta(params: JsonObject, version: McpVersion): JsonObject {
    return withRequestMeta(params, {
      protocolVersion: version,
      clientCapabilities: this.#options.capabilities,
      clientInfo: { ...CLIENT_INFO },
      ...(this.#logLevel === undefined ? {} : { logLevel: this.#logLevel }),
    });
  }

  /** A legacy request; first, when the server has ended the session (HTTP's 404), a new handshake, once for every request waiting. */
  async #legacy(method: string, params: JsonObject, options: RequestOptions): Promise<JsonObject> {
    if (this.#connection.transport.sessionEnded) {
      const version = this.handshake.version;
      const legacy = this.#options.versions.filter((v) => versionFeatures(v).era === "legacy");
      this.#renewing ??= this.#handshake(version ?? legacy[0], legacy).finally(() =>
        this.#renewing = undefined
      );
      await this.#renewing;
    }
    return await this.#connection.request(method, params, options);
  }

  /**
   * The handshake, offering `offered`, taking any of `speaks`. After a
   * probe (`probed`), a refusal that is a modern error naming the server's
   * versions is returned rather than thrown (the server is modern after
   * all); any other refused reply distrusts the connection, as ever.
   */
  async #handshake(offered: McpVersion, speaks: readonly McpVersion[]): Promise<JsonObject>;
  async #handshake(
    offered: McpVersion,
    speaks: readonly McpVersion[],
    probed: true,
  ): Promise<JsonObject | ProtocolError>;
  async #handshake(
    offered: McpVersion,
    speaks: readonly McpVersion[],
    probed = false,
  ): Promise<JsonObject | ProtocolError> {
    let result: JsonObject;
    try {
      result = await this.#connection.request("initialize", {
        protocolVersion: offered,
        capabilities: this.#options.capabilities,
        clientInfo: CLIENT_INFO,
      }, { cancellable: false, errorIsAnswer: probed, timeoutMs: this.#connectMs });
    } catch (error) {
      if (!probed || !(error instanceof ProtocolError) || error.code === undefined) throw error;
      if (supportedVersions({ code: error.code, data: error.data }) !== undefined) return error;
      throw this.#connection.distrust(error.message);
    }
    const problem = this.handshake.accept(result, speaks);
    if (problem !== undefined) throw this.#connection.distrust(problem);
    this.#connection.version = this.handshake.version!;
    this.#connection.notify("notifications/initialized");
    return result;
  }

  /**
   * `server/discover` at `version`: its result, or what it rejected with
   * (an error reply leaves the connection trusted). The probe waits
   * `probeMs` on stdio (or any stream of the kind), where silence is a
   * legacy server's; over HTTP a timeout is an outage, and is thrown.
   */
  async #discover(version: McpVersion, probe: boolean): Promise<unknown> {
    const stdio = !(this.#connection.transport instanceof HttpTransport);
    const deadline = probe && stdio ? performance.now() + this.#options.probeMs : undefined;
    try {
      return await this.#connection.request("server/discover", this.#withMeta({}, version), {
        errorIsAnswer: true,
        deadline,
        timeoutMs: this.#connectMs,
      });
    } catch (error) {
      if (error instanceof TimeoutError && (!stdio || !probe)) throw error;
      if (error instanceof ProtocolError || error instanceof TimeoutError) return error;
      throw error;
    }
  }
}
