import type { EvidenceType, StudySpecies } from "@/lib/shared/contracts";
import { askedGroupEffect, recordAgeGroups, recordComparesGroups, recordSettings, recordSexes, recordStages } from "./age-groups";
import { promotesUse, studiesAttitudes, studiesUse } from "./attitudes";
import { isCaseReport, isCrossSectional, isStudyProtocol, studyWeeks } from "./evidence";
import { firstConcept, type QuestionReading } from "./reading";
import type { Judged } from "./relevance";
import { asksToPrevent, conceptStems, type RoleInput } from "./roles";
import { howGiven, isDecisionModel, namesOnlyAsWhoWasStudied, onlyInCombination, outcomeSpecies, peopleNotGiven, testsNothing, uncontrolledPilot, withoutUntreatedGroup } from "./studied";

/**
 * Everything the evidence roles read of one judged record against the question (roles.ts
 * decideRole): relevance's judgement and what the record's own text says of whom, how and what it
 * studied. One home, so the engine and its tests build the same input.
 */
export function roleInputOf(reading: QuestionReading, j: Judged, { evidenceType, species }: { evidenceType: EvidenceType; species: StudySpecies | null }): RoleInput {
  const record = j.record;
  const exposure = firstConcept(reading);
  const exposureStems = reading.terms.filter((t) => t.part === "exposure" || (t.concept ?? t.term) === exposure).flatMap((t) => t.stems);
  const outcomeStems = reading.terms.filter((t) => t.part === "outcome").flatMap((t) => t.stems);
  const groupKind = askedGroupEffect(reading);
  return {
    accepted: j.accepted,
    reason: j.reason,
    missingConcepts: j.missingConcepts,
    partsAddressed: j.partsAddressed,
    evidenceType,
    isRetracted: record.isRetracted,
    isProtocol: isStudyProtocol(record),
    studiesAttitudes: studiesAttitudes(record),
    studiesUse: studiesUse(record),
    promotesUse: promotesUse(record),
    ageGroups: recordAgeGroups(record),
    groupsNotCompared: groupKind && !recordComparesGroups(record, groupKind) ? groupKind : undefined,
    sexes: recordSexes(record),
    settings: recordSettings(record),
    stages: recordStages(record),
    onlyInCombination: onlyInCombination(record, reading.question, exposure),
    outcomeSpecies: outcomeSpecies(record, outcomeStems),
    peopleNotGiven: peopleNotGiven(record, exposureStems),
    ...howGiven(record),
    testsNothing: testsNothing(record),
    decisionModel: isDecisionModel(record),
    noUntreatedGroup: withoutUntreatedGroup(record),
    uncontrolledPilot: uncontrolledPilot(record),
    outcomeOnlyAsWho: asksToPrevent(reading) && namesOnlyAsWhoWasStudied(record, conceptStems(reading, ["outcome"])),
    namedTerms: j.namedTerms,
    excludedTerms: j.excludedTerms,
    title: record.titleDerived ? undefined : record.title,
    isCaseReport: isCaseReport(record),
    isCrossSectional: isCrossSectional(record),
    weeks: studyWeeks(record),
    species,
  };
}
