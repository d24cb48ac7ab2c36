export { assertIdle } from '../agent/index.ts';
