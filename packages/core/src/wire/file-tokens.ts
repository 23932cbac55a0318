import type { Clock } from "../base/clock";
import { hs256Key } from "../model/crypto";

const AUDIENCE = "hireport:cv";

/**
 * jose, loaded at the first CV link signed or checked rather than at import: most requests sign
 * none, and a cold start (a serverless function's first request) need not pay for loading it.
 */
let jose: Promise<typeof import("jose")> | undefined;
const loadJose = () => {
  jose ??= import("jose");
  return jose;
};
const ALGORITHM = "HS256";

export interface FileTokenClaims {
  applicationId: string;
  companyId: string;
}

/** Signs and checks the short-lived tokens of CV links (`{publicBaseUrl}/files/cv/{token}`). */
export class FileTokens {
  readonly #key: Promise<CryptoKey>;
  readonly #ttlSeconds: number;
  readonly #clock: Clock;

  constructor(secret: string, ttlSeconds: number, clock: Clock) {
    this.#key = hs256Key(secret);
    this.#ttlSeconds = ttlSeconds;
    this.#clock = clock;
  }

  async sign(claims: FileTokenClaims): Promise<string> {
    const { SignJWT } = await loadJose();
    const now = Math.floor(this.#clock.now().getTime() / 1000);
    return new SignJWT({ cid: claims.companyId })
      .setProtectedHeader({ alg: ALGORITHM })
      .setSubject(claims.applicationId)
      .setAudience(AUDIENCE)
      .setIssuedAt(now)
      .setExpirationTime(now + this.#ttlSeconds)
      .sign(await this.#key);
  }

  /** The claims of a valid, unexpired token; null for anything else. */
  async verify(token: string): Promise<FileTokenClaims | null> {
    const { jwtVerify } = await loadJose();
    try {
      const { payload } = await jwtVerify(token, await this.#key, {
        algorithms: [ALGORITHM],
        audience: AUDIENCE,
        currentDate: this.#clock.now(),
      });
      if (typeof payload.sub !== "string" || typeof payload.cid !== "string") return null;
      return { applicationId: payload.sub, companyId: payload.cid };
    } catch {
      return null;
    }
  }
}
