/**
 * The careers site's signed tokens (jose, HS256, the careers secret): the apply form's token, which
 * names the job and the time the form was shown, and the candidate's human-review link, which names
 * the application.
 */
import { hs256Key } from "@hireport/core/extend";
import { jwtVerify, SignJWT } from "jose";

const ALGORITHM = "HS256";
const FORM_AUDIENCE = "hireport:careers-form";
const REVIEW_AUDIENCE = "hireport:human-review";

/** What a valid form token says. */
export interface FormClaims {
  companyId: string;
  jobId: string;
  /** When the form was shown. */
  issuedAt: Date;
}

/** What a valid human-review link says. */
export interface ReviewClaims {
  companyId: string;
  applicationId: string;
}

export class CareersTokens {
  readonly #key: Promise<CryptoKey>;

  constructor(secret: string) {
    this.#key = hs256Key(`hireport-careers:${secret}`);
  }

  /** A form token for a job's apply form shown at `now`. */
  async formToken(companyId: string, jobId: string, now: Date): Promise<string> {
    // `t` keeps the milliseconds that `iat` (whole seconds) drops: the minimum fill time is measured on it.
    return new SignJWT({ cid: companyId, t: now.getTime() })
      .setProtectedHeader({ alg: ALGORITHM })
      .setAudience(FORM_AUDIENCE)
      .setSubject(jobId)
      .setIssuedAt(Math.floor(now.getTime() / 1000))
      .sign(await this.#key);
  }

  /** The claims of a well-signed form token, or null. Age is the caller's to judge. */
  async readForm(token: string): Promise<FormClaims | null> {
    try {
      const { payload } = await jwtVerify(token, await this.#key, { algorithms: [ALGORITHM], audience: FORM_AUDIENCE });
      if (typeof payload.sub !== "string" || typeof payload.cid !== "string" || typeof payload.t !== "number") {
        return null;
      }
      return { companyId: payload.cid, jobId: payload.sub, issuedAt: new Date(payload.t) };
    } catch {
      return null;
    }
  }

  /** A human-review link's token, valid for `ttlSeconds`. */
  async reviewToken(claims: ReviewClaims, now: Date, ttlSeconds: number): Promise<string> {
    const at = Math.floor(now.getTime() / 1000);
    return new SignJWT({ cid: claims.companyId })
      .setProtectedHeader({ alg: ALGORITHM })
      .setAudience(REVIEW_AUDIENCE)
      .setSubject(claims.applicationId)
      .setIssuedAt(at)
      .setExpirationTime(at + ttlSeconds)
      .sign(await this.#key);
  }

  /** The claims of a valid, unexpired human-review token, or null. */
  async readReview(token: string, now: Date): Promise<ReviewClaims | null> {
    try {
      const { payload } = await jwtVerify(token, await this.#key, {
        algorithms: [ALGORITHM],
        audience: REVIEW_AUDIENCE,
        currentDate: now,
      });
      if (typeof payload.sub !== "string" || typeof payload.cid !== "string") return null;
      return { companyId: payload.cid, applicationId: payload.sub };
    } catch {
      return null;
    }
  }
}
