// The function shape of the cold-start bench: hands a route handler one GET /me as a function
// platform would (a Web Request), then prints its status and the child's clock at each mark.
export async function answerOnce(GET, imported, ready) {
  const request = new Request("http://bench.local/api/public/v1/me", {
    headers: { authorization: `Bearer ${process.env.COLD_KEY}` },
  });
  const response = await GET(request);
  await response.text();
  const answered = performance.now();
  process.stdout.write(`answered ${response.status} ${JSON.stringify({ imported, ready, answered })}\n`);
}
