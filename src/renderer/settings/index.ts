export { FirstRun } from './FirstRun.tsx';
