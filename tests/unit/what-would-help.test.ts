import { describe, expect, it } from "vitest";
import { whatWouldHelp } from "@/lib/web/what-would-help";

describe("what would help when nothing on topic was found", () => {
  it("names other words and a wider question for any question", () => {
    const hints = whatWouldHelp();
    expect(hints).toHaveLength(2);
    expect(hints[0]).toMatch(/^Other words: /);
    expect(hints[1]).toMatch(/^A wider question: /);
  });

  it("widens the filters the search was asked with first: its scope, its dates", () => {
    const hints = whatWouldHelp({ scope: "trials", dateFrom: "2020-01-01", dateTo: "2021-12-31" });
    expect(hints[0]).toBe("A wider scope: the full index, not the clinical-trial registry only.");
    expect(hints[1]).toBe("Wider dates: this search was limited to 2020-01-01 to 2021-12-31.");
    expect(hints.slice(2).map((h) => h.split(":")[0])).toEqual(["Other words", "A wider question"]);
    expect(whatWouldHelp({ year: "2019" })[0]).toBe("Wider dates: this search was limited to the year 2019.");
    expect(whatWouldHelp({ dateFrom: "2020-01-01" })[0]).toBe("Wider dates: this search was limited to 2020-01-01 onwards.");
  });

  it("says nothing of a scope it does not know", () => {
    expect(whatWouldHelp({ scope: "something-new" })).toHaveLength(2);
  });
});
