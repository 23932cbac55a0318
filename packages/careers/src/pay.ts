/**
 * A job's pay as the site says it (`£50,000 – £70,000 a year`, `£12.50 – £14.00 an hour`) and as
 * structured data names it: the money formatted by `Intl.NumberFormat` in the page's language, the
 * period read from the stored free text (`hour`, `hourly`, `annum`, `per annum`…) into one of five
 * units, each with its own phrase, so that no text reads "a hour" or "a annum".
 */
import type { JobRecord } from "@hireport/core";

/** The periods the site knows, by schema.org's `unitText`. */
export type SalaryUnit = "HOUR" | "DAY" | "WEEK" | "MONTH" | "YEAR";

/** How the stored `salary_period` (free text) may name each period, lower case, spaces single. */
const PERIOD_WORDS: Record<string, SalaryUnit> = {
  hour: "HOUR",
  hours: "HOUR",
  hourly: "HOUR",
  hr: "HOUR",
  "per hour": "HOUR",
  day: "DAY",
  days: "DAY",
  daily: "DAY",
  "per day": "DAY",
  week: "WEEK",
  weeks: "WEEK",
  weekly: "WEEK",
  "per week": "WEEK",
  month: "MONTH",
  months: "MONTH",
  monthly: "MONTH",
  "per month": "MONTH",
  year: "YEAR",
  years: "YEAR",
  yearly: "YEAR",
  annual: "YEAR",
  annually: "YEAR",
  annum: "YEAR",
  "per annum": "YEAR",
  "per year": "YEAR",
  pa: "YEAR",
  "p.a.": "YEAR",
};

/** The unit of a stored period (`"Per Annum"` is `YEAR`), or null for one the site does not know. */
export function salaryUnitOf(period: string): SalaryUnit | null {
  const key = period.trim().toLowerCase().replace(/\s+/g, " ");
  return PERIOD_WORDS[key] ?? null;
}

/** The site's words around the figures. The site's own words are English, whatever `theme.lang` says. */
const WORDS = {
  from: "From",
  upTo: "Up to",
  /** After the figures: English says "an hour" but "a day". */
  per: { HOUR: "an hour", DAY: "a day", WEEK: "a week", MONTH: "a month", YEAR: "a year" } as Record<
    SalaryUnit,
    string
  >,
  /** A period the site does not know, as stored: "per shift" reads right whatever the word. */
  perOther: (period: string) => `per ${period}`,
} as const;

const ISO_CURRENCIES = new Set(Intl.supportedValuesOf("currency"));

/** The ISO 4217 code of a stored currency (`gbp` is `GBP`), or null when it is not one (`£`, `pounds`). */
export function currencyCodeOf(currency: string): string | null {
  const code = currency.trim().toUpperCase();
  return /^[A-Z]{3}$/.test(code) && ISO_CURRENCIES.has(code) ? code : null;
}

/** Formats by locale, currency and digits, made once: building an `Intl.NumberFormat` costs far more than using one. */
const formats = new Map<string, Intl.NumberFormat>();

function formatOf(locale: string, currency: string | null, digits: number): Intl.NumberFormat {
  const id = `${locale}|${currency ?? ""}|${digits}`;
  let format = formats.get(id);
  if (!format) {
    const options: Intl.NumberFormatOptions = { minimumFractionDigits: digits, maximumFractionDigits: digits };
    if (currency) Object.assign(options, { style: "currency", currency });
    try {
      format = new Intl.NumberFormat(locale, options);
    } catch {
      // A language tag Intl does not take: the site's own language.
      format = new Intl.NumberFormat("en", options);
    }
    if (formats.size < 1024) formats.set(id, format);
  }
  return format;
}

/** The pay in words in the page's language `locale` (`theme.lang`), or null when neither figure is set. */
export function salaryTextOf(
  job: Pick<JobRecord, "salaryMin" | "salaryMax" | "salaryCurrency" | "salaryPeriod">,
  locale = "en",
): string | null {
  const { salaryMin: min, salaryMax: max } = job;
  if (min === null && max === null) return null;
  const code = currencyCodeOf(job.salaryCurrency);
  // Both figures with pence, or neither: "£12.50 – £14.00", never "£12.50 – £14".
  const digits = [min, max].some((amount) => amount !== null && !Number.isInteger(amount)) ? 2 : 0;
  const format = formatOf(locale, code, digits);
  const other = job.salaryCurrency.trim();
  const money = (amount: number) => (code || !other ? format.format(amount) : `${format.format(amount)} ${other}`);
  const unit = salaryUnitOf(job.salaryPeriod);
  const period = job.salaryPeriod.trim();
  const per = unit ? ` ${WORDS.per[unit]}` : period ? ` ${WORDS.perOther(period)}` : "";
  if (min !== null && max !== null && min !== max) return `${money(min)} – ${money(max)}${per}`;
  if (min !== null && max === null) return `${WORDS.from} ${money(min)}${per}`;
  if (min === null && max !== null) return `${WORDS.upTo} ${money(max)}${per}`;
  return `${money(min as number)}${per}`;
}
