/**
 * Runs once when the Next.js server starts, before it serves requests: opens the database and
 * runs hireport's migrations (Node.js runtime only: the drivers are native/Node modules).
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { getHireport } = await import("./lib/hireport");
  const { location } = await getHireport();
  console.log(`[hireport] ready, data in ${location}`);
}
