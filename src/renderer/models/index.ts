export { filterModels, ModelPicker } from './ModelPicker.tsx';
export { ThinkingPicker } from './ThinkingPicker.tsx';
