export { EvalCheck, EvalCheckResult, EvalLimits, EvalRunRecord, EvalSuite, EvalTask } from './eval-suite.ts';
