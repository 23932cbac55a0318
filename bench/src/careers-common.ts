/** What the careers benchmark's processes share: tables, company, site, page size. */
export const CAREERS_PREFIX = "hireport_bench_careers_";
export const CAREERS_COMPANY = "bench-careers";
export const CAREERS_SITE = "https://careers.bench.example";
export const PAGE_SIZE = 25;
