import { ApiError, withApi } from "@/lib/http";

export const dynamic = "force-dynamic";

// ANY /api/* – a JSON 404 for paths no route serves, so API clients never get an HTML page
const notFound = withApi<{ path: string[] }>("ANY /api/[...path]", async ({ request }) => {
  const { pathname } = new URL(request.url);
  throw new ApiError("not_found", `No such route: ${request.method} ${pathname}`, { reason: "not_found" });
});

export const GET = notFound;
export const POST = notFound;
export const PUT = notFound;
export const PATCH = notFound;
export const DELETE = notFound;
