import type { ReactNode } from "react";

export const metadata = { title: "hireport Next.js example" };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body style={{ fontFamily: "system-ui, sans-serif", margin: "2rem", lineHeight: 1.5 }}>{children}</body>
    </html>
  );
}
