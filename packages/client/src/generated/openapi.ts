/**
 * Generated from the OpenAPI document of @hireport/core (buildOpenApiDocument, with the webhook endpoints of @hireport/webhooks) by openapi-typescript
 * with its default options. Do not edit: run `pnpm --filter @hireport/client generate`.
 * test/generated-types.test.ts fails when this file drifts from core.
 */

export interface paths {
    "/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The calling key, its company and its limits
         * @description Any valid key may call it, whatever its permissions.
         *
         *     Permission: any valid key.
         */
        get: operations["getMe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/jobs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List jobs
         * @description Newest first. When has_more is true, pass next_cursor as cursor to get the next page; cursors are opaque and only valid with the same filters. To keep a copy in step, set updated_since to the time of your last successful sync, or use webhooks.
         *
         *     Permission: jobs:read (or the matching write scope).
         */
        get: operations["listJobs"];
        put?: never;
        /**
         * Create a job
         * @description Only title is required. A job is created as a draft unless status is sent; an active job appears on the public jobs page, the search-engine listing and the job-board feed. Emits job.created.
         *
         *     Permission: jobs:write (or the matching write scope).
         */
        post: operations["createJob"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/jobs/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a job
         * @description Permission: jobs:read (or the matching write scope).
         */
        get: operations["getJob"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change a job
         * @description Only the fields sent are changed; null clears salary_min, salary_max, closing_date, start_date and positions. Sending status active, draft or paused reopens a closed job. Emits job.updated.
         *
         *     Permission: jobs:write (or the matching write scope).
         */
        patch: operations["updateJob"];
        trace?: never;
    };
    "/jobs/{id}/close": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Close a job
         * @description No body. The job leaves the public jobs page and the job-board feed; emits job.closed. Closing a closed job answers 200 with the job unchanged and emits nothing.
         *
         *     Permission: jobs:write (or the matching write scope).
         */
        post: operations["closeJob"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List applications
         * @description Newest first. When has_more is true, pass next_cursor as cursor to get the next page; cursors are opaque and only valid with the same filters. To keep a copy in step, set updated_since to the time of your last successful sync, or use webhooks.
         *
         *     Permission: applications:read (or the matching write scope).
         */
        get: operations["listApplications"];
        put?: never;
        /**
         * Add a candidate to a job
         * @description The same e-mail address (compared trimmed and case-insensitive) may apply to the same job once every 30 days, whatever the stage of the earlier application; a repeat within 30 days answers 409 duplicate. A closed job takes no candidates: 422 invalid, with error.fields naming job_id (the job is closed); draft and paused jobs take them (the company's own systems may source for unpublished jobs). The new application starts in stage new. Its scores.ai_match is advice for a person, never a decision. Emits application.created.
         *
         *     Permission: applications:write (or the matching write scope).
         */
        post: operations["createApplication"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an application
         * @description Includes the candidate's contact details and a short-lived link to the CV.
         *
         *     Permission: applications:read (or the matching write scope).
         */
        get: operations["getApplication"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Move an application or add a note
         * @description Every move between the 14 stages is allowed and recorded in the history with the key's name; a PATCH to the current stage changes nothing. A note is added to the recruiter notes. Emits application.updated when something changed.
         *
         *     Permission: applications:write (or the matching write scope).
         */
        patch: operations["updateApplication"];
        trace?: never;
    };
    "/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List events
         * @description The envelopes the webhooks carry, oldest first (in the order they were committed), for a system that cannot receive webhooks. A key sees the job events when it has jobs:read, the application events when it has applications:read; a type it cannot read answers 403. Keep next_cursor, given on the last page too, and ask again with it later: following it from the start, you get every event once, with no gaps. Events are served for the feed's window (30 days unless the service says otherwise); a cursor from a page read longer ago than the window answers 410 cursor_expired. Events of an erased candidate read as erased, as their webhooks do.
         *
         *     Permission: at least one of jobs:read, applications:read (or the matching write scopes).
         */
        get: operations["listEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook-endpoints": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List webhook endpoints
         * @description Every endpoint of the company, in one page (a company has at most 20 unless the host changed the limit). Secrets are never shown here.
         *
         *     Permission: webhooks:read (or the matching write scope).
         */
        get: operations["listWebhookEndpoints"];
        put?: never;
        /**
         * Create a webhook endpoint (subscribe)
         * @description Send url and events, or, as REST Hooks clients (Zapier, Make, n8n) subscribe, target_url and event. The address must be https and reach the public internet (private, loopback and link-local addresses are refused with 422 on url). The answer holds the signing secret, shown this once; keep the endpoint's id to unsubscribe (DELETE). A company at its endpoint limit gets 409 endpoint_limit. Audit: webhook_endpoint.created, by the key.
         *
         *     Permission: webhooks:write (or the matching write scope).
         */
        post: operations["createWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook-endpoints/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a webhook endpoint
         * @description Permission: webhooks:read (or the matching write scope).
         */
        get: operations["getWebhookEndpoint"];
        put?: never;
        post?: never;
        /**
         * Delete a webhook endpoint (unsubscribe)
         * @description Deletes the endpoint with its deliveries; REST Hooks clients unsubscribe this way. Audit: webhook_endpoint.deleted, by the key.
         *
         *     Permission: webhooks:write (or the matching write scope).
         */
        delete: operations["deleteWebhookEndpoint"];
        options?: never;
        head?: never;
        /**
         * Change a webhook endpoint
         * @description Only the fields sent change; max_per_second null removes the throttle. Audit: webhook_endpoint.updated, by the key.
         *
         *     Permission: webhooks:write (or the matching write scope).
         */
        patch: operations["updateWebhookEndpoint"];
        trace?: never;
    };
    "/webhook-endpoints/{id}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate an endpoint's signing secret
         * @description No body. A new secret, shown this once; the old one keeps signing beside it for 24 hours (two signatures in each delivery). Audit: webhook_endpoint.secret_rotated, by the key.
         *
         *     Permission: webhooks:write (or the matching write scope).
         */
        post: operations["rotateWebhookEndpointSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook-endpoints/{id}/pause": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Pause a webhook endpoint
         * @description No body. Deliveries stop; new events still queue for it. Audit: webhook_endpoint.paused, by the key.
         *
         *     Permission: webhooks:write (or the matching write scope).
         */
        post: operations["pauseWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook-endpoints/{id}/resume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Resume a webhook endpoint
         * @description No body. A paused or disabled endpoint becomes active; its queued deliveries go out at once and its failure count is cleared. Audit: webhook_endpoint.resumed, by the key.
         *
         *     Permission: webhooks:write (or the matching write scope).
         */
        post: operations["resumeWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook-endpoints/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a test event
         * @description No body. Sends a webhook.test event (data: { endpoint_id }) now, signed like any other, and answers with its delivery and attempt. Not retried; works on a paused endpoint too. Audit: webhook_endpoint.test_sent, by the key.
         *
         *     Permission: webhooks:write (or the matching write scope).
         */
        post: operations["testWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook-endpoints/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List an endpoint's deliveries
         * @description Newest first, each with every attempt. When has_more is true, pass next_cursor as cursor (with the same status) to get the next page.
         *
         *     Permission: webhooks:read (or the matching write scope).
         */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook-endpoints/{id}/deliveries/{delivery_id}/resend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a delivery again
         * @description No body. The delivery becomes pending and due now, whatever its state (after the endpoint is resumed, if it is paused); one whose retries were used up gets one more attempt. Audit: webhook_delivery.resent, by the key.
         *
         *     Permission: webhooks:write (or the matching write scope).
         */
        post: operations["resendWebhookDelivery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/event-samples/{type}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A sample event
         * @description An example envelope of the event kind (application.created, application.updated, job.created, job.updated, job.closed), as a receiver gets it: the sample data REST Hooks clients (Zapier, Make, n8n) show while a trigger is set up. An unknown kind answers 404.
         *
         *     Permission: webhooks:read (or the matching write scope).
         */
        get: operations["getEventSample"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * This OpenAPI document
         * @description No key needed.
         */
        get: operations["getOpenApiDocument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/reference": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * This API's reference, as a web page
         * @description No key needed.
         */
        get: operations["getApiReference"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    "application.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * application.created
         * @description A new application arrived (from the application, the public jobs page, or POST /applications). Sent as a signed POST to your https address. Verify Service-Signature (HMAC-SHA256 of `t.body` with the signing secret) and reject a t more than 5 minutes away. Events may arrive more than once or out of order: drop repeats by id, keep the newest data.updated_at.
         */
        post: operations["applicationCreatedWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "application.updated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * application.updated
         * @description An application changed, for example its stage. Sent as a signed POST to your https address. Verify Service-Signature (HMAC-SHA256 of `t.body` with the signing secret) and reject a t more than 5 minutes away. Events may arrive more than once or out of order: drop repeats by id, keep the newest data.updated_at.
         */
        post: operations["applicationUpdatedWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "job.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * job.created
         * @description A job was added. Sent as a signed POST to your https address. Verify Service-Signature (HMAC-SHA256 of `t.body` with the signing secret) and reject a t more than 5 minutes away. Events may arrive more than once or out of order: drop repeats by id, keep the newest data.updated_at.
         */
        post: operations["jobCreatedWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "job.updated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * job.updated
         * @description A job changed. Sent as a signed POST to your https address. Verify Service-Signature (HMAC-SHA256 of `t.body` with the signing secret) and reject a t more than 5 minutes away. Events may arrive more than once or out of order: drop repeats by id, keep the newest data.updated_at.
         */
        post: operations["jobUpdatedWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "job.closed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * job.closed
         * @description A job was closed or filled. Sent as a signed POST to your https address. Verify Service-Signature (HMAC-SHA256 of `t.body` with the signing secret) and reject a t more than 5 minutes away. Events may arrive more than once or out of order: drop repeats by id, keep the newest data.updated_at.
         */
        post: operations["jobClosedWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        /** @description A job: every JobInput field is returned (short_description to positions after updated_at), so what a caller writes it can read back. Text fields that were never set are empty strings. */
        Job: {
            /** @example job_01j9x2k3m4n5p6q7r8s9t0v1w2 */
            id: string;
            /**
             * @description Readable reference, stable per company.
             * @example JOB-1042
             */
            reference: string;
            title: string;
            /** @enum {string} */
            status: "active" | "draft" | "paused" | "closed";
            /** @description True when status is active. */
            open: boolean;
            description: string;
            department: string;
            location: string;
            employment_type: string;
            experience_level: string;
            salary: components["schemas"]["Salary"];
            required_skills: string[];
            closing_date: string | null;
            applications_count: number;
            /** @description Address of the public job page while the job is public (active, not hidden, closing date not passed; the closing day itself included); otherwise null, and always null where the service has no public job pages. */
            public_url: string | null;
            /**
             * Format: date-time
             * @description UTC time, ISO 8601.
             * @example 2026-03-31T09:30:00.000Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @description UTC time, ISO 8601.
             * @example 2026-03-31T09:30:00.000Z
             */
            updated_at: string;
            /** @description One or two lines for listings. */
            short_description: string;
            preferred_skills: string[];
            qualifications: string[];
            responsibilities: string[];
            benefits: string[];
            start_date: string | null;
            positions: number | null;
            country: string | null;
            region: string | null;
            locality: string | null;
            postal_code: string | null;
            workplace_type: ("on_site" | "hybrid" | "remote") | null;
            /** @description Questions of the apply form, in the order it asks them: up to 30, ids unique. Answers arrive on the Application (answers). */
            questions: {
                /**
                 * @description A short key you choose, unique within the job and stable over its changes.
                 * @example experience
                 */
                id: string;
                /** @example How many years of Go have you written? */
                label: string;
                /** @enum {string} */
                type: "short_text" | "long_text" | "yes_no" | "single_choice" | "multiple_choice" | "number" | "date";
                /**
                 * @description Whether the form must answer it. Default false.
                 * @default false
                 */
                required: boolean;
                /**
                 * @description The choices of a single_choice or multiple_choice question (1 to 50, values unique); empty for the other types.
                 * @default []
                 */
                choices: {
                    /**
                     * @description What the answer holds when this choice is picked; unique within the question.
                     * @example 3_plus
                     */
                    value: string;
                    /**
                     * @description What the candidate reads.
                     * @example 3 years or more
                     */
                    label: string;
                    /**
                     * @description Picking it flags the application `knocked_out` (it is still stored; the candidate is not told). Default false.
                     * @default false
                     */
                    knockout: boolean;
                }[];
                /**
                 * @description A hint shown under the question; empty for none.
                 * @default
                 */
                help: string;
            }[];
        };
        /** @description Always present; min and max are null when not set. */
        Salary: {
            min: number | null;
            max: number | null;
            /** @example GBP */
            currency: string;
            /** @example year */
            period: string;
        };
        /** @description An application: personal data your company controls and the service processes for you. */
        Application: {
            /** @example app_01j9x2k3m4n5p6q7r8s9t0v1w2 */
            id: string;
            /**
             * @description Readable reference, stable per company.
             * @example APP-20931
             */
            reference: string;
            job_id: string;
            job_title: string;
            candidate: components["schemas"]["Candidate"];
            cover_letter: string;
            /** @description Short-lived link to the CV as served by the service; null when the application has no CV. */
            resume_url: string | null;
            /**
             * @description Application stage. Every move between the 14 stages is allowed and recorded in the history.
             * @enum {string}
             */
            stage: "new" | "applied" | "applicants" | "reviewed" | "shortlisted" | "technical" | "interview" | "interviewed" | "offered" | "offer_sent" | "hired" | "rejected" | "withdrawn" | "on_hold";
            source: string;
            scores: components["schemas"]["Scores"];
            tags: string[];
            starred: boolean;
            /** @description True once the candidate asked for a person to review the application (a link the careers site gives them). Additive to the v1 fields. */
            human_review_requested: boolean;
            /**
             * Format: date-time
             * @description UTC time, ISO 8601.
             * @example 2026-03-31T09:30:00.000Z
             */
            applied_at: string;
            /**
             * Format: date-time
             * @description UTC time, ISO 8601.
             * @example 2026-03-31T09:30:00.000Z
             */
            updated_at: string;
            /** @description When the candidate's personal data was erased at the company's request, or null. An erased application stays as an anonymous record: its stage, history, source, scores, tags and dates are kept; every candidate field and cover_letter are empty strings, skills is empty and resume_url is null. Additive to the v1 fields. */
            erased_at: string | null;
            /** @description The candidate's answers to the job's questions, in the questions' order (optional questions left blank are not listed). Empty once the candidate's data is erased. Additive to the v1 fields. */
            answers: {
                /** @example experience */
                question_id: string;
                /** @description The question's label when the candidate answered it. */
                label: string;
                /** @enum {string} */
                type: "short_text" | "long_text" | "yes_no" | "single_choice" | "multiple_choice" | "number" | "date";
                /** @description short_text, long_text, single_choice (a choice's value) and date (YYYY-MM-DD): a string; yes_no: a boolean; number: a number; multiple_choice: a list of choice values. */
                value: string | number | boolean | string[];
                /**
                 * @description The answer as a person reads it: the text, Yes or No, the number, the date, or the choices' labels joined by commas.
                 * @example 3 years or more
                 */
                text: string;
            }[];
            /** @description True when an answer picked a choice marked knockout. The application is stored and handled like any other; the candidate is not told. Additive to the v1 fields. */
            knocked_out: boolean;
        };
        Candidate: {
            name: string;
            email: string;
            phone: string;
            location: string;
            linkedin_url: string;
            current_title: string;
            skills: string[];
        };
        /** @description Scores that help a person review; they never decide anything on their own. */
        Scores: {
            /** @description 0 to 100: how well the candidate's skills match the job. Advice for a person to read, never a decision: hiring decisions must involve a person, and applicants can ask for a person to review their application. */
            ai_match: number;
            /** @description Set by the company's team; null until then. */
            overall: number | null;
        };
        /** @description A page of jobs, newest first. */
        JobPage: {
            /** @description Newest first. */
            data: components["schemas"]["Job"][];
            /** @description True when another page follows. */
            has_more: boolean;
            /** @description Opaque: pass it as `cursor` to get the next page; null on the last page. */
            next_cursor: string | null;
        };
        /** @description A page of applications, newest first. */
        ApplicationPage: {
            /** @description Newest first. */
            data: components["schemas"]["Application"][];
            /** @description True when another page follows. */
            has_more: boolean;
            /** @description Opaque: pass it as `cursor` to get the next page; null on the last page. */
            next_cursor: string | null;
        };
        JobResponse: {
            data: components["schemas"]["Job"];
        };
        ApplicationResponse: {
            data: components["schemas"]["Application"];
        };
        /** @description The key making the request, its company and its limits. */
        Me: {
            data: {
                company: {
                    id: string;
                    name: string;
                };
                key: {
                    id: string;
                    name: string;
                    /** @description The key's permissions, implied read permissions included (jobs:write includes jobs:read). */
                    scopes: ("jobs:read" | "jobs:write" | "applications:read" | "applications:write" | "webhooks:read" | "webhooks:write")[];
                };
                limits: {
                    /**
                     * @description Requests per minute for this key.
                     * @example 120
                     */
                    per_minute: number;
                    /**
                     * @description Requests per UTC day for this key.
                     * @example 20000
                     */
                    per_day: number;
                };
            };
        };
        /** @description Every error answer has this shape. */
        Error: {
            error: {
                /**
                 * @description Stable, machine-readable error code (see Errors in the API reference).
                 * @enum {string}
                 */
                code: "bad_request" | "missing_key" | "invalid_key" | "expired_key" | "missing_scope" | "not_found" | "method_not_allowed" | "duplicate" | "idempotency_in_progress" | "key_limit" | "endpoint_limit" | "cursor_expired" | "payload_too_large" | "invalid" | "rate_limited" | "daily_limit" | "server_error" | "service_unavailable";
                /** @description What went wrong and what to do, in plain English. */
                message: string;
                /** @description 422 invalid only: one entry per field to fix (at most 100). */
                fields?: components["schemas"]["FieldError"][];
                /**
                 * @description 403 missing_scope only: the permission the key lacks.
                 * @enum {string}
                 */
                required_scope?: "jobs:read" | "jobs:write" | "applications:read" | "applications:write" | "webhooks:read" | "webhooks:write";
                /** @description 409 duplicate only: id of the earlier application of the same e-mail to the same job. */
                existing_id?: string;
            };
        };
        /** @description The body was JSON but broke the schema; error.fields tells what to fix. */
        ValidationError: {
            error: {
                /** @constant */
                code: "invalid";
                /** @description What went wrong and what to do, in plain English. */
                message: string;
                fields: components["schemas"]["FieldError"][];
            };
        };
        /** @description The key is valid but lacks the permission in error.required_scope. */
        MissingScopeError: {
            error: {
                /** @constant */
                code: "missing_scope";
                /** @description What went wrong and what to do, in plain English. */
                message: string;
                /**
                 * @description The permission the key lacks.
                 * @enum {string}
                 */
                required_scope: "jobs:read" | "jobs:write" | "applications:read" | "applications:write" | "webhooks:read" | "webhooks:write";
            };
        };
        /** @description What is wrong with one field and how to fix it. */
        FieldError: {
            /**
             * @description Dotted path of the field; list items by index.
             * @example candidate.email
             */
            field: string;
            /** @example Must be a valid e-mail address, such as ada@example.com. */
            message: string;
        };
        /** @description Body of a webhook delivery. Events may arrive more than once or out of order: drop repeats by id, keep the version with the newest data.updated_at. */
        EventEnvelope: {
            /**
             * @description Event id; use it to drop repeats.
             * @example evt_01j9x2k3m4n5p6q7r8s9t0v1w2
             */
            id: string;
            /**
             * Format: date-time
             * @description UTC time, ISO 8601.
             * @example 2026-03-31T09:30:00.000Z
             */
            created_at: string;
            company_id: string;
            /** @constant */
            api_version: "1.0";
            /** @enum {string} */
            type: "job.created" | "job.updated" | "job.closed";
            data: components["schemas"]["Job"];
        } | {
            /**
             * @description Event id; use it to drop repeats.
             * @example evt_01j9x2k3m4n5p6q7r8s9t0v1w2
             */
            id: string;
            /**
             * Format: date-time
             * @description UTC time, ISO 8601.
             * @example 2026-03-31T09:30:00.000Z
             */
            created_at: string;
            company_id: string;
            /** @constant */
            api_version: "1.0";
            /** @enum {string} */
            type: "application.created" | "application.updated";
            data: components["schemas"]["Application"];
        };
        TestEventEnvelope: {
            /**
             * @description Event id; use it to drop repeats.
             * @example evt_01j9x2k3m4n5p6q7r8s9t0v1w2
             */
            id: string;
            /**
             * Format: date-time
             * @description UTC time, ISO 8601.
             * @example 2026-03-31T09:30:00.000Z
             */
            created_at: string;
            company_id: string;
            /** @constant */
            api_version: "1.0";
            /** @constant */
            type: "webhook.test";
            data: {
                endpoint_id: string;
            };
        };
        /** @description A webhook endpoint (a subscription). Its secret is shown once, on create and on rotate. */
        WebhookEndpoint: {
            /**
             * @description `we_…`
             * @example we_01j9x2k3m4n5p6q7r8s9t0v1w2
             */
            id: string;
            /** @description The receiver's https address. */
            url: string;
            description: string;
            /** @description The event kinds sent to it. */
            events: ("application.created" | "application.updated" | "job.created" | "job.updated" | "job.closed")[];
            /**
             * @description active; paused (by a person or a key, or after 50 failed attempts in a row); disabled (its receiver answered 410 Gone).
             * @enum {string}
             */
            status: "active" | "paused" | "disabled";
            /** @description Why it is not active: failures, manual, or gone (a 410 Gone); null while active. */
            paused_reason: ("failures" | "manual" | "gone") | null;
            /**
             * @description How deliveries are signed.
             * @enum {string}
             */
            signature_scheme: "service" | "standard-v1" | "standard-v1a";
            /** @description Deliveries go out one at a time, in the order of their events. */
            ordered: boolean;
            /** @description Most deliveries started in one second; null for no limit. */
            max_per_second: number | null;
            /** @description Failed attempts in a row; a success resets it. */
            consecutive_failures: number;
            /** @description The first characters of the current secret, to tell secrets apart. */
            secret_hint: string;
            /** @description standard-v1a: the ed25519 public key (`whpk_…`) receivers verify with; null otherwise. */
            public_key: string | null;
            previous_secret_expires_at: string | null;
            /**
             * Format: date-time
             * @description When the endpoint was created.
             */
            created_at: string;
            /**
             * Format: date-time
             * @description When it last changed.
             */
            updated_at: string;
        };
        /** @description A webhook endpoint with its signing secret, shown this once. */
        WebhookEndpointWithSecret: {
            /**
             * @description `we_…`
             * @example we_01j9x2k3m4n5p6q7r8s9t0v1w2
             */
            id: string;
            /** @description The receiver's https address. */
            url: string;
            description: string;
            /** @description The event kinds sent to it. */
            events: ("application.created" | "application.updated" | "job.created" | "job.updated" | "job.closed")[];
            /**
             * @description active; paused (by a person or a key, or after 50 failed attempts in a row); disabled (its receiver answered 410 Gone).
             * @enum {string}
             */
            status: "active" | "paused" | "disabled";
            /** @description Why it is not active: failures, manual, or gone (a 410 Gone); null while active. */
            paused_reason: ("failures" | "manual" | "gone") | null;
            /**
             * @description How deliveries are signed.
             * @enum {string}
             */
            signature_scheme: "service" | "standard-v1" | "standard-v1a";
            /** @description Deliveries go out one at a time, in the order of their events. */
            ordered: boolean;
            /** @description Most deliveries started in one second; null for no limit. */
            max_per_second: number | null;
            /** @description Failed attempts in a row; a success resets it. */
            consecutive_failures: number;
            /** @description The first characters of the current secret, to tell secrets apart. */
            secret_hint: string;
            /** @description standard-v1a: the ed25519 public key (`whpk_…`) receivers verify with; null otherwise. */
            public_key: string | null;
            previous_secret_expires_at: string | null;
            /**
             * Format: date-time
             * @description When the endpoint was created.
             */
            created_at: string;
            /**
             * Format: date-time
             * @description When it last changed.
             */
            updated_at: string;
            /** @description whsec_… (service, standard-v1): give it to the receiver now, it is never shown again. For standard-v1a, the public key whpk_… (the private key never leaves the service). */
            secret: string;
        };
        /** @description A delivery of one event to one endpoint, with every attempt. */
        WebhookDelivery: {
            /** @description `dlv_…`, also sent in the Service-Delivery header. */
            id: string;
            endpoint_id: string;
            event_id: string;
            /** @enum {string} */
            event_type: "application.created" | "application.updated" | "job.created" | "job.updated" | "job.closed" | "webhook.test";
            /** @enum {string} */
            status: "pending" | "succeeded" | "failed";
            attempts: number;
            next_attempt_at: string | null;
            /**
             * Format: date-time
             * @description When the delivery was created.
             */
            created_at: string;
            /**
             * Format: date-time
             * @description When it last changed.
             */
            updated_at: string;
            /** @description Every attempt, oldest first. */
            attempt_log: components["schemas"]["WebhookAttempt"][];
        };
        WebhookAttempt: {
            /**
             * Format: date-time
             * @description When the request was sent.
             */
            attempted_at: string;
            /** @description The receiver's HTTP status; null when none came (timeout, refused). */
            status_code: number | null;
            duration_ms: number;
            /** @description The first 4 KiB of the receiver's answer. */
            response_body: string;
            error: string | null;
            succeeded: boolean;
        };
        /** @description A page of events, oldest first. */
        ListEventsResponse: {
            /** @description Oldest first (in the order the events were committed): the envelopes the webhooks carry. */
            data: components["schemas"]["EventEnvelope"][];
            /** @description True when another page follows now: ask again at once with next_cursor. */
            has_more: boolean;
            /** @description Opaque: pass it as `cursor` to get the events after this page. Unlike other lists it is given on the last page too: keep it and ask again later for the events that follow. Null only when the feed has had no event yet. */
            next_cursor: string | null;
        };
        ListWebhookEndpointsResponse: {
            data: components["schemas"]["WebhookEndpoint"][];
            /** @constant */
            has_more: false;
            next_cursor: null;
        };
        CreateWebhookEndpointResponse: {
            data: components["schemas"]["WebhookEndpointWithSecret"];
        };
        GetWebhookEndpointResponse: {
            data: components["schemas"]["WebhookEndpoint"];
        };
        DeleteWebhookEndpointResponse: {
            data: {
                id: string;
                /** @constant */
                deleted: true;
            };
        };
        TestWebhookEndpointResponse: {
            data: {
                /**
                 * @description Whether the receiver answered 2xx.
                 * @enum {string}
                 */
                result: "succeeded" | "failed";
                delivery: components["schemas"]["WebhookDelivery"];
                attempt: components["schemas"]["WebhookAttempt"];
            };
        };
        ListWebhookDeliveriesResponse: {
            data: components["schemas"]["WebhookDelivery"][];
            has_more: boolean;
            next_cursor: string | null;
        };
        ResendWebhookDeliveryResponse: {
            data: components["schemas"]["WebhookDelivery"];
        };
        GetEventSampleResponse: {
            data: components["schemas"]["EventEnvelope"];
        };
    };
    responses: {
        /** @description A query parameter is wrong or unknown (the message names it; every endpoint refuses parameters it does not take), a cursor is not valid for the list, the body is not JSON or not application/json, or the Idempotency-Key header is not 1 to 255 visible ASCII characters. Codes: bad_request. */
        BadRequest: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description No key was sent (missing_key), the key is unknown or revoked (invalid_key), or it is past its expiry (expired_key). Codes: missing_key, invalid_key, expired_key. */
        Unauthorized: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The key lacks the permission named in error.required_scope. Codes: missing_scope. */
        Forbidden: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["MissingScopeError"];
            };
        };
        /** @description No such record in the key's company (a record of another company answers 404 too). Codes: not_found. */
        NotFound: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The path exists, but not with this method; the Allow header lists the methods it takes. Codes: method_not_allowed. */
        MethodNotAllowed: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                Allow: components["headers"]["Allow"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description duplicate: the candidate already applied to this job in the last 30 days (error.existing_id names the earlier application). idempotency_in_progress: a request with the same Idempotency-Key is still running; retry after the seconds in Retry-After. endpoint_limit: the company has as many webhook endpoints as it may (POST /webhook-endpoints, where mounted). Codes: duplicate, idempotency_in_progress, endpoint_limit. */
        Conflict: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                /** @description idempotency_in_progress only: seconds to wait before sending the request again. */
                "Retry-After"?: number;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description cursor_expired: the cursor of GET /events is from a page read longer ago than the feed's window, so events after it may be gone. The message says how to resync: read jobs and applications again with updated_since, then list events from created_since of now minus the window. Codes: cursor_expired. */
        Gone: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The request body is larger than 1,048,576 bytes (1 MiB). Codes: payload_too_large. */
        PayloadTooLarge: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The body is JSON but breaks the schema; error.fields lists each field to fix with a dotted path (candidate.email, tags.3). Also answered when an Idempotency-Key is reused with a different request (another body or another path). Codes: invalid. */
        ValidationFailed: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ValidationError"];
            };
        };
        /** @description Too many requests: per-minute (rate_limited) or per-day (daily_limit) limit of the key. Wait the seconds in Retry-After; Retry-After and X-RateLimit-Reset describe the window that refused (for daily_limit, the UTC day). A refused request does not count. Codes: rate_limited, daily_limit. */
        RateLimited: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "Retry-After": components["headers"]["Retry-After"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description A fault of the service; retry later. Details are logged, never sent. Codes: server_error. */
        ServerError: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The service is shutting down (a restart or a deploy); retry shortly. Codes: service_unavailable. */
        ServiceUnavailable: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
    };
    parameters: {
        /** @description The record's id. */
        Id: string;
        /** @description Any unique string, such as a UUID. A repeat with the same key within 24 hours replays the first answer; the same key with a different body answers 422. */
        IdempotencyKey: string;
    };
    requestBodies: {
        /** @description A new job. Only title is required; a job is created as a draft unless status says otherwise. */
        JobInput: {
            content: {
                "application/json": {
                    /**
                     * @description Job title.
                     * @example Senior Backend Engineer
                     */
                    title: string;
                    /**
                     * @description Full description shown on the job page.
                     * @default
                     */
                    description?: string;
                    /**
                     * @description One or two lines for listings.
                     * @default
                     */
                    short_description?: string;
                    /**
                     * @default
                     * @example Engineering
                     */
                    department?: string;
                    /**
                     * @default
                     * @example London
                     */
                    location?: string;
                    /**
                     * @description For example full_time, part_time, contract.
                     * @default
                     * @example full_time
                     */
                    employment_type?: string;
                    /**
                     * @default
                     * @example senior
                     */
                    experience_level?: string;
                    /** @default null */
                    salary_min?: number | null;
                    /** @default null */
                    salary_max?: number | null;
                    /**
                     * @description ISO 4217 currency code (three upper-case letters).
                     * @default GBP
                     * @example GBP
                     */
                    salary_currency?: string;
                    /**
                     * @description What one salary amount pays for.
                     * @default year
                     * @example year
                     * @enum {string}
                     */
                    salary_period?: "hour" | "day" | "week" | "month" | "year";
                    /**
                     * @description Up to 100 items of 1 to 200 characters each.
                     * @default []
                     */
                    required_skills?: string[];
                    /**
                     * @description Up to 100 items of 1 to 200 characters each.
                     * @default []
                     */
                    preferred_skills?: string[];
                    /**
                     * @description Up to 100 items of 1 to 200 characters each.
                     * @default []
                     */
                    qualifications?: string[];
                    /**
                     * @description Up to 100 items of 1 to 200 characters each.
                     * @default []
                     */
                    responsibilities?: string[];
                    /**
                     * @description Up to 100 items of 1 to 200 characters each.
                     * @default []
                     */
                    benefits?: string[];
                    /** @default null */
                    closing_date?: string | null;
                    /** @default null */
                    start_date?: string | null;
                    /** @default null */
                    positions?: number | null;
                    /** @default null */
                    country?: string | null;
                    /** @default null */
                    region?: string | null;
                    /** @default null */
                    locality?: string | null;
                    /** @default null */
                    postal_code?: string | null;
                    /** @default null */
                    workplace_type?: ("on_site" | "hybrid" | "remote") | null;
                    /**
                     * @description Questions of the apply form, in the order it asks them: up to 30, ids unique. Answers arrive on the Application (answers).
                     * @default []
                     */
                    questions?: {
                        /**
                         * @description A short key you choose, unique within the job and stable over its changes.
                         * @example experience
                         */
                        id: string;
                        /** @example How many years of Go have you written? */
                        label: string;
                        /** @enum {string} */
                        type: "short_text" | "long_text" | "yes_no" | "single_choice" | "multiple_choice" | "number" | "date";
                        /**
                         * @description Whether the form must answer it. Default false.
                         * @default false
                         */
                        required?: boolean;
                        /**
                         * @description The choices of a single_choice or multiple_choice question (1 to 50, values unique); empty for the other types.
                         * @default []
                         */
                        choices?: {
                            /**
                             * @description What the answer holds when this choice is picked; unique within the question.
                             * @example 3_plus
                             */
                            value: string;
                            /**
                             * @description What the candidate reads.
                             * @example 3 years or more
                             */
                            label: string;
                            /**
                             * @description Picking it flags the application `knocked_out` (it is still stored; the candidate is not told). Default false.
                             * @default false
                             */
                            knockout?: boolean;
                        }[];
                        /**
                         * @description A hint shown under the question; empty for none.
                         * @default
                         */
                        help?: string;
                    }[];
                    /**
                     * @description active: shown on the public jobs page, the search-engine listing and the job-board feed (unless hidden by the company). draft and paused: not public. Closing is POST /jobs/{id}/close.
                     * @default draft
                     * @enum {string}
                     */
                    status?: "active" | "draft" | "paused";
                };
            };
        };
        /** @description Changes to a job: only the fields sent are changed. Sending status active, draft or paused also reopens a closed job. */
        JobPatchInput: {
            content: {
                "application/json": {
                    /**
                     * @description Job title.
                     * @example Senior Backend Engineer
                     */
                    title?: string;
                    /** @description Full description shown on the job page. */
                    description?: string;
                    /** @description One or two lines for listings. */
                    short_description?: string;
                    /** @example Engineering */
                    department?: string;
                    /** @example London */
                    location?: string;
                    /**
                     * @description For example full_time, part_time, contract.
                     * @example full_time
                     */
                    employment_type?: string;
                    /** @example senior */
                    experience_level?: string;
                    salary_min?: number | null;
                    salary_max?: number | null;
                    /**
                     * @description ISO 4217 currency code (three upper-case letters).
                     * @example GBP
                     */
                    salary_currency?: string;
                    /**
                     * @description What one salary amount pays for.
                     * @example year
                     * @enum {string}
                     */
                    salary_period?: "hour" | "day" | "week" | "month" | "year";
                    /** @description Up to 100 items of 1 to 200 characters each. */
                    required_skills?: string[];
                    /** @description Up to 100 items of 1 to 200 characters each. */
                    preferred_skills?: string[];
                    /** @description Up to 100 items of 1 to 200 characters each. */
                    qualifications?: string[];
                    /** @description Up to 100 items of 1 to 200 characters each. */
                    responsibilities?: string[];
                    /** @description Up to 100 items of 1 to 200 characters each. */
                    benefits?: string[];
                    closing_date?: string | null;
                    start_date?: string | null;
                    positions?: number | null;
                    country?: string | null;
                    region?: string | null;
                    locality?: string | null;
                    postal_code?: string | null;
                    workplace_type?: ("on_site" | "hybrid" | "remote") | null;
                    /** @description Questions of the apply form, in the order it asks them: up to 30, ids unique. Answers arrive on the Application (answers). */
                    questions?: {
                        /**
                         * @description A short key you choose, unique within the job and stable over its changes.
                         * @example experience
                         */
                        id: string;
                        /** @example How many years of Go have you written? */
                        label: string;
                        /** @enum {string} */
                        type: "short_text" | "long_text" | "yes_no" | "single_choice" | "multiple_choice" | "number" | "date";
                        /**
                         * @description Whether the form must answer it. Default false.
                         * @default false
                         */
                        required?: boolean;
                        /**
                         * @description The choices of a single_choice or multiple_choice question (1 to 50, values unique); empty for the other types.
                         * @default []
                         */
                        choices?: {
                            /**
                             * @description What the answer holds when this choice is picked; unique within the question.
                             * @example 3_plus
                             */
                            value: string;
                            /**
                             * @description What the candidate reads.
                             * @example 3 years or more
                             */
                            label: string;
                            /**
                             * @description Picking it flags the application `knocked_out` (it is still stored; the candidate is not told). Default false.
                             * @default false
                             */
                            knockout?: boolean;
                        }[];
                        /**
                         * @description A hint shown under the question; empty for none.
                         * @default
                         */
                        help?: string;
                    }[];
                    /**
                     * @description active: shown on the public jobs page, the search-engine listing and the job-board feed (unless hidden by the company). draft and paused: not public. Closing is POST /jobs/{id}/close.
                     * @enum {string}
                     */
                    status?: "active" | "draft" | "paused";
                };
            };
        };
        /** @description Adds a candidate to one of your jobs. The same e-mail address may apply to the same job once every 30 days; a repeat answers 409 duplicate. */
        ApplicationInput: {
            content: {
                "application/json": {
                    /** @description A job of your company. */
                    job_id: string;
                    /** @description The person applying. name and email are required. */
                    candidate: {
                        /** @example Ada Lovelace */
                        name: string;
                        /**
                         * Format: email
                         * @example ada@example.com
                         */
                        email: string;
                        /**
                         * @default
                         * @example +44 20 7946 0000
                         */
                        phone?: string;
                        /** @default  */
                        location?: string;
                        /** @default  */
                        linkedin_url?: "" | string;
                        /** @default  */
                        current_title?: string;
                        /**
                         * @description Up to 100 items of 1 to 200 characters each.
                         * @default []
                         */
                        skills?: string[];
                    };
                    /** @default  */
                    cover_letter?: string;
                    /**
                     * @description An https link to the CV that the company's team can open. It is never returned as sent: the application's resume_url is a short-lived link served by the service.
                     * @default null
                     */
                    resume_url?: string | null;
                    /**
                     * @description Where the candidate came from, free text. Left out: api.
                     * @example careers-site
                     */
                    source?: string;
                    /**
                     * @description True when the candidate agreed to their data being sent; stored with its time.
                     * @default null
                     */
                    consent?: boolean | null;
                    /**
                     * @description Answers to the job's questions, checked against them: every required question answered, each value of its question's type, choices known. Left out: no answers (refused when the job has a required question).
                     * @default []
                     */
                    answers?: {
                        /** @example experience */
                        question_id: string;
                        /** @description short_text and long_text: text; yes_no: true or false; single_choice: a choice's value; multiple_choice: a list of choice values; number: a number; date: YYYY-MM-DD. */
                        value: string | number | boolean | string[];
                    }[];
                };
            };
        };
        /** @description Changes to an application: only the fields sent are changed. */
        ApplicationPatchInput: {
            content: {
                "application/json": {
                    /**
                     * @description Application stage. Every move between the 14 stages is allowed and recorded in the history.
                     * @enum {string}
                     */
                    stage?: "new" | "applied" | "applicants" | "reviewed" | "shortlisted" | "technical" | "interview" | "interviewed" | "offered" | "offer_sent" | "hired" | "rejected" | "withdrawn" | "on_hold";
                    /** @description Added to the recruiter notes with the key's name. */
                    note?: string;
                    /** @description Replaces the tags. */
                    tags?: string[];
                    starred?: boolean;
                };
            };
        };
        /** @description A new endpoint: url and events, or, as REST Hooks clients (Zapier, Make, n8n) subscribe, target_url and event. */
        CreateWebhookEndpointBody: {
            content: {
                "application/json": {
                    /** @description The receiver's https address. Give url and events, or target_url and event. */
                    url?: string;
                    /** @description The event kinds to send, at least one. */
                    events?: ("application.created" | "application.updated" | "job.created" | "job.updated" | "job.closed")[];
                    /** @description REST Hooks: the receiver's address (instead of url), with event. */
                    target_url?: string;
                    /**
                     * @description REST Hooks: the one event kind to send (instead of events).
                     * @enum {string}
                     */
                    event?: "application.created" | "application.updated" | "job.created" | "job.updated" | "job.closed";
                    /** @description Free text, at most 500 characters. */
                    description?: string;
                    /**
                     * @description service (default), standard-v1 or standard-v1a: see the receiver guide.
                     * @enum {string}
                     */
                    signature_scheme?: "service" | "standard-v1" | "standard-v1a";
                    /** @description One delivery at a time, in event order. Default false. */
                    ordered?: boolean;
                    /** @description Most deliveries started per second, 1 to 10000; null (default) for no limit. */
                    max_per_second?: number | null;
                };
            };
        };
        /** @description Only the fields sent change. A new signature_scheme replaces the key material at once: rotate-secret then shows the new secret. */
        UpdateWebhookEndpointBody: {
            content: {
                "application/json": {
                    /** @description A new https address. */
                    url?: string;
                    /** @description The event kinds to send, at least one. */
                    events?: ("application.created" | "application.updated" | "job.created" | "job.updated" | "job.closed")[];
                    /** @description Free text, at most 500 characters. */
                    description?: string;
                    /**
                     * @description service (default), standard-v1 or standard-v1a: see the receiver guide.
                     * @enum {string}
                     */
                    signature_scheme?: "service" | "standard-v1" | "standard-v1a";
                    /** @description One delivery at a time, in event order. Default false. */
                    ordered?: boolean;
                    /** @description Most deliveries started per second, 1 to 10000; null (default) for no limit. */
                    max_per_second?: number | null;
                };
            };
        };
    };
    headers: {
        /** @description Identifier of this request; quote it when asking for help. Also stored in the usage log. */
        "X-Request-Id": string;
        /** @description Requests allowed per minute for this key. */
        "X-RateLimit-Limit": number;
        /** @description Requests left in the current minute window (0 on a 429). */
        "X-RateLimit-Remaining": number;
        /** @description When the window ends, in unix seconds: the current minute window, except on a 429 daily_limit, where it is the end of the UTC day whose limit refused the request. */
        "X-RateLimit-Reset": number;
        /** @description Seconds to wait before the next request: until the minute window ends (rate_limited), or until the UTC day ends (daily_limit). */
        "Retry-After": number;
        /** @description The methods the path takes, comma-separated. */
        Allow: string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Me"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listJobs: {
        parameters: {
            query?: {
                /** @description open: active jobs; closed; draft; all (paused jobs appear only under all). */
                status?: "open" | "closed" | "draft" | "all";
                /** @description Page size, 1 to 100. */
                limit?: number;
                /** @description The next_cursor of the previous page, unchanged. Cursors are opaque. */
                cursor?: string;
                /** @description Only records changed at or after this time: a date (YYYY-MM-DD, midnight UTC) or a date-time with Z or an offset (converted to UTC). Set it to the time of your last successful sync to keep a copy in step. */
                updated_since?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobPage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createJob: {
        parameters: {
            query?: never;
            header?: {
                /** @description Any unique string, such as a UUID. A repeat with the same key within 24 hours replays the first answer; the same key with a different body answers 422. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: components["requestBodies"]["JobInput"];
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getJob: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The record's id. */
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    updateJob: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The record's id. */
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody: components["requestBodies"]["JobPatchInput"];
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    closeJob: {
        parameters: {
            query?: never;
            header?: {
                /** @description Any unique string, such as a UUID. A repeat with the same key within 24 hours replays the first answer; the same key with a different body answers 422. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description The record's id. */
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listApplications: {
        parameters: {
            query?: {
                /** @description Only applications to this job; a job of another company answers 404. */
                job_id?: string;
                /** @description Only applications in this stage. */
                stage?: "new" | "applied" | "applicants" | "reviewed" | "shortlisted" | "technical" | "interview" | "interviewed" | "offered" | "offer_sent" | "hired" | "rejected" | "withdrawn" | "on_hold";
                /** @description Page size, 1 to 100. */
                limit?: number;
                /** @description The next_cursor of the previous page, unchanged. Cursors are opaque. */
                cursor?: string;
                /** @description Only records changed at or after this time: a date (YYYY-MM-DD, midnight UTC) or a date-time with Z or an offset (converted to UTC). Set it to the time of your last successful sync to keep a copy in step. */
                updated_since?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApplicationPage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createApplication: {
        parameters: {
            query?: never;
            header?: {
                /** @description Any unique string, such as a UUID. A repeat with the same key within 24 hours replays the first answer; the same key with a different body answers 422. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: components["requestBodies"]["ApplicationInput"];
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApplicationResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getApplication: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The record's id. */
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApplicationResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    updateApplication: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The record's id. */
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody: components["requestBodies"]["ApplicationPatchInput"];
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApplicationResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listEvents: {
        parameters: {
            query?: {
                /** @description Only events of these types, comma-separated (type=job.created,job.closed): application.created, application.updated, job.created, job.updated, job.closed. Without it, every type the key may read. A type the key may not read answers 403 missing_scope. */
                type?: string;
                /** @description Only events created at or after this time: a date (YYYY-MM-DD, midnight UTC) or a date-time with Z or an offset. Events older than the feed's window (30 days unless the service says otherwise) are not served whatever this says. */
                created_since?: string;
                /** @description Page size, 1 to 100. */
                limit?: number;
                /** @description The next_cursor of the previous page, unchanged. Cursors are opaque. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ListEventsResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            405: components["responses"]["MethodNotAllowed"];
            410: components["responses"]["Gone"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listWebhookEndpoints: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ListWebhookEndpointsResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: {
                /** @description Any unique string, such as a UUID. A repeat with the same key within 24 hours replays the first answer; the same key with a different body answers 422. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: components["requestBodies"]["CreateWebhookEndpointBody"];
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreateWebhookEndpointResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            405: components["responses"]["MethodNotAllowed"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The record's id. */
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GetWebhookEndpointResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The record's id. */
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeleteWebhookEndpointResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    updateWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The record's id. */
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody: components["requestBodies"]["UpdateWebhookEndpointBody"];
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GetWebhookEndpointResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    rotateWebhookEndpointSecret: {
        parameters: {
            query?: never;
            header?: {
                /** @description Any unique string, such as a UUID. A repeat with the same key within 24 hours replays the first answer; the same key with a different body answers 422. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description The record's id. */
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreateWebhookEndpointResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    pauseWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: {
                /** @description Any unique string, such as a UUID. A repeat with the same key within 24 hours replays the first answer; the same key with a different body answers 422. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description The record's id. */
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GetWebhookEndpointResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    resumeWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: {
                /** @description Any unique string, such as a UUID. A repeat with the same key within 24 hours replays the first answer; the same key with a different body answers 422. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description The record's id. */
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GetWebhookEndpointResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    testWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: {
                /** @description Any unique string, such as a UUID. A repeat with the same key within 24 hours replays the first answer; the same key with a different body answers 422. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description The record's id. */
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TestWebhookEndpointResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                /** @description Only deliveries in this state. */
                status?: "pending" | "succeeded" | "failed";
                /** @description The next_cursor of the previous page, unchanged. Cursors are opaque. */
                cursor?: string;
                /** @description Page size, 1 to 100. */
                limit?: number;
            };
            header?: never;
            path: {
                /** @description The record's id. */
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ListWebhookDeliveriesResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    resendWebhookDelivery: {
        parameters: {
            query?: never;
            header?: {
                /** @description Any unique string, such as a UUID. A repeat with the same key within 24 hours replays the first answer; the same key with a different body answers 422. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description The record's id. */
                id: components["parameters"]["Id"];
                delivery_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ResendWebhookDeliveryResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getEventSample: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                type: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GetEventSampleResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getOpenApiDocument: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The OpenAPI 3.1 document of this API. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            405: components["responses"]["MethodNotAllowed"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getApiReference: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every operation, parameter, body field, response and error of this document, as one HTML page that loads nothing else. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            405: components["responses"]["MethodNotAllowed"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    applicationCreatedWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description The event type: application.created. */
                "Service-Event": string;
                /** @description Identifier of this delivery. */
                "Service-Delivery": string;
                /** @description `t=<unix_seconds>,v1=<hex_signature>`; during a secret rotation two v1 entries. */
                "Service-Signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EventEnvelope"];
            };
        };
        responses: {
            /** @description Delivered. Answer within 10 seconds; anything else is retried after 1 min, 5 min, 30 min, 2 h, 6 h and 12 h. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    applicationUpdatedWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description The event type: application.updated. */
                "Service-Event": string;
                /** @description Identifier of this delivery. */
                "Service-Delivery": string;
                /** @description `t=<unix_seconds>,v1=<hex_signature>`; during a secret rotation two v1 entries. */
                "Service-Signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EventEnvelope"];
            };
        };
        responses: {
            /** @description Delivered. Answer within 10 seconds; anything else is retried after 1 min, 5 min, 30 min, 2 h, 6 h and 12 h. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    jobCreatedWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description The event type: job.created. */
                "Service-Event": string;
                /** @description Identifier of this delivery. */
                "Service-Delivery": string;
                /** @description `t=<unix_seconds>,v1=<hex_signature>`; during a secret rotation two v1 entries. */
                "Service-Signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EventEnvelope"];
            };
        };
        responses: {
            /** @description Delivered. Answer within 10 seconds; anything else is retried after 1 min, 5 min, 30 min, 2 h, 6 h and 12 h. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    jobUpdatedWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description The event type: job.updated. */
                "Service-Event": string;
                /** @description Identifier of this delivery. */
                "Service-Delivery": string;
                /** @description `t=<unix_seconds>,v1=<hex_signature>`; during a secret rotation two v1 entries. */
                "Service-Signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EventEnvelope"];
            };
        };
        responses: {
            /** @description Delivered. Answer within 10 seconds; anything else is retried after 1 min, 5 min, 30 min, 2 h, 6 h and 12 h. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    jobClosedWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description The event type: job.closed. */
                "Service-Event": string;
                /** @description Identifier of this delivery. */
                "Service-Delivery": string;
                /** @description `t=<unix_seconds>,v1=<hex_signature>`; during a secret rotation two v1 entries. */
                "Service-Signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EventEnvelope"];
            };
        };
        responses: {
            /** @description Delivered. Answer within 10 seconds; anything else is retried after 1 min, 5 min, 30 min, 2 h, 6 h and 12 h. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
