/**
 * Where a job is, as the site says it and as job boards and search engines read it: the job's place
 * parts (`country`, `region`, `locality`, `postal_code`, `workplace_type`) where set, else what its
 * free-text `location` names (`London, UK`, `Leeds, West Yorkshire`, `Remote (Germany)`). The
 * country is always an ISO 3166-1 alpha-2 code: a name such as `UK`, `United Kingdom` or `Germany`
 * is read as its code, and when neither the job nor its text names one, the company's default
 * country (the `defaultCountry` option) is used. A name that is no country (`Europe`) gives none.
 */
import type { JobRecord } from "@hireport/core";
import { COUNTRY_CODES, WORKPLACE_TYPES, type WorkplaceType } from "@hireport/core/schemas";

/** Where a job is: what the pages, the feeds and the structured data say of its place. */
export interface JobPlace {
  /** The free-text `location` as stored (`""` when none). */
  text: string;
  /** Town or city: `locality`, else the first part of the text. */
  city: string | null;
  /** State, county or province: `region`, else the middle parts of the text. */
  region: string | null;
  /** `postal_code` (the text never gives one). */
  postalCode: string | null;
  /** ISO 3166-1 alpha-2 code: `country`, else the one the text names, else the default country. */
  country: string | null;
  /** Fully remote work: `workplace_type` is `remote`, or (when it is not set) the text starts with "Remote". */
  remote: boolean;
  /** `workplace_type`, or `remote` when the text says so, else null. */
  workplaceType: WorkplaceType | null;
  /**
   * The place in words for a reader, the country named in the page's language (`Leeds, West
   * Yorkshire, United Kingdom (hybrid)`); the stored text as it is when the job has no place parts.
   */
  words: string;
}

/** What a job's free-text location names. */
export type ParsedLocation = Pick<JobPlace, "text" | "city" | "region" | "country" | "remote">;

/** Other ways people write some countries, lower case without dots (the Intl names are added to them). */
const COUNTRY_ALIASES: Record<string, string> = {
  uk: "GB",
  "great britain": "GB",
  britain: "GB",
  england: "GB",
  scotland: "GB",
  wales: "GB",
  "northern ireland": "GB",
  us: "US",
  usa: "US",
  "united states of america": "US",
  america: "US",
  uae: "AE",
  holland: "NL",
  "the netherlands": "NL",
  "czech republic": "CZ",
  turkey: "TR",
  "south korea": "KR",
  "hong kong": "HK",
  "ivory coast": "CI",
};

/** A country's name as looked up: lower case, no dots, curly apostrophes straight, spaces single. */
function nameKey(name: string): string {
  return name.trim().toLowerCase().replace(/\./g, "").replace(/’/g, "'").replace(/\s+/g, " ");
}

/** Names of the countries in a language, made once per language (a handful of languages per site). */
const namesByLanguage = new Map<string, ReadonlyMap<string, string>>();

function displayNames(lang: string, style: "long" | "short"): Intl.DisplayNames {
  try {
    return new Intl.DisplayNames([lang, "en"], { type: "region", style, fallback: "code" });
  } catch {
    // A language tag Intl does not take: the site's own language.
    return new Intl.DisplayNames("en", { type: "region", style, fallback: "code" });
  }
}

/** Country name (long and short, in `lang`) → code. */
function namesIn(lang: string): ReadonlyMap<string, string> {
  let names = namesByLanguage.get(lang);
  if (!names) {
    const map = new Map<string, string>();
    for (const style of ["long", "short"] as const) {
      const display = displayNames(lang, style);
      for (const code of COUNTRY_CODES) {
        const name = display.of(code);
        if (name && name !== code) map.set(nameKey(name), code);
      }
    }
    names = map;
    if (namesByLanguage.size < 64) namesByLanguage.set(lang, names);
  }
  return names;
}

/**
 * The ISO 3166-1 alpha-2 code of a country's name in English or in `lang` (`UK`, `U.K.`, `United
 * Kingdom`, `Deutschland` with `de`), or null. Two-letter codes other than `UK` and `US` are not read
 * as countries: `San Francisco, CA` names California, not Canada.
 */
export function countryCodeOfName(name: string, lang = "en"): string | null {
  const key = nameKey(name);
  if (!key) return null;
  return COUNTRY_ALIASES[key] ?? namesIn("en").get(key) ?? (lang === "en" ? null : (namesIn(lang).get(key) ?? null));
}

/** A country's name in the page's language (`GB` is `United Kingdom` in English, `Vereinigtes Königreich` in German). */
export function countryName(code: string, lang = "en"): string {
  return displayNames(lang, "long").of(code) ?? code;
}

const REMOTE = /^(remote|anywhere|work from home)\b/i;

/** What a free-text location names, and whether it names a place that is no country (`Remote - Europe`). */
function readLocation(text: string, lang: string): { parsed: ParsedLocation; elsewhere: boolean } {
  const trimmed = text.trim();
  const remote = REMOTE.exec(trimmed);
  if (remote) {
    const rest = trimmed
      .slice(remote[0].length)
      .replace(/^[\s(,:–-]+|[\s)]+$/g, "")
      .trim();
    const country = countryCodeOfName(rest, lang);
    return {
      parsed: { text: trimmed, city: null, region: null, country, remote: true },
      elsewhere: rest !== "" && country === null,
    };
  }
  const parts = trimmed
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);
  const last = parts.length > 0 ? countryCodeOfName(parts[parts.length - 1] as string, lang) : null;
  const places = last ? parts.slice(0, -1) : parts;
  return {
    parsed: {
      text: trimmed,
      city: places[0] ?? null,
      region: places.length > 1 ? places.slice(1).join(", ") : null,
      country: last,
      remote: false,
    },
    elsewhere: false,
  };
}

/**
 * What a free-text location names: `London, UK` is London in GB; `Leeds, West Yorkshire` is Leeds in
 * West Yorkshire; `Germany` is DE; `Remote`, `Remote (UK)` and `Remote - Germany` are remote work
 * (the part after it names the country applicants must be in, when it is a country).
 */
export function parseLocation(text: string, lang = "en"): ParsedLocation {
  return readLocation(text, lang).parsed;
}

function workplaceTypeOf(value: string | null): WorkplaceType | null {
  return (WORKPLACE_TYPES as readonly string[]).includes(value ?? "") ? (value as WorkplaceType) : null;
}

/**
 * Where `job` is. Each place part set on the job wins over what its `location` text names; the
 * country comes last from `defaultCountry`. `lang` is the page's language (the country's name in
 * `words`, and the names the text may use besides English ones). The default country is not used
 * for a remote job whose text names a place that is no country (`Remote - Europe`).
 */
export function jobPlace(
  job: Pick<JobRecord, "location" | "country" | "region" | "locality" | "postalCode" | "workplaceType">,
  lang = "en",
  defaultCountry: string | null = null,
): JobPlace {
  const { parsed, elsewhere } = readLocation(job.location, lang);
  const workplaceType = workplaceTypeOf(job.workplaceType) ?? (parsed.remote ? "remote" : null);
  const remote = workplaceType === "remote";
  const place = {
    text: parsed.text,
    city: job.locality ?? parsed.city,
    region: job.region ?? parsed.region,
    postalCode: job.postalCode,
    // `Remote - Europe` names where applicants must be: not the default country.
    country: job.country ?? parsed.country ?? (elsewhere ? null : defaultCountry),
    remote,
    workplaceType,
  };
  const structured =
    job.country !== null ||
    job.region !== null ||
    job.locality !== null ||
    job.postalCode !== null ||
    job.workplaceType !== null;
  return { ...place, words: structured ? wordsOf(place, lang) : parsed.text };
}

/** The site's words for work at a place, alone and after it. The site's own words are English, whatever `theme.lang` says. */
const AT_PLACE_WORDS: Record<Exclude<WorkplaceType, "remote">, { alone: string; after: string }> = {
  on_site: { alone: "On site", after: "on site" },
  hybrid: { alone: "Hybrid", after: "hybrid" },
};

function wordsOf(place: Omit<JobPlace, "words">, lang: string): string {
  const country = place.country ? countryName(place.country, lang) : null;
  // A remote job's place is where its applicants must be.
  if (place.remote) return country ? `Remote (${country})` : "Remote";
  const where = [place.city, place.region, country].filter(Boolean).join(", ") || place.text;
  if (place.workplaceType === null || place.workplaceType === "remote") return where;
  const words = AT_PLACE_WORDS[place.workplaceType];
  return where ? `${where} (${words.after})` : words.alone;
}
