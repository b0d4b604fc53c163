import { getConfig } from "@/lib/config";
import { withApi } from "@/lib/http";
import { assertCronAuthorized } from "./authorize";

/** Wraps a cron route: the bearer check runs first, in every environment. */
export function withCron(route: string, handler: (args: { request: Request }) => Promise<Response>) {
  return withApi(route, async ({ request }) => {
    assertCronAuthorized(request.headers.get("authorization"), getConfig().cronSecret);
    return handler({ request });
  });
}
