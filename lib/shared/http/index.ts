export * from "@/lib/shared/http/errors";
export * from "@/lib/shared/http/body";
export * from "@/lib/shared/http/relay";
export * from "@/lib/shared/http/route";
export * from "@/lib/shared/http/rate-limited";
export * from "@/lib/shared/http/unmatched";
