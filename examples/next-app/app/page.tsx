export default function Home() {
  return (
    <main>
      <h1>hireport on Next.js</h1>
      <p>
        The public API lives under <code>/api/public/v1</code>: try{" "}
        <a href="/api/public/v1/openapi.json">openapi.json</a> or{" "}
        <code>curl -H "Authorization: Bearer svc_live_…" http://localhost:3000/api/public/v1/me</code> with a key from{" "}
        <code>pnpm create-key</code>.
      </p>
      <p>
        The careers site lives under <a href="/careers/jobs">/careers/jobs</a>: the open jobs, their pages, the apply
        form and the feeds.
      </p>
    </main>
  );
}
