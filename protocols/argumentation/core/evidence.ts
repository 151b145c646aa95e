/** The reason an Agreed item gets when the orchestrator gave only evidence: the report need not repeat it. */
export const evidenceReason = (evidenceType: string | undefined): string => `shown by its ${evidenceType ?? 'cited'} evidence`;
