import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface TestCertificate {
  cert: string;
  key: string;
}

/**
 * A throwaway self-signed certificate for `localhost`, `receiver.test`, 127.0.0.1 and ::1, made
 * with openssl at test time (never committed). The dispatcher trusts it through `tls: { ca }`.
 */
export function createTestCertificate(): TestCertificate {
  const dir = mkdtempSync(join(tmpdir(), "hireport-webhooks-cert-"));
  try {
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
        "-days",
        "2",
        "-subj",
        "/CN=localhost",
        "-addext",
        "subjectAltName=DNS:localhost,DNS:receiver.test,IP:127.0.0.1,IP:::1",
        "-keyout",
        join(dir, "key.pem"),
        "-out",
        join(dir, "cert.pem"),
      ],
      { stdio: "pipe" },
    );
    return { cert: readFileSync(join(dir, "cert.pem"), "utf8"), key: readFileSync(join(dir, "key.pem"), "utf8") };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
