// Starts a fresh `lajan serve` (SQLite in a temporary directory) and gives its URL and sandbox
// key. The binary is LAJAN_BINARY, else the workspace's target/debug/lajan.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, openSync, readFileSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestContext } from "node:test";
import { fileURLToPath } from "node:url";

/** The repository's root: this file runs from sdks/typescript/dist/examples/test. */
export const ROOT = fileURLToPath(new URL("../../../../../", import.meta.url));

function freePort(): Promise<number> {
  return new Promise((done) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => done(port));
    });
  });
}

export interface Server {
  baseUrl: string;
  apiKey: string;
}

export async function startServer(t: TestContext): Promise<Server | null> {
  const binary = process.env.LAJAN_BINARY ?? join(ROOT, "target/debug/lajan");
  if (!existsSync(binary)) {
    if (process.env.CI) throw new Error(`no lajan binary at ${binary}, and CI needs this story to run`);
    t.skip(`no lajan binary at ${binary}: run cargo build -p lajan first or set LAJAN_BINARY`);
    return null;
  }
  const work = mkdtempSync(join(tmpdir(), "lajan-ts-"));
  const port = await freePort();
  const log = join(work, "serve.log");
  const server = spawn(binary, ["serve"], {
    env: {
      ...process.env,
      LAJAN_DATABASE_URL: `sqlite://${work}/lajan.db`,
      LAJAN_LISTEN: `127.0.0.1:${port}`,
      LAJAN_LOG: "warn",
      LAJAN_METRICS_LISTEN: "off",
      // The story's webhook receiver listens on loopback.
      LAJAN_SANDBOX_WEBHOOKS_PRIVATE: "allow",
      LAJAN_RATE_LIMIT_STANDARD: "100000",
    },
    stdio: ["ignore", openSync(log, "w"), openSync(log, "a")],
  });
  t.after(() => server.kill("SIGTERM"));
  const baseUrl = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${baseUrl}/readyz`)).ok) break;
    } catch {
      if (i > 200) throw new Error(`lajan serve did not become ready: ${readFileSync(log, "utf8")}`);
      await new Promise((done) => setTimeout(done, 50));
    }
  }
  const key = readFileSync(log, "utf8").match(/sk_test_[A-Za-z0-9]+/);
  if (!key) throw new Error("no sandbox key in the server's first output");
  return { baseUrl, apiKey: key[0] };
}

export async function eventually<T>(read: () => Promise<T> | T, done: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
