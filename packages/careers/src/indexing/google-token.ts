/**
 * OAuth 2 access tokens for Google's Indexing API from a service account: a JWT assertion signed
 * with the account's private key (RS256, jose) exchanged at its `token_uri` (the jwt-bearer grant),
 * kept until a minute before it expires. Neither the key nor a token is ever logged or recorded.
 */
import { importPKCS8, SignJWT } from "jose";
import { type RetrySettings, sendWithRetries } from "./send";

/** The scope of the Indexing API. */
export const INDEXING_SCOPE = "https://www.googleapis.com/auth/indexing";

const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";
/** Lifetime asked of an assertion (Google's largest). */
const ASSERTION_SECONDS = 3600;
/** A token is renewed this long before it expires. */
const RENEW_BEFORE_MS = 60_000;

/** The fields of a service account's JSON key that the Indexing API needs. */
export interface GoogleServiceAccount {
  client_email: string;
  /** The PKCS #8 PEM private key. */
  private_key: string;
  /** Where tokens are obtained. @default "https://oauth2.googleapis.com/token" */
  token_uri?: string;
}

export const DEFAULT_TOKEN_URI = "https://oauth2.googleapis.com/token";

/** A token that failed to come: why (no secret), and whether trying again later may help. */
export class TokenError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
    readonly retryable: boolean,
  ) {
    super(message);
  }
}

export interface TokenSource {
  /** A valid access token (cached until a minute before its end). @throws TokenError */
  token(): Promise<string>;
  /** Forgets the cached token (the service refused it). */
  forget(): void;
}

export function googleTokenSource(settings: {
  account: GoogleServiceAccount;
  tokenUrl: string | undefined;
  now: () => Date;
  retry: RetrySettings;
  timeoutMs: number;
}): TokenSource {
  const { account } = settings;
  const tokenUrl = settings.tokenUrl ?? account.token_uri ?? DEFAULT_TOKEN_URI;
  let cached: { token: string; renewAt: number } | null = null;
  let pending: Promise<string> | null = null;
  let key: CryptoKey | null = null;

  async function fetchToken(): Promise<string> {
    key ??= await importPKCS8(account.private_key, "RS256").catch(() => {
      throw new TokenError("The service account's private_key is not a PKCS #8 RSA key.", null, false);
    });
    const issuedAt = Math.floor(settings.now().getTime() / 1000);
    const assertion = await new SignJWT({ scope: INDEXING_SCOPE })
      .setProtectedHeader({ alg: "RS256", typ: "JWT" })
      .setIssuer(account.client_email)
      .setAudience(tokenUrl)
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + ASSERTION_SECONDS)
      .sign(key);
    const outcome = await sendWithRetries(
      () =>
        fetch(tokenUrl, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ grant_type: JWT_BEARER, assertion }).toString(),
          signal: AbortSignal.timeout(settings.timeoutMs),
          redirect: "manual",
        }),
      settings.retry,
    );
    if (!outcome.ok) {
      throw new TokenError(`No access token: ${outcome.error ?? "no answer"}`, outcome.status, outcome.retryable);
    }
    let answer: { access_token?: unknown; expires_in?: unknown };
    try {
      answer = JSON.parse(outcome.body) as typeof answer;
    } catch {
      throw new TokenError("No access token: the token endpoint's answer is not JSON.", outcome.status, true);
    }
    if (typeof answer.access_token !== "string" || answer.access_token === "") {
      throw new TokenError("No access token: the token endpoint's answer has no access_token.", outcome.status, true);
    }
    const seconds = typeof answer.expires_in === "number" && answer.expires_in > 0 ? answer.expires_in : 3600;
    cached = { token: answer.access_token, renewAt: settings.now().getTime() + seconds * 1000 - RENEW_BEFORE_MS };
    return answer.access_token;
  }

  return {
    token() {
      if (cached && settings.now().getTime() < cached.renewAt) return Promise.resolve(cached.token);
      pending ??= fetchToken().finally(() => {
        pending = null;
      });
      return pending;
    },
    forget() {
      cached = null;
    },
  };
}
