import { defineKyselySuite } from "./suites/kysely-suite";

await defineKyselySuite("postgres");
