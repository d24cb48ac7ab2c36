export { EvalsView } from './EvalsView.tsx';
