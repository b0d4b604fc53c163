import { getConfig } from "@/lib/gateway/config";
import { withApi } from "@/lib/shared/http";
import { assertCronAuthorized } from "@/lib/gateway/cron/authorize";

/** Wraps a cron route: the bearer check runs first, in every environment. */
export function withCron(route: string, handler: (args: { request: Request }) => Promise<Response>) {
  return withApi(route, async ({ request }) => {
    assertCronAuthorized(request.headers.get("authorization"), getConfig().cronSecret);
    return handler({ request });
  });
}
