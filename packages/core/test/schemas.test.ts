import { describe, expect, it } from "vitest";
import type * as z from "zod";
import { type FieldError, HireportError, isHireportError } from "../src/base/errors";
import { APPLICATION_STAGES } from "../src/model/domain";
import {
  applicationCreateBodySchema,
  applicationPatchBodySchema,
  applicationSchema,
  candidateInputSchema,
  candidateSchema,
} from "../src/schemas/application";
import {
  errorBodySchema,
  eventEnvelopeSchema,
  meSchema,
  missingScopeErrorBodySchema,
  pageSchema,
  singleSchema,
  testEventEnvelopeSchema,
  validationErrorBodySchema,
} from "../src/schemas/common";
import { jobCreateBodySchema, jobPatchBodySchema, jobSchema } from "../src/schemas/job";
import { parseApplicationListQuery, parseJobListQuery } from "../src/schemas/query";
import { MAX_FIELD_ERRORS, parseBody, parseQuery } from "../src/schemas/validation";
import {
  APPLICATION_CREATE_DEFAULTS,
  APPLICATION_FIELDS,
  CANDIDATE_DEFAULTS,
  CANDIDATE_FIELDS,
  JOB_CREATE_DEFAULTS,
  JOB_FIELDS,
  SAMPLE_APPLICATION_BODY,
  SAMPLE_APPLICATION_WIRE,
  SAMPLE_JOB_WIRE,
} from "./support/spec-fields";

// ---------------------------------------------------------------------------------------------
// helpers

function caught(fn: () => unknown): HireportError {
  try {
    fn();
  } catch (error) {
    if (isHireportError(error)) return error;
    throw error;
  }
  throw new Error("expected a HireportError, nothing was thrown");
}

/** The 422 `fields` list for a body, failing the test when the body is accepted. */
function fieldsOf(schema: z.ZodType, body: unknown): FieldError[] {
  const error = caught(() => parseBody(schema, body));
  expect(error.code).toBe("invalid");
  expect(error.status).toBe(422);
  return error.fields ?? [];
}

/** The one message for `field`, failing when the body is accepted or the field is not listed. */
function messageFor(schema: z.ZodType, body: unknown, field: string): string {
  const fields = fieldsOf(schema, body);
  const entry = fields.find((f) => f.field === field);
  expect(entry, `no entry for ${field} in ${JSON.stringify(fields)}`).toBeDefined();
  return entry?.message ?? "";
}

function badQuery(fn: () => unknown): string {
  const error = caught(fn);
  expect(error.code).toBe("bad_request");
  expect(error.status).toBe(400);
  return error.message;
}

const text = (n: number) => "x".repeat(n);
const list = (n: number) => Array.from({ length: n }, (_, i) => `item ${i}`);
/** An https address exactly `n` characters long. */
const urlOfLength = (n: number, base = "https://files.example.com/") => base + "a".repeat(n - base.length);
/** An e-mail address exactly `n` characters long. */
const emailOfLength = (n: number) => {
  const domain = "@example.com";
  const local = n - domain.length;
  // Local parts of at most 64 characters, joined with dots, to stay a believable address.
  const parts: string[] = [];
  let left = local;
  while (left > 0) {
    const size = Math.min(60, left);
    parts.push("a".repeat(size));
    left -= size + 1;
  }
  let address = parts.join(".") + domain;
  while (address.length < n) address = `b${address}`;
  return address.slice(address.length - n);
};

const job = { title: "Backend Engineer" };
const application = { job_id: "job_1", candidate: { name: "Ada Lovelace", email: "ada@example.com" } };
/** The candidate of `application` with every field the body left out at its default, as stored and returned. */
const candidateWithDefaults = { name: "Ada Lovelace", email: "ada@example.com", ...CANDIDATE_DEFAULTS };

// ---------------------------------------------------------------------------------------------

describe("POST /jobs body (jobCreateBodySchema)", () => {
  it("accepts a title alone and fills every default", () => {
    expect(parseBody(jobCreateBodySchema, job)).toEqual({ title: "Backend Engineer", ...JOB_CREATE_DEFAULTS });
  });

  it("does not share default arrays between parses", () => {
    const a = parseBody(jobCreateBodySchema, job);
    a.required_skills.push("x");
    expect(parseBody(jobCreateBodySchema, job).required_skills).toEqual([]);
  });

  it("accepts every JobInput field", () => {
    const body = {
      title: "  Backend Engineer  ",
      description: "Long text\n\n  with indentation  ",
      short_description: "Short",
      department: "Engineering",
      location: "London",
      employment_type: "full_time",
      experience_level: "senior",
      salary_min: 50000,
      salary_max: 70000.5,
      salary_currency: "EUR",
      salary_period: "year",
      required_skills: ["TypeScript", "SQL"],
      preferred_skills: ["Kysely"],
      qualifications: ["BSc"],
      responsibilities: ["Build APIs"],
      benefits: ["Pension", "25 days holiday"],
      closing_date: "2026-12-31",
      start_date: "2027-01-15",
      positions: 2,
      status: "active",
    };
    const out = parseBody(jobCreateBodySchema, body);
    expect(out.title).toBe("Backend Engineer");
    expect(out.description).toBe(body.description);
    expect(out.benefits).toEqual(["Pension", "25 days holiday"]);
    expect(out.status).toBe("active");
    expect(out.salary_max).toBe(70000.5);
  });

  it("requires a title", () => {
    expect(messageFor(jobCreateBodySchema, {}, "title")).toBe("This field is required.");
    expect(messageFor(jobCreateBodySchema, { title: "" }, "title")).toBe("Must not be empty.");
    expect(messageFor(jobCreateBodySchema, { title: "   " }, "title")).toBe("Must not be empty.");
    expect(messageFor(jobCreateBodySchema, { title: 42 }, "title")).toBe("Must be a string, not a number.");
    expect(messageFor(jobCreateBodySchema, { title: null }, "title")).toBe("Must be a string, not null.");
  });

  const textLimits: [string, number][] = [
    ["title", 200],
    ["short_description", 500],
    ["description", 50_000],
    ["department", 200],
    ["location", 200],
    ["employment_type", 200],
    ["experience_level", 200],
  ];
  it.each(textLimits)("limits %s to %i characters (at the limit ok, one over refused)", (field, max) => {
    const at = parseBody(jobCreateBodySchema, { ...job, [field]: text(max) }) as Record<string, unknown>;
    expect(at[field]).toBe(text(max));
    const message = messageFor(jobCreateBodySchema, { ...job, [field]: text(max + 1) }, field);
    expect(message).toBe(
      `Must be at most ${max.toLocaleString("en-US")} characters long (this one has ${(max + 1).toLocaleString("en-US")}).`,
    );
  });

  it("measures single-line text after trimming, long text as sent", () => {
    expect(parseBody(jobCreateBodySchema, { title: ` ${text(200)} ` }).title).toBe(text(200));
    expect(fieldsOf(jobCreateBodySchema, { ...job, description: ` ${text(49_999)} ` })).toHaveLength(1);
  });

  it("refuses an empty currency or period (leave them out for GBP and year)", () => {
    expect(messageFor(jobCreateBodySchema, { ...job, salary_currency: "" }, "salary_currency")).toBe(CURRENCY_MESSAGE);
    expect(messageFor(jobCreateBodySchema, { ...job, salary_period: " " }, "salary_period")).toBe(PERIOD_MESSAGE);
  });

  const CURRENCY_MESSAGE = "Must be an ISO 4217 currency code of three upper-case letters, such as GBP.";
  const PERIOD_MESSAGE = "Must be one of: hour, day, week, month, year.";

  // Regression: salary_currency was any text of up to 200 characters, so structured data (JobPosting) could carry "pounds".
  it.each(["gbp", "GB", "GBPP", "pounds", "XYZ", " GBP", "£"])(
    "refuses salary_currency %j on create and patch",
    (code) => {
      expect(messageFor(jobCreateBodySchema, { ...job, salary_currency: code }, "salary_currency")).toBe(
        CURRENCY_MESSAGE,
      );
      expect(messageFor(jobPatchBodySchema, { salary_currency: code }, "salary_currency")).toBe(CURRENCY_MESSAGE);
    },
  );

  it.each(["GBP", "EUR", "USD", "JPY", "CHF"])("accepts the ISO 4217 code %s", (code) => {
    expect(parseBody(jobCreateBodySchema, { ...job, salary_currency: code }).salary_currency).toBe(code);
    expect(parseBody(jobPatchBodySchema, { salary_currency: code }).salary_currency).toBe(code);
  });

  // Regression: salary_period was any text, such as "annually" or "per year".
  it.each(["annually", "Year", "per year", "years", "fortnight"])("refuses salary_period %j", (period) => {
    expect(messageFor(jobCreateBodySchema, { ...job, salary_period: period }, "salary_period")).toBe(PERIOD_MESSAGE);
    expect(messageFor(jobPatchBodySchema, { salary_period: period }, "salary_period")).toBe(PERIOD_MESSAGE);
  });

  it.each(["hour", "day", "week", "month", "year"])("accepts salary_period %s", (period) => {
    expect(parseBody(jobCreateBodySchema, { ...job, salary_period: period }).salary_period).toBe(period);
  });

  const COUNTRY_MESSAGE =
    "Must be an ISO 3166-1 alpha-2 country code of two upper-case letters, such as GB (the United Kingdom) or DE.";

  // `UK` and `EU` are reserved, not assigned; `XK` is user-assigned; `GBR` is alpha-3.
  it.each(["gb", "UK", "EU", "XK", "ZZ", "GBR", "G", " GB", "United Kingdom", ""])(
    "refuses country %j on create and patch",
    (code) => {
      expect(messageFor(jobCreateBodySchema, { ...job, country: code }, "country")).toBe(COUNTRY_MESSAGE);
      expect(messageFor(jobPatchBodySchema, { country: code }, "country")).toBe(COUNTRY_MESSAGE);
    },
  );

  it.each(["GB", "DE", "US", "IE", "AX", "SS"])("accepts the ISO 3166-1 alpha-2 code %s", (code) => {
    expect(parseBody(jobCreateBodySchema, { ...job, country: code }).country).toBe(code);
    expect(parseBody(jobPatchBodySchema, { country: code }).country).toBe(code);
  });

  it("takes the place parts trimmed, null clearing them; blank text is refused (send null)", () => {
    const body = { ...job, country: "GB", region: " West Yorkshire ", locality: "Leeds ", postal_code: " LS1 4DY" };
    expect(parseBody(jobCreateBodySchema, body)).toMatchObject({
      country: "GB",
      region: "West Yorkshire",
      locality: "Leeds",
      postal_code: "LS1 4DY",
    });
    const cleared = { country: null, region: null, locality: null, postal_code: null, workplace_type: null };
    expect(parseBody(jobPatchBodySchema, cleared)).toEqual(cleared);
    for (const field of ["region", "locality", "postal_code"]) {
      expect(messageFor(jobCreateBodySchema, { ...job, [field]: "  " }, field)).toBe("Must not be empty.");
    }
  });

  it.each([
    ["region", 200],
    ["locality", 200],
    ["postal_code", 20],
  ] as const)("limits %s to %i characters", (field, max) => {
    expect((parseBody(jobCreateBodySchema, { ...job, [field]: text(max) }) as Record<string, unknown>)[field]).toBe(
      text(max),
    );
    expect(messageFor(jobCreateBodySchema, { ...job, [field]: text(max + 1) }, field)).toBe(
      `Must be at most ${max} characters long (this one has ${max + 1}).`,
    );
  });

  it.each(["on_site", "hybrid", "remote"])("accepts workplace_type %s", (type) => {
    expect(parseBody(jobCreateBodySchema, { ...job, workplace_type: type }).workplace_type).toBe(type);
    expect(parseBody(jobPatchBodySchema, { workplace_type: type }).workplace_type).toBe(type);
  });

  it.each(["onsite", "on-site", "Remote", "office", "fully_remote", ""])("refuses workplace_type %j", (type) => {
    const message = "Must be one of: on_site, hybrid, remote.";
    expect(messageFor(jobCreateBodySchema, { ...job, workplace_type: type }, "workplace_type")).toBe(message);
    expect(messageFor(jobPatchBodySchema, { workplace_type: type }, "workplace_type")).toBe(message);
  });

  const lists = ["required_skills", "preferred_skills", "qualifications", "responsibilities", "benefits"];
  it.each(lists)("limits %s to 100 items of 1 to 200 characters", (field) => {
    expect((parseBody(jobCreateBodySchema, { ...job, [field]: list(100) }) as Record<string, unknown>)[field]).toEqual(
      list(100),
    );
    expect(messageFor(jobCreateBodySchema, { ...job, [field]: list(101) }, field)).toBe(
      "Must have at most 100 items (this one has 101).",
    );
    expect(
      (parseBody(jobCreateBodySchema, { ...job, [field]: ["a", text(200)] }) as Record<string, unknown>)[field],
    ).toEqual(["a", text(200)]);
    expect(messageFor(jobCreateBodySchema, { ...job, [field]: ["a", "b", "c", text(201)] }, `${field}.3`)).toBe(
      "Must be at most 200 characters long (this one has 201).",
    );
    expect(messageFor(jobCreateBodySchema, { ...job, [field]: ["ok", " "] }, `${field}.1`)).toBe("Must not be empty.");
    expect(messageFor(jobCreateBodySchema, { ...job, [field]: ["ok", { name: "x" }] }, `${field}.1`)).toBe(
      "Must be a string, not an object.",
    );
    expect(messageFor(jobCreateBodySchema, { ...job, [field]: "TypeScript" }, field)).toBe(
      "Must be an array, not a string.",
    );
  });

  it("checks salary amounts: finite, 0 or more, min <= max", () => {
    expect(parseBody(jobCreateBodySchema, { ...job, salary_min: 0, salary_max: 0 }).salary_max).toBe(0);
    expect(parseBody(jobCreateBodySchema, { ...job, salary_min: 100 }).salary_max).toBeNull();
    expect(parseBody(jobCreateBodySchema, { ...job, salary_max: 1e12 }).salary_max).toBe(1e12);
    expect(messageFor(jobCreateBodySchema, { ...job, salary_max: 1e12 + 1 }, "salary_max")).toBe(
      "Must be at most 1,000,000,000,000.",
    );
    expect(messageFor(jobCreateBodySchema, { ...job, salary_min: -1 }, "salary_min")).toBe("Must be at least 0.");
    expect(messageFor(jobCreateBodySchema, { ...job, salary_min: "50000" }, "salary_min")).toMatch(/^Must be a number/);
    expect(fieldsOf(jobCreateBodySchema, { ...job, salary_min: Number.POSITIVE_INFINITY })[0]?.field).toBe(
      "salary_min",
    );
    expect(fieldsOf(jobCreateBodySchema, { ...job, salary_min: Number.NaN })[0]?.field).toBe("salary_min");
    expect(messageFor(jobCreateBodySchema, { ...job, salary_min: 70000, salary_max: 50000 }, "salary_max")).toBe(
      "Must be greater than or equal to salary_min.",
    );
    expect(parseBody(jobCreateBodySchema, { ...job, salary_min: 50000, salary_max: 50000 }).salary_min).toBe(50000);
  });

  it("takes positions as a whole number from 1", () => {
    expect(parseBody(jobCreateBodySchema, { ...job, positions: 1 }).positions).toBe(1);
    expect(parseBody(jobCreateBodySchema, { ...job, positions: 100_000 }).positions).toBe(100_000);
    expect(messageFor(jobCreateBodySchema, { ...job, positions: 100_001 }, "positions")).toBe(
      "Must be at most 100,000.",
    );
    expect(messageFor(jobCreateBodySchema, { ...job, positions: 0 }, "positions")).toBe("Must be at least 1.");
    expect(messageFor(jobCreateBodySchema, { ...job, positions: 1.5 }, "positions")).toBe("Must be a whole number.");
    expect(messageFor(jobCreateBodySchema, { ...job, positions: "2" }, "positions")).toBe(
      "Must be a number, not a string.",
    );
  });

  it("takes closing_date and start_date as real calendar dates YYYY-MM-DD", () => {
    expect(parseBody(jobCreateBodySchema, { ...job, closing_date: "2028-02-29" }).closing_date).toBe("2028-02-29");
    expect(parseBody(jobCreateBodySchema, { ...job, start_date: "2026-12-31" }).start_date).toBe("2026-12-31");
    for (const bad of [
      "2027-02-29",
      "2026-04-31",
      "2026-13-01",
      "2026-1-5",
      "31/12/2026",
      "2026-12-31T00:00:00Z",
      "",
    ]) {
      for (const field of ["closing_date", "start_date"]) {
        expect(messageFor(jobCreateBodySchema, { ...job, [field]: bad }, field)).toBe(
          "Must be a real calendar date in the form YYYY-MM-DD, such as 2026-03-31.",
        );
      }
    }
  });

  it("takes status active, draft or paused only", () => {
    for (const status of ["active", "draft", "paused"]) {
      expect(parseBody(jobCreateBodySchema, { ...job, status }).status).toBe(status);
    }
    for (const status of ["closed", "open", "ACTIVE", ""]) {
      expect(messageFor(jobCreateBodySchema, { ...job, status }, "status")).toBe(
        "Must be one of: active, draft, paused.",
      );
    }
  });

  it("lists each unknown field once, with its dotted path", () => {
    const fields = fieldsOf(jobCreateBodySchema, { ...job, salary: { min: 1 }, Title: "x", hidden: true });
    expect(fields).toEqual([
      { field: "salary", message: "Unknown field." },
      { field: "Title", message: "Unknown field." },
      { field: "hidden", message: "Unknown field." },
    ]);
  });

  it("reports a body that is not an object under `body`", () => {
    for (const body of [[], null, "title", 42, undefined]) {
      const fields = fieldsOf(jobCreateBodySchema, body);
      expect(fields).toHaveLength(1);
      expect(fields[0]?.field).toBe("body");
      expect(fields[0]?.message).toMatch(/^The request body must be a JSON object, not /);
    }
  });

  it("lists every problem, not only the first, and summarises in the message", () => {
    const error = caught(() => parseBody(jobCreateBodySchema, { title: "", positions: 0, extra: 1 }));
    expect(error.fields?.map((f) => f.field).sort()).toEqual(["extra", "positions", "title"]);
    expect(error.message).toMatch(/^The request body is not valid\. \w+: .+ \(and 2 more; see error\.fields\)$/);
    expect(error.toBody().error.fields).toEqual(error.fields);
  });

  it(`caps the fields list at ${MAX_FIELD_ERRORS} entries`, () => {
    const body: Record<string, unknown> = { ...job };
    for (let i = 0; i < 150; i++) body[`extra_${i}`] = i;
    expect(fieldsOf(jobCreateBodySchema, body)).toHaveLength(MAX_FIELD_ERRORS);
  });
});

describe("PATCH /jobs/{id} body (jobPatchBodySchema)", () => {
  it("accepts an empty object and applies no defaults", () => {
    expect(parseBody(jobPatchBodySchema, {})).toEqual({});
    expect(parseBody(jobPatchBodySchema, { location: "Leeds" })).toEqual({ location: "Leeds" });
  });

  it("accepts null to clear salary_min, salary_max, closing_date, start_date and positions", () => {
    const body = { salary_min: null, salary_max: null, closing_date: null, start_date: null, positions: null };
    expect(parseBody(jobPatchBodySchema, body)).toEqual(body);
  });

  it("refuses null for fields that cannot be cleared", () => {
    for (const field of ["title", "status", "description", "required_skills", "salary_currency"]) {
      expect(fieldsOf(jobPatchBodySchema, { [field]: null })[0]?.field).toBe(field);
    }
  });

  it("keeps the checks of create", () => {
    expect(messageFor(jobPatchBodySchema, { title: "" }, "title")).toBe("Must not be empty.");
    expect(messageFor(jobPatchBodySchema, { title: text(201) }, "title")).toMatch(/at most 200 characters/);
    expect(messageFor(jobPatchBodySchema, { status: "closed" }, "status")).toBe(
      "Must be one of: active, draft, paused.",
    );
    expect(messageFor(jobPatchBodySchema, { salary_min: 10, salary_max: 5 }, "salary_max")).toBe(
      "Must be greater than or equal to salary_min.",
    );
    expect(parseBody(jobPatchBodySchema, { salary_min: 10, salary_max: null })).toEqual({
      salary_min: 10,
      salary_max: null,
    });
    expect(messageFor(jobPatchBodySchema, { closing_date: "2026-02-30" }, "closing_date")).toMatch(/calendar date/);
    expect(messageFor(jobPatchBodySchema, { unknown: 1 }, "unknown")).toBe("Unknown field.");
  });
});

describe("POST /applications body (applicationCreateBodySchema)", () => {
  it("accepts job_id with a name and an e-mail, and fills the defaults", () => {
    expect(parseBody(applicationCreateBodySchema, application)).toEqual({
      job_id: "job_1",
      candidate: candidateWithDefaults,
      ...APPLICATION_CREATE_DEFAULTS,
    });
  });

  it("accepts every field of the application body", () => {
    const body = SAMPLE_APPLICATION_BODY;
    expect(parseBody(applicationCreateBodySchema, body)).toEqual(body);
  });

  it("requires job_id and the candidate's name and e-mail", () => {
    expect(messageFor(applicationCreateBodySchema, { candidate: application.candidate }, "job_id")).toBe(
      "This field is required.",
    );
    expect(messageFor(applicationCreateBodySchema, { ...application, job_id: "" }, "job_id")).toBe(
      "Must not be empty.",
    );
    expect(messageFor(applicationCreateBodySchema, { ...application, job_id: text(201) }, "job_id")).toMatch(
      /at most 200 characters/,
    );
    expect(messageFor(applicationCreateBodySchema, { job_id: "job_1" }, "candidate")).toBe("This field is required.");
    expect(
      messageFor(applicationCreateBodySchema, { job_id: "job_1", candidate: { name: "Ada" } }, "candidate.email"),
    ).toBe("This field is required.");
    expect(
      messageFor(applicationCreateBodySchema, { job_id: "job_1", candidate: { email: "a@b.co" } }, "candidate.name"),
    ).toBe("This field is required.");
    expect(messageFor(applicationCreateBodySchema, { job_id: "job_1", candidate: "Ada" }, "candidate")).toBe(
      "Must be an object, not a string.",
    );
  });

  it("checks the e-mail address for real, up to 254 characters", () => {
    const withEmail = (email: string) => ({ ...application, candidate: { ...application.candidate, email } });
    for (const good of ["ada@example.com", "ada.lovelace+jobs@mail.example.co.uk", "o'brien@example.ie"]) {
      expect(parseBody(applicationCreateBodySchema, withEmail(good)).candidate.email).toBe(good);
    }
    for (const bad of ["ada", "ada@", "@example.com", "ada@example", "ada @example.com", "ada@@example.com", ""]) {
      expect(messageFor(applicationCreateBodySchema, withEmail(bad), "candidate.email")).toBe(
        "Must be a valid e-mail address, such as ada@example.com.",
      );
    }
    const at = emailOfLength(254);
    expect(at).toHaveLength(254);
    expect(parseBody(applicationCreateBodySchema, withEmail(at)).candidate.email).toBe(at);
    const over = emailOfLength(255);
    expect(messageFor(applicationCreateBodySchema, withEmail(over), "candidate.email")).toBe(
      "Must be at most 254 characters long (this one has 255).",
    );
  });

  it.each(["name", "phone", "location", "current_title"])("limits candidate.%s to 200 characters", (field) => {
    const body = (value: string) => ({ ...application, candidate: { ...application.candidate, [field]: value } });
    expect((parseBody(applicationCreateBodySchema, body(text(200))).candidate as Record<string, unknown>)[field]).toBe(
      text(200),
    );
    expect(messageFor(applicationCreateBodySchema, body(text(201)), `candidate.${field}`)).toMatch(
      /^Must be at most 200 characters long/,
    );
  });

  it("limits candidate.skills to 100 items of up to 200 characters", () => {
    const body = (skills: unknown) => ({ ...application, candidate: { ...application.candidate, skills } });
    expect(parseBody(applicationCreateBodySchema, body(list(100))).candidate.skills).toEqual(list(100));
    expect(messageFor(applicationCreateBodySchema, body(list(101)), "candidate.skills")).toMatch(/at most 100 items/);
    expect(messageFor(applicationCreateBodySchema, body(["a", "b", text(201)]), "candidate.skills.2")).toMatch(
      /at most 200 characters/,
    );
  });

  it("takes linkedin_url as a web address or an empty string", () => {
    const body = (linkedin_url: unknown) => ({ ...application, candidate: { ...application.candidate, linkedin_url } });
    for (const good of ["", "https://www.linkedin.com/in/ada", "http://linkedin.com/in/ada", urlOfLength(2048)]) {
      expect(parseBody(applicationCreateBodySchema, body(good)).candidate.linkedin_url).toBe(good);
    }
    for (const bad of ["linkedin.com/in/ada", "javascript:alert(1)", "ftp://example.com/x", urlOfLength(2049), 5]) {
      expect(messageFor(applicationCreateBodySchema, body(bad), "candidate.linkedin_url")).toBe(
        "Must be a web address starting with https:// (or http://) of at most 2,048 characters, or an empty string.",
      );
    }
  });

  it("takes resume_url as an https address with a host name, up to 2,048 characters", () => {
    const body = (resume_url: unknown) => ({ ...application, resume_url });
    for (const good of ["https://files.example.com/cv/ada.pdf", urlOfLength(2048), null]) {
      expect(parseBody(applicationCreateBodySchema, body(good)).resume_url).toBe(good);
    }
    const message = "Must be a full https address with a host name, such as https://files.example.com/cv.pdf.";
    for (const bad of [
      "http://files.example.com/cv.pdf",
      "https:/files.example.com/cv.pdf",
      "files.example.com/cv.pdf",
      "https://localhost/cv.pdf",
      "https://10.0.0.1/cv.pdf",
      "javascript:alert(1)",
      "",
    ]) {
      expect(messageFor(applicationCreateBodySchema, body(bad), "resume_url")).toBe(message);
    }
    expect(messageFor(applicationCreateBodySchema, body(urlOfLength(2049)), "resume_url")).toBe(
      "Must be at most 2,048 characters long (this one has 2,049).",
    );
  });

  it("limits cover_letter to 20,000 characters and source to 100", () => {
    expect(parseBody(applicationCreateBodySchema, { ...application, cover_letter: text(20_000) }).cover_letter).toBe(
      text(20_000),
    );
    expect(
      messageFor(applicationCreateBodySchema, { ...application, cover_letter: text(20_001) }, "cover_letter"),
    ).toBe("Must be at most 20,000 characters long (this one has 20,001).");
    expect(parseBody(applicationCreateBodySchema, { ...application, source: text(100) }).source).toBe(text(100));
    expect(messageFor(applicationCreateBodySchema, { ...application, source: text(101) }, "source")).toBe(
      "Must be at most 100 characters long (this one has 101).",
    );
    expect(messageFor(applicationCreateBodySchema, { ...application, source: "" }, "source")).toBe(
      "Must not be empty.",
    );
  });

  it("takes consent as true, false or null", () => {
    for (const consent of [true, false, null]) {
      expect(parseBody(applicationCreateBodySchema, { ...application, consent }).consent).toBe(consent);
    }
    expect(messageFor(applicationCreateBodySchema, { ...application, consent: "yes" }, "consent")).toBe(
      "Must be true or false, not a string.",
    );
  });

  it("refuses unknown fields at any depth", () => {
    const fields = fieldsOf(applicationCreateBodySchema, {
      ...application,
      stage: "hired",
      candidate: { ...application.candidate, nickname: "Ada", age: 36 },
    });
    expect(fields).toContainEqual({ field: "stage", message: "Unknown field." });
    expect(fields).toContainEqual({ field: "candidate.nickname", message: "Unknown field." });
    expect(fields).toContainEqual({ field: "candidate.age", message: "Unknown field." });
  });

  it("exposes the candidate schema on its own", () => {
    expect(candidateInputSchema.safeParse({ name: "Ada", email: "ada@example.com" }).success).toBe(true);
    expect(candidateInputSchema.safeParse({ name: "Ada" }).success).toBe(false);
  });
});

describe("PATCH /applications/{id} body (applicationPatchBodySchema)", () => {
  it("accepts an empty object", () => {
    expect(parseBody(applicationPatchBodySchema, {})).toEqual({});
  });

  it.each(APPLICATION_STAGES)("accepts stage %s", (stage) => {
    expect(parseBody(applicationPatchBodySchema, { stage })).toEqual({ stage });
  });

  it("refuses a stage outside the 14", () => {
    for (const stage of ["archived", "Hired", "", 3]) {
      expect(messageFor(applicationPatchBodySchema, { stage }, "stage")).toBe(
        `Must be one of: ${APPLICATION_STAGES.join(", ")}.`,
      );
    }
  });

  it("limits note to 10,000 characters and refuses an empty note", () => {
    expect(parseBody(applicationPatchBodySchema, { note: text(10_000) })).toEqual({ note: text(10_000) });
    expect(messageFor(applicationPatchBodySchema, { note: text(10_001) }, "note")).toBe(
      "Must be at most 10,000 characters long (this one has 10,001).",
    );
    expect(messageFor(applicationPatchBodySchema, { note: "  " }, "note")).toBe("Must not be empty.");
  });

  it("limits tags to 100 of up to 200 characters, with array indexes in the path", () => {
    expect(parseBody(applicationPatchBodySchema, { tags: list(100) })).toEqual({ tags: list(100) });
    expect(parseBody(applicationPatchBodySchema, { tags: [] })).toEqual({ tags: [] });
    expect(messageFor(applicationPatchBodySchema, { tags: list(101) }, "tags")).toBe(
      "Must have at most 100 items (this one has 101).",
    );
    expect(messageFor(applicationPatchBodySchema, { tags: ["a", "b", "c", text(201)] }, "tags.3")).toBe(
      "Must be at most 200 characters long (this one has 201).",
    );
  });

  it("takes starred as a boolean and refuses unknown fields", () => {
    expect(parseBody(applicationPatchBodySchema, { starred: false })).toEqual({ starred: false });
    expect(messageFor(applicationPatchBodySchema, { starred: "true" }, "starred")).toBe(
      "Must be true or false, not a string.",
    );
    expect(messageFor(applicationPatchBodySchema, { stage: "hired", rating: 5 }, "rating")).toBe("Unknown field.");
  });
});

// ---------------------------------------------------------------------------------------------

const jobWire = SAMPLE_JOB_WIRE;

const applicationWire = SAMPLE_APPLICATION_WIRE;

describe("returned shapes", () => {
  it("jobSchema is exactly the documented Job: its first fields, then the other JobInput fields", () => {
    expect(jobSchema.parse(jobWire)).toEqual(jobWire);
    expect(Object.keys(jobSchema.shape)).toEqual(JOB_FIELDS);
    expect(jobSchema.safeParse({ ...jobWire, hidden: false }).success).toBe(false);
    const { public_url: _, ...missing } = jobWire;
    expect(jobSchema.safeParse(missing).success).toBe(false);
    expect(jobSchema.safeParse({ ...jobWire, public_url: null, status: "closed", open: false }).success).toBe(true);
    expect(jobSchema.safeParse({ ...jobWire, closing_date: "2026-12-31" }).success).toBe(true);
    expect(jobSchema.safeParse({ ...jobWire, created_at: "2026-03-31T10:30:00+01:00" }).success).toBe(false);
    expect(jobSchema.safeParse({ ...jobWire, salary: { min: 1, max: 2, currency: "GBP" } }).success).toBe(false);
  });

  it("applicationSchema is exactly the documented Application, plus human_review_requested, erased_at, answers and knocked_out", () => {
    expect(applicationSchema.parse(applicationWire)).toEqual(applicationWire);
    expect(Object.keys(applicationSchema.shape)).toEqual(APPLICATION_FIELDS);
    expect(Object.keys(candidateSchema.shape)).toEqual(CANDIDATE_FIELDS);
    expect(applicationSchema.safeParse({ ...applicationWire, erased_at: "2026-04-01T08:00:00.000Z" }).success).toBe(
      true,
    );
    expect(
      applicationSchema.safeParse({ ...applicationWire, resume_url: "https://careers.example.com/files/cv/t" }).success,
    ).toBe(true);
    expect(applicationSchema.safeParse({ ...applicationWire, scores: { ai_match: 72, overall: 4.5 } }).success).toBe(
      true,
    );
    expect(applicationSchema.safeParse({ ...applicationWire, scores: { ai_match: null, overall: 1 } }).success).toBe(
      false,
    );
    expect(applicationSchema.safeParse({ ...applicationWire, consent: true }).success).toBe(false);
  });

  it("pageSchema and singleSchema wrap records", () => {
    const page = pageSchema(jobSchema);
    expect(page.safeParse({ data: [jobWire], has_more: true, next_cursor: "abc" }).success).toBe(true);
    expect(page.safeParse({ data: [], has_more: false, next_cursor: null }).success).toBe(true);
    expect(page.safeParse({ data: [], has_more: false }).success).toBe(false);
    expect(singleSchema(applicationSchema).safeParse({ data: applicationWire }).success).toBe(true);
    expect(singleSchema(applicationSchema).safeParse(applicationWire).success).toBe(false);
  });

  it("errorBodySchema matches HireportError bodies, with fields and required_scope where they apply", () => {
    const invalid = new HireportError("invalid", "The request body is not valid.", {
      fields: [{ field: "candidate.email", message: "Must be a valid e-mail address, such as ada@example.com." }],
    }).toBody();
    const scope = new HireportError("missing_scope", "This key lacks jobs:write.", {
      requiredScope: "jobs:write",
    }).toBody();
    const duplicate = new HireportError("duplicate", "Already applied.", { extra: { existing_id: "app_1" } }).toBody();
    for (const body of [invalid, scope, duplicate, new HireportError("not_found", "No job.").toBody()]) {
      expect(errorBodySchema.safeParse(body).success).toBe(true);
    }
    expect(validationErrorBodySchema.safeParse(invalid).success).toBe(true);
    expect(missingScopeErrorBodySchema.safeParse(scope).success).toBe(true);
    expect(validationErrorBodySchema.safeParse(scope).success).toBe(false);
    expect(errorBodySchema.safeParse({ error: { code: "nope", message: "x" } }).success).toBe(false);
  });

  it("meSchema is the documented GET /me body", () => {
    const me = {
      data: {
        company: { id: "co_1", name: "Acme" },
        key: { id: "key_1", name: "Careers site", scopes: ["jobs:read", "jobs:write"] },
        limits: { per_minute: 120, per_day: 20000 },
      },
    };
    expect(meSchema.parse(me)).toEqual(me);
    expect(meSchema.safeParse({ ...me, data: { ...me.data, limits: { per_minute: 1.5, per_day: 1 } } }).success).toBe(
      false,
    );
    expect(meSchema.safeParse(me.data).success).toBe(false);
  });

  it("eventEnvelopeSchema pairs job events with a Job and application events with an Application", () => {
    const base = { id: "evt_1", created_at: "2026-03-31T09:30:00.000Z", company_id: "co_1", api_version: "1.0" };
    for (const type of ["job.created", "job.updated", "job.closed"]) {
      expect(eventEnvelopeSchema.safeParse({ ...base, type, data: jobWire }).success).toBe(true);
      expect(eventEnvelopeSchema.safeParse({ ...base, type, data: applicationWire }).success).toBe(false);
    }
    for (const type of ["application.created", "application.updated"]) {
      expect(eventEnvelopeSchema.safeParse({ ...base, type, data: applicationWire }).success).toBe(true);
    }
    expect(eventEnvelopeSchema.safeParse({ ...base, id: "1", type: "job.created", data: jobWire }).success).toBe(false);
    expect(
      eventEnvelopeSchema.safeParse({ ...base, api_version: "2.0", type: "job.created", data: jobWire }).success,
    ).toBe(false);
    expect(
      testEventEnvelopeSchema.safeParse({ ...base, type: "webhook.test", data: { endpoint_id: "we_1" } }).success,
    ).toBe(true);
  });
});

// ---------------------------------------------------------------------------------------------

describe("GET /jobs query (parseJobListQuery)", () => {
  it("defaults to status all and limit 25", () => {
    expect(parseJobListQuery({})).toEqual({ status: "all", limit: 25 });
    expect(parseJobListQuery({ limit: undefined })).toEqual({ status: "all", limit: 25 });
    expect(parseJobListQuery(new URLSearchParams())).toEqual({ status: "all", limit: 25 });
  });

  it("takes every parameter", () => {
    expect(
      parseJobListQuery({ status: "open", limit: "100", cursor: "abc", updated_since: "2026-03-31T09:30:00Z" }),
    ).toEqual({ status: "open", limit: 100, cursor: "abc", updatedSince: new Date("2026-03-31T09:30:00.000Z") });
    for (const status of ["open", "closed", "draft", "all"]) {
      expect(parseJobListQuery({ status }).status).toBe(status);
    }
  });

  it("takes limit as a whole number from 1 to 100", () => {
    expect(parseJobListQuery({ limit: "1" }).limit).toBe(1);
    expect(parseJobListQuery({ limit: "100" }).limit).toBe(100);
    for (const bad of ["0", "101", "1.5", "abc", "", "-1", "1e1", " 5", "0x10", "25 ", "9999999"]) {
      const message = badQuery(() => parseJobListQuery({ limit: bad }));
      expect(message).toContain("Query parameter 'limit'");
      expect(message).toContain("Must be a whole number from 1 to 100");
    }
  });

  it("refuses a status outside open, closed, draft, all", () => {
    const message = badQuery(() => parseJobListQuery({ status: "active" }));
    expect(message).toBe(
      `Query parameter 'status' is not valid (got "active"). Must be one of: open, closed, draft, all.`,
    );
  });

  it("names an unknown parameter and lists the accepted ones", () => {
    expect(badQuery(() => parseJobListQuery({ page: "2" }))).toBe(
      "Unknown query parameter 'page'. This endpoint accepts: status, limit, cursor, updated_since.",
    );
    expect(badQuery(() => parseJobListQuery({ stage: "new", foo: "" }))).toContain("'stage', 'foo'");
  });

  it("refuses a repeated parameter", () => {
    expect(badQuery(() => parseJobListQuery({ limit: ["10", "20"] }))).toBe(
      "Query parameter 'limit' was sent 2 times; send it at most once.",
    );
    expect(badQuery(() => parseJobListQuery(new URLSearchParams("status=open&status=draft")))).toContain(
      "'status' was sent 2 times",
    );
    expect(parseJobListQuery({ limit: ["10"] }).limit).toBe(10);
  });

  it("takes updated_since as a date (midnight UTC) or a date-time with Z or an offset", () => {
    const since = (value: string) => parseJobListQuery({ updated_since: value }).updatedSince?.toISOString();
    expect(since("2026-03-31")).toBe("2026-03-31T00:00:00.000Z");
    expect(since("2024-02-29")).toBe("2024-02-29T00:00:00.000Z");
    expect(since("2026-03-31T09:30:00Z")).toBe("2026-03-31T09:30:00.000Z");
    expect(since("2026-03-31T09:30:00.123Z")).toBe("2026-03-31T09:30:00.123Z");
    expect(since("2026-03-31T10:30:00+01:00")).toBe("2026-03-31T09:30:00.000Z");
    expect(since("2026-03-31T04:00:00-05:30")).toBe("2026-03-31T09:30:00.000Z");
    expect(since("2026-01-01T00:30:00+01:00")).toBe("2025-12-31T23:30:00.000Z");
    for (const bad of [
      "2026-02-30",
      "2026-03-31T09:30:00",
      "2026-03-31 09:30:00Z",
      "2026-03-31T09:30Z",
      "2026-03-31T10:30:00 01:00",
      "2026-03-31T10:30:00+0100",
      "2026-03-31T25:00:00Z",
      "yesterday",
      "1711872000",
      "",
    ]) {
      const message = badQuery(() => parseJobListQuery({ updated_since: bad }));
      expect(message).toContain("Query parameter 'updated_since'");
      expect(message).toContain("%2B");
    }
  });

  it("takes cursor as a string of 1 to 512 characters", () => {
    expect(parseJobListQuery({ cursor: text(512) }).cursor).toBe(text(512));
    expect(badQuery(() => parseJobListQuery({ cursor: text(513) }))).toContain("Query parameter 'cursor'");
    expect(badQuery(() => parseJobListQuery({ cursor: "" }))).toContain("Query parameter 'cursor'");
  });

  it("reports a parameter named __proto__ and a nested (object) value", () => {
    const query = JSON.parse('{"__proto__": "x"}') as Record<string, string>;
    expect(badQuery(() => parseJobListQuery(query))).toContain("Unknown query parameter '__proto__'");
    expect(badQuery(() => parseJobListQuery(new URLSearchParams("__proto__=x")))).toContain("'__proto__'");
    const nested = { status: { open: "1" } } as unknown as Record<string, string>;
    expect(badQuery(() => parseJobListQuery(nested))).toContain("Query parameter 'status'");
  });

  it("shortens a long value it echoes", () => {
    const message = badQuery(() => parseJobListQuery({ status: text(5000) }));
    expect(message.length).toBeLessThan(200);
  });
});

describe("GET /applications query (parseApplicationListQuery)", () => {
  it("defaults to limit 25 and takes job_id, stage, limit, cursor, updated_since", () => {
    expect(parseApplicationListQuery({})).toEqual({ limit: 25 });
    expect(
      parseApplicationListQuery({
        job_id: "job_1",
        stage: "offer_sent",
        limit: "5",
        cursor: "c",
        updated_since: "2026-03-31",
      }),
    ).toEqual({
      jobId: "job_1",
      stage: "offer_sent",
      limit: 5,
      cursor: "c",
      updatedSince: new Date("2026-03-31T00:00:00.000Z"),
    });
  });

  it.each(APPLICATION_STAGES)("accepts stage %s", (stage) => {
    expect(parseApplicationListQuery({ stage }).stage).toBe(stage);
  });

  it("refuses a bad stage, job_id, limit, unknown or repeated parameter", () => {
    expect(badQuery(() => parseApplicationListQuery({ stage: "archived" }))).toContain(
      `Must be one of: ${APPLICATION_STAGES.join(", ")}.`,
    );
    expect(badQuery(() => parseApplicationListQuery({ job_id: "" }))).toContain("Query parameter 'job_id'");
    expect(badQuery(() => parseApplicationListQuery({ job_id: text(201) }))).toContain("Query parameter 'job_id'");
    expect(badQuery(() => parseApplicationListQuery({ limit: "0" }))).toContain("Query parameter 'limit'");
    expect(badQuery(() => parseApplicationListQuery({ status: "open" }))).toBe(
      "Unknown query parameter 'status'. This endpoint accepts: job_id, stage, limit, cursor, updated_since.",
    );
    expect(badQuery(() => parseApplicationListQuery({ job_id: ["a", "b"] }))).toContain("'job_id' was sent 2 times");
  });

  it("reports every bad parameter in one message", () => {
    const message = badQuery(() => parseApplicationListQuery({ limit: "abc", stage: "x" }));
    expect(message).toContain("'limit'");
    expect(message).toContain("'stage'");
  });

  it("parseQuery works on any strict query schema", () => {
    expect(() => parseQuery(jobCreateBodySchema, { title: "x" })).not.toThrow();
  });
});
