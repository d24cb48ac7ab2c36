export { type CheckCommand, type CheckJudge, type JudgeVerdict, type RunTrace, runChecks } from './eval-checks.ts';
export { htmlReport, markdownReport } from './eval-report.ts';
export { type EvalOptions, type LoadedSuite, loadSuite, readRecords, runEval, writeReport } from './eval-runner.ts';
export { type ModelName, parseModelName } from './model-name.ts';
export { type ModelScore, scoreRuns, type TaskScore, wilson } from './eval-scoring.ts';
export { compareEvals, type EvalComparison, type ModelChange, type TaskChange } from './eval-compare.ts';
export { EVAL_PAGE, type EvalDetail, EvalLibrary, type EvalListing, type EvalMeta } from './eval-library.ts';
export { createJudge } from './eval-judge.ts';
